import Foundation
import TickModel
import TickRecords
import TickSyntax
import TickSystem

/// What `stat` says about a file, enough to tell whether it changed since it
/// was parsed: size, modification time and status-change time (ctime, which
/// no user can set: a rewrite whose mtime is put back still moves it) to the
/// nanosecond, inode and device.
public struct FileStamp: Hashable, Sendable {
    public var size: Int
    public var modifiedSeconds: Int
    public var modifiedNanoseconds: Int
    public var changedSeconds: Int
    public var changedNanoseconds: Int
    public var inode: Int
    public var device: Int

    public init(
        size: Int, modifiedSeconds: Int, modifiedNanoseconds: Int, changedSeconds: Int = 0, changedNanoseconds: Int = 0,
        inode: Int, device: Int
    ) {
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedSeconds = changedSeconds
        self.changedNanoseconds = changedNanoseconds
        self.inode = inode
        self.device = device
    }

    init(_ info: stat) {
        let modified = info.modificationTime
        let changed = info.changeTime
        self.init(
            size: Int(info.st_size), modifiedSeconds: modified.seconds, modifiedNanoseconds: modified.nanoseconds,
            changedSeconds: changed.seconds, changedNanoseconds: changed.nanoseconds,
            inode: Int(truncatingIfNeeded: info.inodeNumber), device: Int(truncatingIfNeeded: info.deviceNumber))
    }

    /// The later of the modification and change times, in nanoseconds since 1970.
    var latestTime: Int {
        max(modifiedSeconds &* 1_000_000_000 &+ modifiedNanoseconds, changedSeconds &* 1_000_000_000 &+ changedNanoseconds)
    }

    /// How long after a change the file's timestamps may still show the
    /// time before it: 2 s on a file system that keeps whole seconds (both
    /// nanosecond fields 0; FAT keeps even seconds), 50 ms elsewhere (the
    /// kernel stamps files from a clock that advances a tick, 1–10 ms, at a time).
    var timestampGranularity: Int {
        modifiedNanoseconds == 0 && changedNanoseconds == 0 ? 2_000_000_000 : 50_000_000
    }

    /// True when a change made after `time` (nanoseconds since 1970) would
    /// certainly give the file other timestamps than these: they are older
    /// than `time` by more than their granularity (or `granularity`, when given).
    func isSettled(before time: Int, granularity: Int? = nil) -> Bool {
        latestTime &+ (granularity ?? timestampGranularity) < time
    }
}

/// The notes folder: finds its lists and reads them (SPEC §1).
///
/// Every `*.md` and `*.markdown` file below the root is a list; hidden
/// folders and `node_modules` are skipped, and so, inside a git work tree,
/// are the files git's ignore rules name (read in-process: `IgnoreRules`). Symbolic links are
/// followed, but never out of the root and never round a loop.
public struct NotesFolder: Sendable {
    /// The root, absolute and with symbolic links resolved.
    public let root: String

    public struct Problem: Error, CustomStringConvertible, TickErrorConvertible {
        public var description: String
        public var tickError: TickError { .noInput(description) }
    }

    /// Opens the folder at `path`; fails when it is not a readable folder.
    public init(path: String) throws {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
            throw Problem(description: "notes folder \(path) does not exist; pass --dir or set TICK_DIR")
        }
        guard isDirectory.boolValue else {
            throw Problem(description: "\(path) is not a folder; pass a folder with --dir")
        }
        guard Posix.mayReadAndSearch(absolute) else {
            throw Problem(description: "cannot read notes folder \(path); check its permissions")
        }
        root = Self.resolved(absolute)
    }

    static func resolved(_ path: String) -> String { Posix.realPath(path) ?? path }

    /// The absolute path of a path relative to the root.
    public func absolute(_ relativePath: String) -> String { root + "/" + relativePath }

    /// The path relative to the root of an absolute path inside it, else nil.
    public func relative(_ absolutePath: String) -> String? {
        let resolved = URL(fileURLWithPath: absolutePath).standardizedFileURL.path
        if resolved == root { return "" }
        if resolved.hasPrefix(root + "/") { return String(resolved.dropFirst(root.count + 1)) }
        let real = Self.resolved(resolved)
        if real.hasPrefix(root + "/") {
            // A path through a symlinked root: keep the name the user gave.
            let parent = Self.resolved((resolved as NSString).deletingLastPathComponent)
            if parent == root { return (resolved as NSString).lastPathComponent }
            if parent.hasPrefix(root + "/") { return String(parent.dropFirst(root.count + 1)) + "/" + (resolved as NSString).lastPathComponent }
        }
        return nil
    }

    /// True for the file names tick treats as lists.
    public static func isListFile(_ name: String) -> Bool {
        // Compared as bytes: the same answer as `hasSuffix` (a grapheme
        // always breaks before "."), without its Unicode machinery, for
        // every file of the folder on every query.
        // (Read in place and compared with `memcmp`: the generic
        // `suffix(_:).elementsEqual(_:)` was a tenth of the walk's own work.)
        var name = name
        return name.withUTF8 { bytes in
            func hasSuffix(_ suffix: StaticString) -> Bool {
                let count = suffix.utf8CodeUnitCount
                guard bytes.count >= count else { return false }
                return Posix.compareBytes(bytes.baseAddress! + (bytes.count - count), suffix.utf8Start, count) == 0
            }
            return hasSuffix(".md") || hasSuffix(".markdown")
        }
    }

    /// The list files, as paths relative to the root, sorted; and warnings
    /// about what had to be skipped.
    ///
    /// A file reached by several paths (through symbolic links) is listed
    /// once, under the path with no link in it if there is one, else the
    /// shortest. A link to a folder that contains it is not followed.
    public func listFiles() -> (paths: [String], warnings: [String]) {
        let (entries, warnings, unnamable) = listFileEntries()
        return (entries.map(\.path), warnings + unnamable.map(Self.unnamableWarning))
    }

    /// The warning about a list file or folder whose name is not UTF-8.
    public static func unnamableWarning(_ path: String) -> String {
        "\(path): \(unnamableProblem)"
    }

    /// What is wrong with a list file or folder whose name is not UTF-8.
    public static let unnamableProblem = "its name is not valid UTF-8, so tick cannot name it; skipped (rename it, for example with `mv`)"

    /// The list files as `listFiles()` finds them, each with the stamp of
    /// its `stat` (size, modification time, inode) taken during the walk;
    /// warnings about what is skipped; and, apart, the list files and
    /// folders skipped because their names are not UTF-8 (paths with each
    /// byte that is not UTF-8 written `\xHH`), which `check` reports as
    /// problems and every other command as warnings.
    public func listFileEntries() -> (files: [(path: String, stamp: FileStamp)], warnings: [String], unnamable: [String]) {
        var warnings: [String] = []
        var unnamable: [String] = []
        /// Every list file found, in walk order.
        var found: [(path: String, stamp: FileStamp)] = []
        /// Where each folder's files went in `found`, for telling which
        /// paths name one file when there are links (rare: kept aside).
        var placed: [(folder: WalkedFolder, files: FolderContents)] = []
        var sawLink = false
        // The walk goes level by level; the folders of one level are read on
        // every core (a big notes folder has thousands of files to `stat`),
        // and what they hold is merged in order, so the result does not
        // depend on timing.
        var level = [WalkedFolder(relative: "", real: root, ancestors: [root], throughLink: false, ignoring: IgnoreRules.forRoot(root))]
        var walked = 0
        // Whether `found` is in path order so far: each folder's files are
        // (`FolderContents.files`), so only where one folder's files meet
        // the next's is compared; `sortByPath`'s pass over every path cost
        // a cache miss for each (2 ms at 50,000 notes).
        var isSorted = true
        while !level.isEmpty {
            if walked + level.count > 100_000 {
                warnings.append("more than 100000 folders below the notes folder; the rest are skipped")
                level = Array(level.prefix(max(0, 100_000 - walked)))
            }
            walked += level.count
            let contents = Parallel.map(level.count) { index in read(level[index]) }
            // Grown once: grown by doubling, it was copied and its new pages
            // faulted in again a dozen times.
            found.reserveCapacity(found.count + contents.reduce(0) { $0 + $1.files.count })
            var next: [WalkedFolder] = []
            for (folder, held) in zip(level, contents) {
                warnings += held.warnings
                unnamable += held.unnamable
                // A folder below a link was counted when the link was met.
                sawLink = sawLink || held.folders.contains { $0.throughLink }
                next += held.folders
                sawLink = sawLink || !held.linkedFiles.isEmpty
                if isSorted, let first = held.files.first {
                    isSorted = held.pathsAreASCII && (found.last.map { Self.isBefore($0.path, first.path) } ?? true)
                }
                found += held.files
                placed.append((folder, held))
            }
            level = next
        }
        if sawLink { found = Self.withoutRepeats(placed) }
        if sawLink || !isSorted { Self.sortByPath(&found) }
        return (found, warnings, unnamable)
    }

    /// The files of `placed` with each file named once: only a link can
    /// make two paths name one file, and then the preferred path is kept.
    private static func withoutRepeats(_ placed: [(folder: WalkedFolder, files: FolderContents)]) -> [(path: String, stamp: FileStamp)] {
        var files: [(path: String, stamp: FileStamp, real: String, throughLink: Bool)] = []
        for (folder, held) in placed {
            for (index, file) in held.files.enumerated() {
                let link = held.linkedFiles[index]
                let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
                files.append((file.path, file.stamp, link ?? folder.real + "/" + name, folder.throughLink || link != nil))
            }
        }
        var preferred: [String: Int] = [:]
        for (index, file) in files.enumerated() {
            if let existing = preferred[file.real],
                !prefers((file.path, file.throughLink), over: (files[existing].path, files[existing].throughLink))
            {
                continue
            }
            preferred[file.real] = index
        }
        return preferred.values.map { (files[$0].path, files[$0].stamp) }
    }

    /// Sorts entries by path as `String` orders them. Paths that are all
    /// ASCII (nearly always) are compared as bytes, which is the same order
    /// at a fraction of the cost: a folder of 5,000 notes is sorted on every
    /// query. The walk nearly always finds them in order already, which one
    /// pass tells.
    static func sortByPath(_ entries: inout [(path: String, stamp: FileStamp)]) {
        var allASCII = true
        var isSorted = true
        var previous: String? = nil
        for entry in entries {
            guard isASCII(entry.path) else {
                allASCII = false
                break
            }
            if isSorted, let before = previous { isSorted = !isBefore(entry.path, before) }
            previous = entry.path
        }
        guard allASCII else {
            entries.sort { $0.path < $1.path }
            return
        }
        if isSorted { return }
        entries.sort { isBefore($0.path, $1.path) }
    }

    /// Every byte of `text` is ASCII.
    private static func isASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { ByteText.isASCII($0) }
    }

    /// `left < right` for paths of ASCII, as bytes.
    private static func isBefore(_ left: String, _ right: String) -> Bool {
        var left = left
        var right = right
        return left.withUTF8 { left in right.withUTF8 { ByteText.compare(left, $0) < 0 } }
    }

    private struct WalkedFolder: Sendable {
        var relative: String
        var real: String
        /// Real paths of this folder and the folders above it: a link to one of them is a loop.
        var ancestors: Set<String>
        var throughLink: Bool
        /// The ignore rules in force in this folder (before its own
        /// `.gitignore`); nil outside a git work tree.
        var ignoring: IgnoreRules?
    }

    /// What one folder holds, in name order.
    private struct FolderContents {
        /// Its subfolders to walk next (not those that hold it: a link to
        /// one of them makes a loop).
        var folders: [WalkedFolder] = []
        /// List files, by path relative to the root, with their stamps, in
        /// path order (as `String` orders them: they differ only in their names).
        var files: [(path: String, stamp: FileStamp)] = []
        /// Every path in `files` is ASCII: then `String` orders them as their bytes.
        var pathsAreASCII: Bool
        /// The real paths of the files that are links, by index in `files`.
        var linkedFiles: [Int: String] = [:]
        /// What is skipped.
        var warnings: [String] = []
        /// List files and folders whose names are not UTF-8, by escaped path.
        var unnamable: [String] = []

        /// Adds the subfolder `relative` (whose real path is `real`) of
        /// `folder` to walk next, unless it holds `folder`.
        mutating func add(subfolder relative: String, real: String, isLink: Bool, ignoring: IgnoreRules?, of folder: WalkedFolder) {
            if folder.ancestors.contains(real) { return } // a loop
            folders.append(
                WalkedFolder(
                    relative: relative, real: real, ancestors: folder.ancestors.union([real]), throughLink: folder.throughLink || isLink,
                    ignoring: ignoring))
        }
    }

    /// What one folder holds, in name order: its subfolders, its list files
    /// with their stamps, and warnings about what is skipped.
    private func read(_ folder: WalkedFolder) -> FolderContents {
        var held = FolderContents(pathsAreASCII: Self.isASCII(folder.relative))
        guard let directory = Posix.OpenFolder(folder.real) else {
            held.warnings.append("cannot read folder \(folder.relative.isEmpty ? "." : folder.relative); skipped")
            return held
        }
        let descriptor = directory.descriptor
        let (names, notUTF8) = Self.names(in: directory)
        // A name that is not UTF-8 cannot be a `String` path (tick names
        // lists by path everywhere), so such a list or folder is skipped,
        // and said so: silently, its items would just vanish.
        for (escaped, type) in notUTF8 where !escaped.hasPrefix(".") {
            let isList = Self.isListFile(escaped)
            if isList || type == UInt8(DT_DIR) || type == UInt8(DT_UNKNOWN) || type == UInt8(DT_LNK) {
                if !isList, type != UInt8(DT_DIR) {
                    // Only a folder (or a link to one) matters: ask.
                    let isFolder = Posix.status(in: descriptor, rawName: Self.rawName(escaped), followingLink: true)?.isDirectory ?? false
                    if !isFolder { continue }
                }
                held.unnamable.append(folder.relative.isEmpty ? escaped : folder.relative + "/" + escaped)
            }
        }
        // Inside a git work tree, the folder's own `.gitignore` joins the rules.
        var ignoring = folder.ignoring
        if let rules = ignoring, names.contains(where: { $0.name == ".gitignore" }) {
            ignoring = rules.adding(gitignoreIn: folder.real)
        }
        for (name, type) in names {
            if name.utf8.first == UInt8(ascii: ".") || name == "node_modules" { continue }
            let isListName = Self.isListFile(name)
            // A regular file that is not a list needs no `stat`.
            if type == UInt8(DT_REG), !isListName { continue }
            let relative = folder.relative.isEmpty ? name : folder.relative + "/" + name
            if type == UInt8(DT_DIR) {
                // readdir said what it is (a folder's stamp is not needed).
                if let ignoring, ignoring.isIgnored(name, isDirectory: true) { continue }
                held.add(subfolder: relative, real: folder.real + "/" + name, isLink: false, ignoring: ignoring?.descending(into: name), of: folder)
                continue
            }
            // Relative to the open folder: no path lookup from the root for each file.
            guard var info = Posix.status(in: descriptor, name) else { continue }
            var kind = info.fileType
            // As git does, a link is matched as a file, never as a folder.
            if let ignoring, kind == S_IFDIR || kind == S_IFLNK || isListName,
                ignoring.isIgnored(name, isDirectory: kind == S_IFDIR)
            {
                continue
            }
            var real: String? = nil
            if kind == S_IFLNK {
                let resolved = Self.resolved(folder.real + "/" + name)
                guard resolved == root || resolved.hasPrefix(root + "/") else {
                    held.warnings.append("\(relative) links outside the notes folder; skipped")
                    continue
                }
                guard let target = Posix.status(atPath: resolved) else {
                    held.warnings.append("\(relative) is a broken link; skipped")
                    continue
                }
                info = target
                kind = info.fileType
                real = resolved
            }
            if kind == S_IFDIR {
                held.add(
                    subfolder: relative, real: real ?? folder.real + "/" + name, isLink: real != nil, ignoring: ignoring?.descending(into: name),
                    of: folder)
            } else if kind == S_IFREG, isListName {
                if let real { held.linkedFiles[held.files.count] = real }
                held.files.append((relative, FileStamp(info)))
                held.pathsAreASCII = held.pathsAreASCII && Self.isASCII(name)
            }
        }
        return held
    }

    /// The names in an open folder with their `d_type` (`DT_UNKNOWN` when
    /// the file system does not say), sorted by name (without `.` and
    /// `..`), read with `readdir`; apart, the names that are not UTF-8,
    /// escaped (`escapedName`).
    private static func names(in folder: Posix.OpenFolder) -> (names: [(name: String, type: UInt8)], notUTF8: [(escaped: String, type: UInt8)]) {
        var names: [(name: String, type: UInt8)] = []
        var notUTF8: [(escaped: String, type: UInt8)] = []
        while let (cName, type) = folder.nextEntry() {
            guard let name = String(validatingCString: cName) else {
                notUTF8.append(
                    (
                        escapedName(
                            Array(
                                UnsafeBufferPointer(
                                    start: UnsafeRawPointer(cName).assumingMemoryBound(to: UInt8.self),
                                    count: Posix.cStringLength(cName)))), type
                    ))
                continue
            }
            if name != "." && name != ".." { names.append((name, type)) }
        }
        return (names.sorted { $0.name < $1.name }, notUTF8.sorted { $0.escaped < $1.escaped })
    }

    /// A file name's bytes as text: UTF-8 where it is, every other byte
    /// (and a backslash before `x`) as `\xHH`.
    static func escapedName(_ bytes: [UInt8]) -> String {
        var text = ""
        var index = 0
        while index < bytes.count {
            let length = bytes[index] < 0x80 ? 1 : UTF8Check.sequenceLength(bytes, at: index)
            if length > 0, !(bytes[index] == UInt8(ascii: "\\") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "x")) {
                text += String(decoding: bytes[index..<index + length], as: UTF8.self)
                index += length
            } else {
                text += "\\x" + (bytes[index] < 16 ? "0" : "") + String(bytes[index], radix: 16, uppercase: true)
                index += 1
            }
        }
        return text
    }

    /// The bytes `escapedName` stands for, NUL-terminated.
    static func rawName(_ escaped: String) -> [UInt8] {
        var bytes: [UInt8] = []
        let utf8 = Array(escaped.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "\\"), index + 3 < utf8.count, utf8[index + 1] == UInt8(ascii: "x"),
                let byte = UInt8(String(decoding: utf8[index + 2..<index + 4], as: UTF8.self), radix: 16)
            {
                bytes.append(byte)
                index += 4
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return bytes + [0]
    }

    /// Which of two paths to one file names it: no link first, then shorter, then alphabetical.
    private static func prefers(_ lhs: (relative: String, throughLink: Bool), over rhs: (relative: String, throughLink: Bool)) -> Bool {
        if lhs.throughLink != rhs.throughLink { return !lhs.throughLink }
        if lhs.relative.count != rhs.relative.count { return lhs.relative.count < rhs.relative.count }
        return lhs.relative < rhs.relative
    }

    /// Reads and parses one list, by its path relative to the root.
    public func load(_ relativePath: String) throws -> Document {
        let bytes = try FileIO.read(absolute(relativePath))
        return DocumentParser.parse(bytes, path: relativePath)
    }

    /// Reads and parses the lists at `paths`, in parallel on every core.
    public func loadEach(_ paths: [String]) -> [Result<Document, FileIO.ReadError>] {
        Parallel.map(paths.count) { index in
            do { return .success(try load(paths[index])) } catch let error as FileIO.ReadError {
                return .failure(error)
            } catch {
                return .failure(FileIO.ReadError(path: paths[index], code: EIO))
            }
        }
    }

    /// Reads and parses every list, in parallel on every core. Files that
    /// cannot be read or are not UTF-8 are left out with a warning.
    ///
    /// With a `cache`, files whose stamp matches the cache are not read: their
    /// documents come from the cache; the others are parsed, and the cache is
    /// rewritten when anything differs from it.
    ///
    /// With `keepingBytes: false` the documents come without their files'
    /// bytes (`Document.droppingSource()`), which is all a query needs.
    public func loadAll(cache: ParseCache? = nil, keepingBytes: Bool = true) -> (documents: [Document], warnings: [String]) {
        let loaded = loadEvery(
            cache: cache, alwaysEncode: false, savingInBackground: false,
            fromCache: { contents, place in contents.document(at: place) },
            fromParse: { document, _ in keepingBytes ? document : document.droppingSource() })
        return (loaded.allValidUTF8 ? loaded.values : loaded.values.filter(\.isValidUTF8), loaded.warnings)
    }

    /// Every list as `EncodedDocument`s, for answering queries: unchanged
    /// files are read in place from the cache, the others parsed and encoded
    /// (as `loadAll`, which they are also saved for). Without a cache, every
    /// file is parsed and encoded.
    ///
    /// A list from the cache comes unchecked: its payload is checked against
    /// its checksum when its items are first read (`EncodedDocument.complete`,
    /// called by `EncodedWorkspace`), and a damaged one is parsed again from
    /// its file and saved, through the `CacheRepairs` returned.
    ///
    /// With `savingInBackground`, a new cache file is written on another
    /// thread while the caller goes on (the answer is printed meanwhile);
    /// `BackgroundSaves.wait()` must run before the process exits.
    /// `listOrder` is the documents' list order as the cache stored it, when
    /// every document came from the cache in the cache's own order (nil
    /// otherwise: then it must be computed).
    public func loadEncoded(cache: ParseCache? = nil, savingInBackground: Bool = false)
        -> (documents: [EncodedDocument], warnings: [String], repairs: CacheRepairs?, listOrder: [Int]?, skipped: SkippedLists)
    {
        let loaded = loadEvery(
            cache: cache, alwaysEncode: true, savingInBackground: savingInBackground,
            fromCache: { contents, place in contents.uncheckedDocument(at: place) },
            fromParse: { _, payload in payload.flatMap { try? EncodedDocument($0.buffer, owner: $0.storage) } },
            fromSpool: { contents, place in contents.uncheckedDocument(at: place) })
        let repairs = loaded.saveWithRepairs.map { CacheRepairs(folder: self, save: $0) }
        // Most folders hold no file that is not UTF-8: then the lists are
        // handed on as they are, not copied by a filter (nor read again to
        // tell: a cache miss for each list, 3 ms at 50,000 notes).
        guard !loaded.allValidUTF8 else {
            return (loaded.values, loaded.warnings, repairs, loaded.storedListOrder, loaded.skipped)
        }
        var skipped = loaded.skipped
        skipped.notUTF8 = loaded.values.filter { !$0.isValidUTF8 }
        return (loaded.values.filter(\.isValidUTF8), loaded.warnings, repairs, loaded.storedListOrder, skipped)
    }

    /// The shared core of `loadAll` and `loadEncoded`: lists the folder, takes
    /// what it can from the cache, parses the rest in parallel and rewrites
    /// the cache when anything differs from it.
    ///
    /// A parsed document is encoded once (`ListPayload`), when there is
    /// a cache to save or `alwaysEncode` asks for it, and handed to
    /// `fromParse` with that payload. With `fromSpool` and no cache to keep
    /// lists from, the encodings are written to a new cache file as they are
    /// made (`ParseCache.Spool`) and the lists read back from it with
    /// `fromSpool`, so that they are not all held at once. `fromCache` and
    /// `fromSpool` make a list from the entry at a place of the cache's
    /// `entries`, read where it lies.
    private func loadEvery<Value: ValidatedList>(
        cache: ParseCache?,
        alwaysEncode: Bool,
        savingInBackground: Bool,
        fromCache: (ParseCache.Contents, _ place: Int) -> Value?,
        fromParse: (Document, ListPayload?) -> Value?,
        fromSpool: ((ParseCache.Contents, _ place: Int) -> Value)? = nil
    ) -> (
        values: [Value], allValidUTF8: Bool, warnings: [String], skipped: SkippedLists,
        saveWithRepairs: (@Sendable ([String: ListPayload?]) -> Void)?, storedListOrder: [Int]?
    ) {
        // The cache file is mapped and its index read while the folder is
        // walked: neither needs the other. A load started early is under
        // way on a thread of its own and is taken after the walk: taken on
        // the global queue, it held one of the queue's threads, waiting,
        // while the walk needed it.
        nonisolated(unsafe) var loaded: ParseCache.Contents? = nil
        let reading = DispatchGroup()
        let loadsBesideWalk = cache.map { !$0.isLoadingEarly } ?? false
        if let cache, loadsBesideWalk {
            DispatchQueue.global().async(group: reading) { loaded = cache.load() }
        }
        // Files are stamped after this: a change that the stamps cannot show
        // (made within their granularity of it) is kept from the cache.
        let scanStarted = Posix.nanosecondsNow()
        let (entries, walkWarnings, unnamable) = listFileEntries()
        let listWarnings = walkWarnings + unnamable.map(Self.unnamableWarning)
        reading.wait()
        let contents = loadsBesideWalk ? loaded : cache?.load()
        let encodes = cache != nil || alwaysEncode
        let spool = fromSpool != nil && contents == nil ? cache.flatMap(ParseCache.Spool.init(for:)) : nil
        /// The file at `index` parsed (and encoded).
        func parsed(_ index: Int) -> LoadedList<Value> {
            let entry = entries[index]
            do {
                let document = try load(entry.path)
                let payload = encodes ? ListPayload(encoding: document) : nil
                guard let value = fromParse(document, payload) else {
                    // Only a document too large to encode has no value.
                    return LoadedList(.failure(FileIO.ReadError(path: entry.path, code: EFBIG)))
                }
                var loaded = LoadedList<Value>(.success(value))
                loaded.payload = cache != nil ? payload : nil
                loaded.conflictLine = document.conflictLines.first
                return loaded
            } catch let error as FileIO.ReadError {
                return LoadedList(.failure(error))
            } catch {
                return LoadedList(.failure(FileIO.ReadError(path: entry.path, code: EIO)))
            }
        }
        // Each list, with where it came from and the line of its first git
        // conflict marker, in runs of files: a run's new encodings go to the
        // spool in one write. The runs are kept as they come, never joined
        // into one array: joining copied every list (a retain of its path
        // and document) and let the runs go (a release of each), on the one
        // thread that waits here.
        let runLength = 32
        var runs: [(lists: [LoadedList<Value>], spooled: [(index: Int, entry: ParseCache.Contents.Entry)])] = Parallel.map(
            chunksOf: runLength, in: entries.count
        ) { run in
            var lists: [LoadedList<Value>] = []
            lists.reserveCapacity(run.count)
            for index in run {
                let entry = entries[index]
                if let contents, let place = contents.trustedPlace(of: entry.path, at: index, stamp: entry.stamp),
                    let value = fromCache(contents, place)
                {
                    var loaded = LoadedList<Value>(.success(value))
                    loaded.fromCache = true
                    loaded.atItsPlace = place == index
                    loaded.conflictLine = contents.entries[place].summary.conflictLine
                    lists.append(loaded)
                } else {
                    var list = parsed(index)
                    // A list parsed again still takes the cache's place in
                    // list order when the cache holds its file at the walk's
                    // place and it sorts as it did there (an edit that
                    // renamed nothing): the cache's list order then holds.
                    if let contents, let payload = list.payload, contents.entries.indices.contains(index),
                        contents.entries[index].path == entry.path, payload.summary.sortsLike(contents.entries[index].summary)
                    {
                        list.atItsPlace = true
                    }
                    lists.append(list)
                }
            }
            var written: [(index: Int, entry: ParseCache.Contents.Entry)] = []
            guard let spool else { return (lists, written) }
            // The run's new lists are read back from the spool: their
            // values and encodings are let go here.
            let places = lists.indices.filter { lists[$0].payload != nil }
            if var offset = spool.write(places.map { lists[$0].payload! }) {
                for place in places {
                    let payload = lists[place].payload!
                    let entry = entries[run.lowerBound + place]
                    written.append(
                        (
                            run.lowerBound + place,
                            ParseCache.Contents.Entry(
                                path: entry.path, stamp: entry.stamp, payload: offset..<offset + payload.buffer.count,
                                checksum: payload.checksum, summary: payload.summary)
                        ))
                    lists[place].payload = nil
                    lists[place].value = .success(nil)
                    offset += payload.buffer.count
                }
            }
            return (lists, written)
        }
        // The cache the lists are kept in from now on: the new one, when spooled.
        var base = contents
        if let spool {
            // The spooled lists' places in the walk, and their entries, each
            // copied once: gathered as pairs, then the entries copied out of
            // them, took 5 ms at 5,000 notes, on the one core that waits here.
            let spooledIndices = runs.flatMap { $0.spooled.map(\.index) }
            let spooledEntries = runs.flatMap { $0.spooled.map(\.entry) }
            if let written = spool.finish(spooledEntries, scanStarted: scanStarted) {
                base = written
                // The written file's entries are the spooled lists, in the same order, where that file holds them.
                for (place, index) in spooledIndices.enumerated() {
                    let (run, position) = index.quotientAndRemainder(dividingBy: runLength)
                    runs[run].lists[position].value = .success(fromSpool!(written, place))
                    runs[run].lists[position].fromCache = true
                    runs[run].lists[position].atItsPlace = place == index
                }
            } else {
                // The spool could not be read back (reopened or mapped): parsed again.
                for index in spooledIndices {
                    let (run, position) = index.quotientAndRemainder(dividingBy: runLength)
                    runs[run].lists[position] = parsed(index)
                }
            }
        }
        // One pass over the results, by position: iterating the arrays as
        // values copied every entry and result (a retain and a release of
        // each path and document), on the one thread that waits here.
        var values: [Value] = []
        values.reserveCapacity(entries.count)
        var warnings = listWarnings
        var skipped = SkippedLists(walkWarnings: walkWarnings, unnamable: unnamable)
        // The new encodings by the file's place, only those: an array of
        // optionals (nil for every list a warm run reads from the cache)
        // held 7 MB at 50,000 notes until the command ended.
        var payloads: [Int: ListPayload] = [:]
        var fromCache: [Bool] = []
        if cache != nil { fromCache.reserveCapacity(entries.count) }
        var allFromCache = true
        var allAtTheirPlaces = true
        var allValidUTF8 = true
        entries.withUnsafeBufferPointer { entries in
            for run in runs.indices {
                runs[run].lists.withUnsafeBufferPointer { results in
                    for position in results.indices {
                        let index = run * runLength + position
                        if cache != nil {
                            if let payload = results[position].payload { payloads[index] = payload }
                            fromCache.append(results[position].fromCache)
                        }
                        allFromCache = allFromCache && results[position].fromCache
                        allAtTheirPlaces = allAtTheirPlaces && results[position].atItsPlace
                        switch results[position].value {
                        case .success(let value):
                            // Every spooled list was read back or parsed again above.
                            let value = value!
                            if !value.isValidUTF8 {
                                allValidUTF8 = false
                                warnings.append("\(entries[index].path) is not valid UTF-8; skipped")
                            }
                            if let line = results[position].conflictLine {
                                warnings.append(
                                    "\(entries[index].path) has an unresolved git merge conflict (markers from line \(line)); "
                                        + "its items are shown as read, and tick will not change it until the conflict is resolved")
                            }
                            values.append(value)
                        case .failure(let error):
                            warnings.append("cannot read \(entries[index].path): \(Posix.describe(error.code)); skipped")
                            skipped.unreadable.append((entries[index].path, error.reason ?? Posix.describe(error.code)))
                        }
                    }
                }
            }
        }
        // The folder holds the files the cache holds (and, when all came
        // from it, the same ones).
        let sameCount = base.map { $0.entries.count == entries.count } ?? false
        // The cache's list order holds when every file is at its own place
        // in it: the cache's entry at the walk's index, under the same path
        // (as `trustedPlace` compared them), taken from the cache or parsed
        // again and sorting as the entry did. Then the read and the save
        // both take it rather than sort every list again.
        let storedOrderHolds = allAtTheirPlaces && sameCount
        var saveWithRepairs: (@Sendable ([String: ListPayload?]) -> Void)? = nil
        if let cache {
            // Unchanged documents keep their encoded bytes, new ones were
            // encoded while parsing, and repaired ones (found damaged when
            // first read) are given later; a list that could not be repaired
            // is left out, to be parsed again next time.
            let save: @Sendable ([String: ListPayload?]) -> Void = { [payloads, fromCache, base] repaired in
                var saved: [(path: String, stamp: FileStamp, source: ParseCache.Source)] = []
                saved.reserveCapacity(entries.count)
                for index in entries.indices {
                    let entry = entries[index]
                    // A repaired list's new payload; none for a list that could not be repaired.
                    if let change = repaired[entry.path] {
                        if let change { saved.append((entry.path, entry.stamp, .fresh(change))) }
                    } else if fromCache[index], let kept = base?.entry(entry.path, at: index) {
                        saved.append((entry.path, entry.stamp, .kept(kept)))
                    } else if let payload = payloads[index] {
                        saved.append((entry.path, entry.stamp, .fresh(payload)))
                    }
                }
                // (A repaired list may sort otherwise: then the order is made again.)
                cache.save(saved, scanStarted: scanStarted, keptIn: base, listOrder: storedOrderHolds && repaired.isEmpty ? base?.listOrder : nil)
            }
            if !sameCount || !allFromCache {
                if savingInBackground {
                    BackgroundSaves.start { save([:]) }
                } else {
                    save([:])
                }
            }
            saveWithRepairs = savingInBackground ? { repaired in BackgroundSaves.start { save(repaired) } } : save
        }
        return (values, allValidUTF8, warnings, skipped, saveWithRepairs, storedOrderHolds ? base?.listOrder : nil)
    }
}

/// One file as `NotesFolder.loadEvery` found it.
private struct LoadedList<Value> {
    /// The list, or why it could not be read; nil while it is in the spool, to be read back.
    var value: Result<Value?, FileIO.ReadError>
    /// Its new encoding, for the cache's next save.
    var payload: ListPayload? = nil
    /// Whether it is kept in the cache the lists are saved against.
    var fromCache = false
    /// Whether that cache holds it at the place the walk found it (same
    /// path, same index; parsed again, sorting as it did there): when every
    /// list is, the cache's list order holds.
    var atItsPlace = false
    /// The line of its first git conflict marker.
    var conflictLine: Int? = nil

    init(_ value: Result<Value?, FileIO.ReadError>) { self.value = value }
}

/// Parse-cache files being written on other threads
/// (`NotesFolder.loadEncoded(cache:savingInBackground:)`).
///
/// Before one is started, `ProcessHooks.beforeBackgroundSave` runs: the
/// command line ignores SIGPIPE there, so that a reader closing standard
/// output early cannot kill the process halfway through the file: a
/// command that meets a closed output calls `wait()`, then ends itself with
/// SIGPIPE as before. Every command calls `wait()` before it exits.
public enum BackgroundSaves {
    private static let group = DispatchGroup()
    /// One save at a time, in the order started: a later save (with
    /// repaired lists) must not be overtaken by an earlier one, and two
    /// must never write the temporary file at once.
    private static let queue = DispatchQueue(label: "tick.cache-save")

    static func start(_ save: @escaping () -> Void) {
        ProcessHooks.beforeBackgroundSave()
        nonisolated(unsafe) let save = save
        let delay = testDelay()
        queue.async(group: group) {
            HeapPages.enterThread()
            if delay > 0 { Posix.pause(microseconds: delay) }
            save()
        }
    }

    /// Test seam: `TICK_TEST_SLOW_CACHE_SAVE` (milliseconds) holds every
    /// save back that long, so that a test can close the output first.
    private static func testDelay() -> UInt32 {
        guard let value = Environment.process["TICK_TEST_SLOW_CACHE_SAVE"], let milliseconds = UInt32(value) else { return 0 }
        return min(milliseconds, 10_000) * 1000
    }

    /// Returns when every save started has finished.
    public static func wait() { group.wait() }
}

/// Lists whose payload in the parse cache failed its check when their
/// items were first read (`EncodedDocument.complete`): each is parsed again
/// from its file, and the cache is saved again with them once the items
/// have been read (`saveIfRepaired`). A list whose file cannot be read (or
/// parsed into the same list) again is skipped with a warning
/// (`takeWarnings`) and left out of the cache.
public final class CacheRepairs: @unchecked Sendable, ListRepairing {
    // `repaired` and `savedCount` are guarded by `lock`.
    private let lock = NSLock()
    /// The new payload of each list repaired; nil for one that could not be.
    private var repaired: [String: ListPayload?] = [:]
    private var savedCount = 0
    private let folder: NotesFolder
    private let save: @Sendable ([String: ListPayload?]) -> Void

    private static let warningsLock = NSLock()
    // Guarded by `warningsLock`.
    nonisolated(unsafe) private static var warnings: [String] = []

    init(folder: NotesFolder, save: @escaping @Sendable ([String: ListPayload?]) -> Void) {
        self.folder = folder
        self.save = save
    }

    /// Parses the file of `document`, whose cached payload failed its check,
    /// and gives the document the new payload, kept for the next save.
    package func repair(_ document: EncodedDocument) {
        let parsed = try? folder.load(document.path)
        let payload = parsed.flatMap { ListPayload(encoding: $0) }
        let adopted = payload.map { document.adopt($0) } ?? false
        lock.lock()
        repaired.updateValue(adopted ? payload : nil, forKey: document.path) // nil: leave the list out
        lock.unlock()
        if !adopted {
            Self.warningsLock.lock()
            Self.warnings.append("\(document.path): its cached copy is damaged and the file cannot be read again; skipped")
            Self.warningsLock.unlock()
        }
    }

    /// The warnings about lists that could not be repaired, each once: a
    /// command prints them when it has printed its answer.
    public static func takeWarnings() -> [String] {
        warningsLock.lock()
        defer { warningsLock.unlock() }
        let taken = warnings
        warnings = []
        return taken
    }

    /// Saves the cache again when lists were repaired since the last save.
    package func saveIfRepaired() {
        lock.lock()
        let pending = repaired.count > savedCount ? repaired : nil
        savedCount = repaired.count
        lock.unlock()
        if let pending { save(pending) }
    }
}

/// What `loadEvery` loads: a list that knows whether its file was UTF-8.
protocol ValidatedList: Sendable {
    var isValidUTF8: Bool { get }
}

extension Document: ValidatedList {}
extension EncodedDocument: ValidatedList {}

extension EncodedWorkspace {
    /// Scans the folder, reading unchanged files from `cache` in place and
    /// parsing the others in parallel; with `savingInBackground`, a new
    /// cache file is written while the caller goes on (see `BackgroundSaves`).
    public static func load(_ folder: NotesFolder, cache: ParseCache? = nil, savingInBackground: Bool = false) -> EncodedWorkspace {
        let (documents, warnings, repairs, listOrder, skipped) = folder.loadEncoded(cache: cache, savingInBackground: savingInBackground)
        return EncodedWorkspace(documents: documents, warnings: warnings, repairs: repairs, listOrder: listOrder, skipped: skipped)
    }
}
