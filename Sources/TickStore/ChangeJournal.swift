import Foundation
import TickModel
import TickRecords
import TickSystem

/// The journal of the changes tick made to a notes folder, for `tick undo`
/// and `tick redo` (SPEC §5.8).
///
/// Guarantees: every change a command committed is one entry, holding for
/// each file it touched the bytes that changed (the stretch between the
/// common start and end of the old and the new file, both ways), a checksum
/// and the size of the whole file before and after, and whether the change
/// created it. Undo writes every file of an entry back, or none: each file
/// must hold exactly the bytes the change left (else `changedOnDisk`, 75,
/// naming the file), and the files are locked, checked and replaced as
/// every edit is (`FileLock`, `AtomicWriter`); a file the change created is
/// removed. Redo is the same the other way. The journal is one JSON file
/// per entry under `$XDG_STATE_HOME/tick/journal/<folder>/` (else
/// `~/.local/state/tick`), written through a temporary file and a rename,
/// and kept to the last `limit` entries.
public struct ChangeJournal: Sendable {
    /// The folder of this notes folder's entries.
    public let folder: String
    /// The notes folder (absolute, links resolved).
    let root: String
    /// How many entries are kept.
    static let limit = 100

    /// The journal of `root`, or nil when there is no state folder to use.
    public init?(root: String, environment: Environment = .process) {
        guard let base = UserFolders.tick(.state, environment: environment) else { return nil }
        self.root = root
        folder = base + "/journal/" + String(FNV1a.hash(root), radix: 16)
    }

    /// One file's part of a change.
    public struct FileChange: Codable, Sendable, Equatable {
        /// Relative to the notes folder.
        public var path: String
        /// Where the changed stretch starts (the bytes before it are common).
        var start: Int
        /// The stretch in the file before the change and after it.
        var before: Data
        var after: Data
        /// The whole file's size and checksum (hexadecimal: JSON numbers
        /// do not hold 64 bits exactly) before and after.
        var sizeBefore: Int
        var checksumBefore: String
        var sizeAfter: Int
        var checksumAfter: String
        /// True when the change created the file (undo removes it).
        var created: Bool

        /// The change from `old` (nil: the file did not exist) to `new`.
        init(path: String, old: [UInt8]?, new: [UInt8]) {
            self.path = path
            let old = old ?? []
            var prefix = 0
            let shorter = min(old.count, new.count)
            while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
            var suffix = 0
            while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
            start = prefix
            before = Data(old[prefix..<old.count - suffix])
            after = Data(new[prefix..<new.count - suffix])
            sizeBefore = old.count
            sizeAfter = new.count
            checksumBefore = ChangeJournal.checksum(old)
            checksumAfter = ChangeJournal.checksum(new)
            created = false
        }
    }

    /// One change: a command and the files it changed.
    public struct Entry: Codable, Sendable {
        /// Orders entries: nanoseconds since 1970 when the change was made.
        public var id: Int
        /// The command as typed (`tick done milk`).
        public var command: String
        public var files: [FileChange]
        /// Nanoseconds since 1970 when it was undone; nil while it holds.
        public var undoneAt: Int?
    }

    static func checksum(_ bytes: [UInt8]) -> String {
        String(bytes.withUnsafeBufferPointer { ListPayload.checksum($0) }, radix: 16)
    }

    // MARK: Recording

    /// Records a change: `files` with their bytes before (nil: created) and after.
    public func record(command: String, files: [(path: String, old: [UInt8]?, new: [UInt8])]) throws {
        guard !files.isEmpty else { return }
        try withLock {
            var changes: [FileChange] = []
            for file in files {
                var change = FileChange(path: file.path, old: file.old, new: file.new)
                change.created = file.old == nil
                changes.append(change)
            }
            // A new change ends what can be redone: undone entries go.
            for entry in entries() where entry.undoneAt != nil { Posix.remove(folder + "/\(entry.id).json") }
            try save(Entry(id: Posix.nanosecondsNow(), command: command, files: changes, undoneAt: nil))
            try prune()
        }
    }

    // MARK: Reading

    /// Every entry, oldest first. An entry file that cannot be read is left out.
    public func entries() -> [Entry] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        let decoder = JSONDecoder()
        return names.filter { $0.hasSuffix(".json") }.compactMap { name in
            (try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))).flatMap { try? decoder.decode(Entry.self, from: $0) }
        }.sorted { $0.id < $1.id }
    }

    /// The entry `undo` reverts: the newest one that holds.
    public func nextToUndo(in entries: [Entry]) -> Entry? { entries.last { $0.undoneAt == nil } }

    /// The entry `redo` applies again: the oldest of the undone entries
    /// after the newest one that holds, which is the one undone last (undo,
    /// undo, redo, redo walks back and forth; a new change removes the
    /// undone entries, so it ends what can be redone).
    public func nextToRedo(in entries: [Entry]) -> Entry? {
        let tail = entries.reversed().prefix { $0.undoneAt != nil }
        return tail.last
    }

    // MARK: Undo and redo

    /// What went wrong undoing or redoing.
    public enum Failure: Error, CustomStringConvertible {
        case nothing(String)
        case file(WriteFailure)

        public var description: String {
            switch self {
            case .nothing(let message): message
            case .file(let failure): failure.description
            }
        }
    }

    /// Reverts the newest change that holds (`redo: false`) or applies the
    /// change undone last again (`redo: true`), all its files or none.
    /// Returns the entry.
    public func apply(redo: Bool) throws(Failure) -> Entry {
        var result: Entry? = nil
        var failure: Failure? = nil
        do {
            try withLock {
                let all = entries()
                guard var entry = redo ? nextToRedo(in: all) : nextToUndo(in: all) else {
                    failure = .nothing(redo ? "nothing to redo in this notes folder" : "nothing to undo in this notes folder")
                    return
                }
                do throws(WriteFailure) {
                    try write(entry, backwards: !redo)
                } catch {
                    failure = .file(error)
                    return
                }
                entry.undoneAt = redo ? nil : Posix.nanosecondsNow()
                try save(entry)
                result = entry
            }
        } catch {
            if failure == nil { failure = .nothing("cannot write the change journal in \(folder): \(error.localizedDescription)") }
        }
        if let failure { throw failure }
        return result!
    }

    /// Writes `entry`'s files back (`backwards`) or forwards: every file is
    /// locked and must hold the bytes of the other side, then all are written.
    private func write(_ entry: Entry, backwards: Bool) throws(WriteFailure) {
        var locks: [FileLock] = []
        defer { for lock in locks { lock.release() } }
        var changes: [AtomicWriter.Change] = []
        var removals: [FileLock] = []
        var creations: [(path: String, bytes: [UInt8])] = []
        for file in entry.files.sorted(by: { $0.path < $1.path }) {
            let (size, checksum) = backwards ? (file.sizeAfter, file.checksumAfter) : (file.sizeBefore, file.checksumBefore)
            let (from, to) = backwards ? (file.after, file.before) : (file.before, file.after)
            if !backwards && file.created {
                // Redo of a creation: the file must not exist.
                if FileManager.default.fileExists(atPath: root + "/" + file.path) { throw .changedOnDisk(path: file.path) }
                creations.append((file.path, Array(to)))
                continue
            }
            let lock: FileLock
            do throws(WriteFailure) {
                lock = try FileLock.acquire(file.path, in: root)
            } catch {
                throw error.naming(file.path)
            }
            locks.append(lock)
            guard lock.bytes.count == size, Self.checksum(lock.bytes) == checksum,
                lock.bytes.count >= file.start + from.count, Array(lock.bytes[file.start..<file.start + from.count]) == Array(from)
            else { throw .changedOnDisk(path: file.path) }
            if backwards && file.created {
                removals.append(lock)
                continue
            }
            var bytes = lock.bytes
            bytes.replaceSubrange(file.start..<file.start + from.count, with: to)
            changes.append(AtomicWriter.Change(lock: lock, bytes: bytes))
        }
        var created: [AtomicWriter.CreatedFile] = []
        do throws(WriteFailure) {
            for creation in creations {
                created.append(try AtomicWriter.create(creation.path, in: root, bytes: creation.bytes))
            }
            try AtomicWriter.commit(changes)
        } catch {
            for file in created { file.remove() }
            let prefix = root + "/"
            throw error.path.hasPrefix(prefix) ? error.naming(String(error.path.dropFirst(prefix.count))) : error
        }
        for lock in removals { lock.removeFile() }
    }

    // MARK: Files

    private func save(_ entry: Entry) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(entry)
        let path = folder + "/\(entry.id).json"
        let temporary = path + ".\(Posix.processID).tmp"
        try data.write(to: URL(fileURLWithPath: temporary))
        guard Posix.rename(temporary, to: path) else {
            Posix.remove(temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// Keeps the newest `limit` entries.
    private func prune() throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let ids = names.compactMap { $0.hasSuffix(".json") ? Int($0.dropLast(5)) : nil }.sorted()
        for id in ids.dropLast(Self.limit) { Posix.remove(folder + "/\(id).json") }
    }

    /// Runs `body` holding the journal's lock (`flock` on `lock` in its folder).
    private func withLock(_ body: () throws -> Void) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let descriptor = Posix.openFile(folder + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, permissions: 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
        defer { Posix.closeFile(descriptor) }
        guard Posix.lock(descriptor, LOCK_EX) else { throw CocoaError(.fileLocking) }
        defer { Posix.unlock(descriptor) }
        try body()
    }
}
