import Foundation
import TickModel
import TickSystem

/// Replaces list files atomically, and only when nobody changed them since
/// they were read (SPEC §5.3, §5.4).
///
/// Guarantees: the new bytes go to a temporary file in the target's own
/// folder, which is flushed (`fsync`), given the old file's permissions (and
/// owner, where allowed) and renamed over the target; a crash leaves the old
/// file or the new one. Through a symbolic link the target is replaced and
/// the link kept. Just before the rename, the file's size, modification time,
/// inode and bytes are compared with what was read under the lock: if any
/// differ, nothing is written (`changedOnDisk`). On Linux the rename is an
/// atomic exchange that checks the replaced file once more, so a save in
/// between is put back, not lost. A file that is not valid
/// UTF-8 is never rewritten. On every failure the temporary files are removed
/// and the targets are untouched.
public enum AtomicWriter {
    /// One file to replace: its lock (with the bytes read under it) and the new bytes.
    public struct Change {
        public var lock: FileLock
        public var bytes: [UInt8]
        public init(lock: FileLock, bytes: [UInt8]) {
            self.lock = lock
            self.bytes = bytes
        }
    }

    /// Writes every change, or none when a check fails before the first
    /// rename. `beforeCheck` runs after the temporary files are written and
    /// before the unchanged check (a seam for tests).
    public static func commit(_ changes: [Change], beforeCheck: (() -> Void)? = nil) throws(WriteFailure) {
        ProcessHooks.beforeWritingFiles() // the command line makes a file size limit an error, not a crash
        for change in changes where !UTF8Check.isValid(change.lock.bytes) {
            throw .notUTF8(path: change.lock.path)
        }
        // The mode, owner and links as they are now, under the lock (a
        // chmod made since the file was read is kept, not undone).
        var statuses: [stat] = []
        for change in changes {
            guard let now = change.lock.currentStatus() else { throw .changedOnDisk(path: change.lock.path) }
            try checkReplaceable(change.lock, now)
            statuses.append(now)
        }
        var temporaries: [(folder: Int32, name: String)] = []
        func discard() { for temporary in temporaries { Posix.remove(in: temporary.folder, temporary.name) } }
        do throws(WriteFailure) {
            for (change, status) in zip(changes, statuses) {
                temporaries.append(
                    (
                        change.lock.folder,
                        try writeTemporary(
                            change.bytes, in: change.lock.folder, beside: change.lock.name,
                            shownPath: change.lock.path, like: status,
                            attributesFrom: change.lock.fileDescriptor)
                    ))
            }
            TestSeam.wait("TICK_TEST_WAIT_BEFORE_COMMIT")
            beforeCheck?()
            for change in changes { try checkUnchanged(change.lock) }
        } catch {
            discard()
            throw error
        }
        for (index, change) in changes.enumerated() {
            do throws(WriteFailure) {
                try replace(change.lock, with: temporaries[index].name)
            } catch {
                for temporary in temporaries[(index + 1)...] { Posix.remove(in: temporary.folder, temporary.name) }
                throw error
            }
            Posix.sync(change.lock.folder) // the rename survives a crash
        }
    }

    /// Puts the temporary file (named `temporary` in the lock's folder) in
    /// place of the locked file. On Linux this
    /// is an atomic exchange (`renameat2` with `RENAME_EXCHANGE`): the file
    /// that was at the path comes out under the temporary name, and unless
    /// it is the very file that was read (an editor saved in the moment
    /// since the unchanged check), it is swapped back and nothing is
    /// written (`changedOnDisk`). So no save is lost however close it comes
    /// to tick's. Elsewhere, or on a file system without exchange, a plain
    /// `rename`. The temporary file is gone afterwards either way. Both
    /// names are taken in the folder the lock holds open.
    static func replace(_ lock: FileLock, with temporary: String) throws(WriteFailure) {
        let folder = lock.folder
        if Posix.canExchange {
            let ours = Posix.status(in: folder, temporary)
            if Posix.exchange(in: folder, temporary, lock.name) {
                if isTheFileRead(temporary, lock) {
                    Posix.remove(in: folder, temporary)
                    return
                }
                _ = Posix.exchange(in: folder, temporary, lock.name)
                // Remove what came back out only if it is our own file.
                if let ours, let back = Posix.status(in: folder, temporary), back.isSameFile(as: ours) {
                    Posix.remove(in: folder, temporary)
                }
                throw .changedOnDisk(path: lock.path)
            }
            let code = errno
            if code != EINVAL && code != ENOSYS && code != EOPNOTSUPP {
                Posix.remove(in: folder, temporary)
                throw .cannotWrite(path: lock.path, reason: WriteFailure.reason(code))
            }
        }
        if !Posix.rename(in: folder, temporary, to: lock.name) {
            let code = errno
            Posix.remove(in: folder, temporary)
            throw .cannotWrite(path: lock.path, reason: WriteFailure.reason(code))
        }
    }

    /// True when `name` in the lock's folder is the file `lock` read,
    /// unchanged: same inode, size, modification time and bytes.
    static func isTheFileRead(_ name: String, _ lock: FileLock) -> Bool {
        guard let now = Posix.status(in: lock.folder, name) else { return false }
        let before = lock.status
        guard now.isSameFile(as: before), now.st_size == before.st_size,
            now.modificationTime == before.modificationTime
        else { return false }
        let descriptor = Posix.openFile(in: lock.folder, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { Posix.closeFile(descriptor) }
        let read = Posix.readAll(descriptor, sizeHint: Int(now.st_size))
        return read.failure == nil && read.bytes == lock.bytes
    }

    /// Creates a new file at `path` (absolute) in the real folder of its own folder.
    @discardableResult
    public static func create(_ path: String, bytes: [UInt8]) throws(WriteFailure) -> CreatedFile {
        let parent = (path as NSString).deletingLastPathComponent
        return try create((path as NSString).lastPathComponent, in: FileLock.resolvedPath(parent.isEmpty ? "." : parent), shownAs: path, bytes: bytes)
    }

    /// Creates a new file at `relativePath` below `root` (absolute, links
    /// resolved) with `bytes`, atomically and without replacing anything:
    /// fails with `exists` when the name is taken. The folder it goes in
    /// must exist and lie inside `root`; it is opened without following
    /// links (as `FileLock` opens a file), and the file is made in it.
    /// Returns the file made, for removing it again.
    @discardableResult
    public static func create(_ relativePath: String, in root: String, shownAs shown: String? = nil, bytes: [UInt8]) throws(WriteFailure)
        -> CreatedFile
    {
        let path = shown ?? root + "/" + relativePath
        let parent = (relativePath as NSString).deletingLastPathComponent
        let name = (relativePath as NSString).lastPathComponent
        var folder: Int32 = -1
        for attempt in 0..<1000 {
            let named = parent.isEmpty ? root : root + "/" + parent
            guard let real = Posix.realPath(named) else { throw .cannotWrite(path: path, reason: WriteFailure.reason(errno)) }
            guard real == root || real.hasPrefix(root + "/") else { throw .outside(path: path) }
            if attempt == 0 { TestSeam.wait("TICK_TEST_WAIT_BEFORE_CREATE") }
            folder = Posix.openFile(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard folder >= 0 else { throw .cannotWrite(path: path, reason: WriteFailure.reason(errno)) }
            var replaced = false
            for component in real.dropFirst(root.count).split(separator: "/") {
                let next = Posix.openFile(in: folder, String(component), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                Posix.closeFile(folder)
                folder = next
                if next < 0 {
                    replaced = true
                    break
                }
            }
            if !replaced { break }
        }
        guard folder >= 0 else { throw .changedOnDisk(path: path) }
        // The folder as named must still be the folder opened: else the new
        // file would be made where its name no longer leads.
        let named = parent.isEmpty ? root : root + "/" + parent
        guard let opened = Posix.status(of: folder), let viaName = Posix.status(atPath: named), opened.isSameFile(as: viaName) else {
            Posix.closeFile(folder)
            throw .changedOnDisk(path: path)
        }
        ProcessHooks.beforeWritingFiles()
        var status = stat()
        status.st_mode = mode_t(0o666) & ~Posix.creationMask()
        status.st_uid = Posix.userID
        status.st_gid = Posix.groupID
        let temporary: String
        do throws(WriteFailure) {
            temporary = try writeTemporary(bytes, in: folder, beside: name, shownPath: path, like: status)
        } catch {
            Posix.closeFile(folder)
            throw error
        }
        if !Posix.link(in: folder, temporary, to: name) {
            let code = errno
            Posix.remove(in: folder, temporary)
            Posix.closeFile(folder)
            if code == EEXIST { throw .exists(path: path) }
            throw .cannotWrite(path: path, reason: WriteFailure.reason(code))
        }
        Posix.remove(in: folder, temporary)
        Posix.sync(folder)
        return CreatedFile(folder: folder, name: name)
    }

    /// A file `create` made: its open folder and its name there.
    public final class CreatedFile {
        let folder: Int32
        let name: String

        init(folder: Int32, name: String) {
            self.folder = folder
            self.name = name
        }

        /// Removes the file again (from the folder it was made in).
        public func remove() { Posix.remove(in: folder, name) }

        deinit { Posix.closeFile(folder) }
    }

    /// Refuses (`protected`) to replace a file the user may not write
    /// (read-only to them; for root, a file with no write permission at all)
    /// or a file with more than one name (hard links): renaming a new file
    /// over it would ignore its permissions, or leave its other names with
    /// the old text.
    static func checkReplaceable(_ lock: FileLock, _ status: stat) throws(WriteFailure) {
        let readOnly = Posix.isRoot ? status.st_mode & 0o222 == 0 : !Posix.mayWrite(in: lock.folder, lock.name)
        if readOnly {
            throw .protected(path: lock.path, reason: "is read-only; tick does not replace a file it may not write (make it writable first)")
        }
        if status.st_nlink > 1 {
            throw .protected(
                path: lock.path,
                reason:
                    "has \(status.st_nlink) names (hard links); replacing it would leave the other names with the old text (copy the file to a name of its own, or remove the other links, then run the command again)"
            )
        }
    }

    /// Writes `bytes` to a new hidden file beside the locked file, in its
    /// folder, and flushes it; returns the file's name in that folder.
    static func writeTemporary(_ bytes: [UInt8], for lock: FileLock) throws(WriteFailure) -> String {
        try writeTemporary(bytes, in: lock.folder, beside: lock.name, shownPath: lock.path, like: lock.status)
    }

    /// Writes `bytes` to a new hidden file `.NAME.tick-XXXXXX` in the open
    /// `folder`, with the permissions (and owner, where allowed) of `status`,
    /// and flushes it; returns the new file's name.
    /// The extended attributes of the open file `attributesFrom` (user
    /// attributes, and ACLs, which are attributes too) are copied where
    /// allowed.
    static func writeTemporary(
        _ bytes: [UInt8], in folder: Int32, beside name: String, shownPath: String, like status: stat,
        attributesFrom original: Int32? = nil
    ) throws(WriteFailure) -> String {
        var descriptor: Int32 = -1
        var temporary = ""
        for _ in 0..<100 {
            temporary = "." + name + ".tick-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
            descriptor = Posix.openFile(in: folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions: 0o600)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw .cannotWrite(path: shownPath, reason: WriteFailure.reason(errno)) }
        let name = temporary
        func fail(_ code: Int32) -> WriteFailure {
            Posix.closeFile(descriptor)
            Posix.remove(in: folder, name)
            return .cannotWrite(path: shownPath, reason: WriteFailure.reason(code))
        }
        if let code = bytes.withUnsafeBytes({ Posix.writeAll($0, to: descriptor) }) { throw fail(code) }
        if !Posix.setOwner(descriptor, user: status.st_uid, group: status.st_gid) { // keeps the owner where allowed
            Posix.setOwner(descriptor, user: uid_t.max, group: status.st_gid) // else at least the group, where allowed
        }
        if let original { Posix.copyExtendedAttributes(from: original, to: descriptor) }
        if !Posix.setPermissions(descriptor, status.st_mode & 0o7777) { throw fail(errno) }
        if !Posix.sync(descriptor) { throw fail(errno) }
        if Posix.closeFile(descriptor) != 0 {
            let code = errno
            Posix.remove(in: folder, name)
            throw .cannotWrite(path: shownPath, reason: WriteFailure.reason(code))
        }
        return name
    }

    /// Throws `changedOnDisk` unless the file at the lock's path is still the
    /// one that was read, with the same bytes: its name in the locked folder
    /// names the locked file, and so does the path as given.
    static func checkUnchanged(_ lock: FileLock) throws(WriteFailure) {
        guard let now = Posix.status(in: lock.folder, lock.name), let viaPath = Posix.status(atPath: lock.path),
            viaPath.isSameFile(as: now)
        else {
            throw .changedOnDisk(path: lock.path)
        }
        let before = lock.status
        guard now.isSameFile(as: before), now.st_size == before.st_size,
            now.modificationTime == before.modificationTime
        else {
            throw .changedOnDisk(path: lock.path)
        }
        guard isTheFileRead(lock.name, lock) else { throw .changedOnDisk(path: lock.path) }
    }
}
