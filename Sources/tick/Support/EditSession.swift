import ArgumentParser
import Foundation
import TickEdit
import TickEngine
import TickModel
import TickRecords
import TickStore
import TickSyntax
import TickSystem

/// What a change command does to the files: replace one, or create one.
enum FileOutput {
    case replace(path: String, bytes: [UInt8])
    case create(path: String, bytes: [UInt8])
}

/// The result of computing an edit: the files to write and what to tell the user.
struct EditOutcome {
    var files: [FileOutput] = []
    var messages: [String] = []
    var notes: [String] = []
    /// Printed as warnings on standard error; the change is still made.
    var warnings: [String] = []

    /// Warnings for the tokens tick cannot read on `line` of `document`
    /// (a changed item's title line: `!hgih`, `every:fortnight`), from the
    /// parser's own diagnostics, which name the nearest valid token.
    static func unreadableTokens(in document: Document, line: Int) -> [String] {
        document.diagnostics.filter { $0.line == line }.map { diagnostic in
            "\(document.path):\(diagnostic.line):\(diagnostic.column): \(diagnostic.message); written as typed"
        }
    }
}

/// The documents an edit reads, as they are under the locks (or, for a dry
/// run, as they were read).
struct EditInputs {
    /// Every list of the notes folder, with the locked ones freshly read.
    var documents: [Document]

    func document(_ path: String) -> Document? { documents.first { $0.path == path } }
}

/// Runs change commands: finds the lists and items named on the command line,
/// and writes the result under the rules of SPEC §5 (lock, unchanged check,
/// atomic replace) or prints it as a diff.
struct EditSession {
    let root: NotesFolder
    let today: TaskDate
    private let store = LoadedDocuments()

    init(folder: FolderOptions) throws {
        root = try folder.folder()
        today = folder.todayDate
    }

    /// Holds what has been read so far. An edit of `PATH:LINE` reads one file;
    /// only names that need a search (title text, `^id`, a list's name) read
    /// the folder, once, as the read model (`EncodedWorkspace`, from the
    /// parse cache); the files an edit changes are then read whole.
    private final class LoadedDocuments {
        var lists: EncodedWorkspace?
        var single: [String: Document] = [:]
        /// The item each `PATH:LINE` named when it was first resolved, before
        /// any lock: under the lock the same line must hold the same item.
        var addressed: [String: ItemIdentity] = [:]
    }

    /// What tells an item named by `PATH:LINE` apart once the file may have
    /// changed: its title line's bytes and how many items with those same
    /// bytes come before it in its list.
    struct ItemIdentity: Equatable {
        var path: String
        var line: [UInt8]
        var ordinal: Int

        init(_ item: TaskItem, in document: Document) {
            path = document.path
            line = Self.titleLine(item, in: document)
            let text = line
            ordinal = document.items.prefix(item.index).filter { Self.titleLine($0, in: document) == text }.count
        }

        static func titleLine(_ item: TaskItem, in document: Document) -> [UInt8] {
            let bytes = document.source.bytes
            let start = min(item.markerRange.lowerBound, bytes.count)
            let end = min(max(item.titleRange.upperBound, start), bytes.count)
            return Array(bytes[start..<end])
        }
    }

    /// The folder's lists as the read model holds them, read once, for
    /// finding lists by name and items by title or `^id`.
    var lists: EncodedWorkspace {
        if let lists = store.lists { return lists }
        let lists = EncodedWorkspace.load(root, cache: ParseCache(root: root.root), savingInBackground: true)
        for warning in lists.warnings { Terminal.warning(warning) }
        KeptUntilExit.keep(lists)
        store.lists = lists
        return lists
    }

    /// The lists skipped by `lists` because they are not UTF-8, parsed:
    /// naming one gets a clear refusal rather than "no such item".
    private var listsNotUTF8: [Document] { lists.skipped.notUTF8.compactMap { try? document(at: $0.path) } }

    /// The documents read so far, by path.
    private var loadedDocuments: [Document] { store.single.values.sorted { $0.path < $1.path } }

    /// One list, by its path relative to the root, read once.
    func document(at path: String) throws -> Document {
        if let found = store.single[path] { return found }
        let document = try root.load(path)
        store.single[path] = document
        return document
    }

    // MARK: Naming things

    /// The path of the list `name` names: a path (relative to the current
    /// folder or the root) of a list file inside the root, or a list's name.
    func listPath(_ name: String) throws -> String {
        if let path = try filePath(name, mustExist: true) { return path }
        let lists = self.lists.documents
        do {
            return lists[try ListLookup.resolve(name, in: lists)].path
        } catch {
            if case .unknown = error, let skipped = try? ListLookup.resolve(name, in: listsNotUTF8) { return listsNotUTF8[skipped].path }
            throw TickError.badData(error.message)
        }
    }

    /// When `name` is a path to a list file (existing, unless `mustExist` is
    /// false), its path relative to the root; nil when it is not a path.
    /// Refuses any path that leads outside the root.
    func filePath(_ name: String, mustExist: Bool) throws -> String? {
        let looksLikePath = NotesFolder.isListFile(name) || name.contains("/")
        guard looksLikePath else { return nil }
        var candidates: [String] = []
        if name.hasPrefix("/") {
            candidates = [name]
        } else {
            candidates = [root.absolute(name), FileManager.default.currentDirectoryPath + "/" + name]
        }
        var unreadable: Int32? = nil
        for candidate in candidates {
            let standardized = URL(fileURLWithPath: candidate).standardizedFileURL.path
            var status = stat()
            let exists = stat(standardized, &status) == 0
            if !exists && (errno == EACCES || errno == EPERM) && unreadable == nil { unreadable = errno }
            if mustExist && (!exists || (status.st_mode & S_IFMT) == S_IFDIR) { continue }
            guard NotesFolder.isListFile(standardized) else { continue }
            return try insideRoot(standardized, as: name)
        }
        // A path that is there but cannot be reached (a folder on the way
        // may not be read) is a file that cannot be read, not an unknown name.
        if mustExist, let unreadable { throw TickError.noInput("cannot read \(name): \(String(cString: strerror(unreadable)))") }
        return nil
    }

    /// `absolute` as a path relative to the root, refusing anything that is
    /// (or, through a symbolic link, leads) outside it.
    func insideRoot(_ absolute: String, as shown: String) throws -> String {
        guard let relative = root.relative(absolute), !relative.isEmpty, !relative.hasPrefix("../") else {
            throw TickError.badData("\(shown) is outside the notes folder \(root.root); name a list inside it")
        }
        let folder = (absolute as NSString).deletingLastPathComponent
        let realFolder = Posix.realPath(folder) ?? folder
        var realFile = realFolder + "/" + (absolute as NSString).lastPathComponent
        if FileManager.default.fileExists(atPath: realFile), let real = Posix.realPath(realFile) { realFile = real }
        guard realFile.hasPrefix(root.root + "/") else {
            throw TickError.badData("\(shown) leads outside the notes folder \(root.root); tick only changes files inside it")
        }
        return relative
    }

    /// The item `spec` names (SPEC §5: `PATH:LINE`, `^id` or title text),
    /// searched in `list` only when given.
    ///
    /// `PATH:LINE` reads only that file (from `documents` when it is there);
    /// other names search `documents`, by default the whole folder.
    /// The items `specs` name in `documents` (as `locate` finds each), by
    /// file in the order the files are first named, each item once.
    func locateAll(
        _ specs: [String], list: String?, in documents: [Document],
        preferringCompleted: Bool = false
    ) throws -> [(document: Document, items: [TaskItem])] {
        var grouped: [(document: Document, items: [TaskItem])] = []
        for spec in specs {
            let (document, item) = try locate(spec, list: list, in: documents, preferringCompleted: preferringCompleted)
            if let index = grouped.firstIndex(where: { $0.document.path == document.path }) {
                if !grouped[index].items.contains(where: { $0.index == item.index }) { grouped[index].items.append(item) }
            } else {
                grouped.append((document, [item]))
            }
        }
        return grouped
    }

    func locate(
        _ spec: String, list: String?, in documents: [Document]? = nil,
        preferringCompleted: Bool = false
    ) throws -> (document: Document, item: TaskItem) {
        if let (path, line) = Self.address(spec), let relative = try filePath(path, mustExist: true) {
            let document = try documents?.first(where: { $0.path == relative }) ?? self.document(at: relative)
            let listMatches = try list.map { try listPath($0) == relative } ?? true
            if listMatches {
                let item = document.items.first(where: { $0.line == line })
                if documents == nil {
                    if let item { store.addressed[spec] = ItemIdentity(item, in: document) }
                } else if let before = store.addressed[spec], item.map({ ItemIdentity($0, in: document) }) != before {
                    // Another edit moved or changed the item since it was resolved.
                    throw TickError.changedOnDisk(
                        "\(spec) no longer names the same item: \(document.path) changed on disk while tick was editing it; nothing was written, run the command again"
                    )
                }
                if let item { return (document, item) }
                let candidates = document.items.map { "\(document.path):\($0.line)  \($0.title)" }
                throw TickError.badData(ItemLookup.Failure.unknown(spec, candidates: candidates).message)
            }
        }
        let path = try list.map { try listPath($0) }
        if let documents {
            return try find(spec, in: documents.filter { path == nil || $0.path == path }, preferringCompleted: preferringCompleted)
        }
        // The whole folder is searched in the read model; the file that
        // holds the item is then read.
        do {
            let (found, index) = try self.lists.locate(
                spec, in: path.map { path in self.lists.documents.filter { $0.path == path } }, preferringCompleted: preferringCompleted)
            let line = found.line(of: index)
            let document = try document(at: found.path)
            guard let item = document.items.first(where: { $0.line == line }) else {
                throw TickError.changedOnDisk("\(found.path) changed on disk while tick was reading it; nothing was written, run the command again")
            }
            return (document, item)
        } catch let failure as ItemLookup.Failure {
            guard case .unknown = failure else { throw TickError.badData(failure.message) }
            let skipped = listsNotUTF8.filter { path == nil || $0.path == path }
            guard !skipped.isEmpty, let found = try? find(spec, in: skipped, preferringCompleted: preferringCompleted) else {
                throw TickError.badData(failure.message)
            }
            return found
        }
    }

    /// The item `spec` names among `documents`.
    private func find(_ spec: String, in documents: [Document], preferringCompleted: Bool) throws -> (document: Document, item: TaskItem) {
        do {
            let location = try ItemLookup.resolve(spec, in: documents, preferringCompleted: preferringCompleted)
            let document = documents[location.document]
            return (document, document.items[location.item])
        } catch {
            throw TickError.badData(error.message)
        }
    }

    /// `PATH:LINE` split in two, when `spec` has that shape.
    static func address(_ spec: String) -> (path: String, line: Int)? {
        guard let colon = spec.lastIndex(of: ":"), let line = Int(spec[spec.index(after: colon)...]), line > 0 else { return nil }
        let path = String(spec[..<colon])
        return path.isEmpty ? nil : (path, line)
    }

    // MARK: Writing

    /// Computes an edit of the files at `paths` with `compute` and writes it,
    /// or prints it as a unified diff when `dryRun` is set.
    ///
    /// For a real run every file in `paths` is locked (in path order) and
    /// read again before `compute` sees it; a file that is not valid UTF-8
    /// or holds git conflict markers is refused (65); a file that changed
    /// on disk is not written (75).
    func run(paths: [String], dryRun: Bool, compute: (EditInputs) throws -> EditOutcome) throws {
        let unique = Array(Set(paths)).sorted()
        if dryRun {
            var documents = loadedDocuments
            for path in unique where !documents.contains(where: { $0.path == path }) {
                do {
                    documents.append(try document(at: path))
                } catch let error as FileIO.ReadError where error.code == ENOENT {
                    continue // as a real run would, the command says the file is missing
                }
            }
            for path in unique { try requireEditable(documents.first { $0.path == path }) }
            let outcome = try compute(EditInputs(documents: documents))
            for note in outcome.notes { Terminal.note(note) }
            for warning in outcome.warnings { Terminal.warning(warning) }
            for file in outcome.files {
                switch file {
                case .replace(let path, let bytes):
                    let old = documents.first { $0.path == path }?.source.bytes ?? []
                    Terminal.writeBytes(UnifiedDiff.make(path: path, old: old, new: bytes))
                case .create(let path, let bytes):
                    Terminal.writeBytes(UnifiedDiff.make(path: path, old: nil, new: bytes))
                }
            }
            return
        }

        var locks: [String: FileLock] = [:]
        // Files read to resolve names are read again under their locks; the
        // first reading is let go (a 10 MB list need not be held twice).
        store.single.removeAll()
        var fresh = loadedDocuments
        do {
            for path in unique {
                let lock = try FileLock.acquire(path, in: root.root)
                locks[path] = lock
                let document = DocumentParser.parse(lock.bytes, path: path)
                try requireEditable(document)
                if let index = fresh.firstIndex(where: { $0.path == path }) { fresh[index] = document } else { fresh.append(document) }
            }
        } catch let failure as WriteFailure {
            throw relative(failure).tickError
        }
        defer { for lock in locks.values { lock.release() } }
        TestSeam.wait("TICK_TEST_WAIT_AFTER_LOCK")

        let outcome = try compute(EditInputs(documents: fresh))
        var changes: [AtomicWriter.Change] = []
        var created: [AtomicWriter.CreatedFile] = []
        do {
            for file in outcome.files {
                if case .create(let path, let bytes) = file {
                    try createParentFolders(of: path)
                    created.append(try AtomicWriter.create(path, in: root.root, bytes: bytes))
                }
            }
            for file in outcome.files {
                if case .replace(let path, let bytes) = file {
                    guard let lock = locks[path] else {
                        throw TickError.cannotWrite("internal error: \(path) was not locked; nothing was changed")
                    }
                    if bytes != lock.bytes { changes.append(AtomicWriter.Change(lock: lock, bytes: bytes)) }
                }
            }
            try AtomicWriter.commit(changes)
        } catch let failure as WriteFailure {
            for file in created { file.remove() }
            throw relative(failure).tickError
        } catch {
            for file in created { file.remove() }
            throw error
        }
        journal(outcome.files, locks: locks)
        for note in outcome.notes { Terminal.note(note) }
        for warning in outcome.warnings { Terminal.warning(warning) }
        for message in outcome.messages { print(TerminalText.safeLines(message)) }
    }

    /// Records the change for `tick undo`; failing to is a warning (the change itself is made).
    private func journal(_ files: [FileOutput], locks: [String: FileLock]) {
        var changed: [(path: String, old: [UInt8]?, new: [UInt8])] = []
        for file in files {
            switch file {
            case .replace(let path, let bytes):
                if let old = locks[path]?.bytes, old != bytes { changed.append((path, old, bytes)) }
            case .create(let path, let bytes):
                changed.append((path, nil, bytes))
            }
        }
        guard !changed.isEmpty, let journal = ChangeJournal(root: root.root) else { return }
        do {
            try journal.record(command: Self.commandLine, files: changed)
        } catch {
            Terminal.warning("the change was made, but could not be recorded for tick undo: \(error.localizedDescription)")
        }
    }

    /// The command as typed, quoted where a word needs it (for `tick undo --list`).
    static var commandLine: String {
        (["tick"]
            + CommandLine.arguments.dropFirst().map { word in
                word.isEmpty || word.contains(where: { " \t'\"\\$`!*?#&;|<>()".contains($0) })
                    ? "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" : word
            }).joined(separator: " ")
    }

    /// A failure that names its file relative to the notes folder.
    private func relative(_ failure: WriteFailure) -> WriteFailure {
        let prefix = root.root + "/"
        return failure.path.hasPrefix(prefix) ? failure.naming(String(failure.path.dropFirst(prefix.count))) : failure
    }

    /// Refuses a file tick never rewrites: not UTF-8, or holding git conflict markers (65).
    private func requireEditable(_ document: Document?) throws {
        guard let document else { return }
        if !document.isValidUTF8 { throw WriteFailure.notUTF8(path: document.path).tickError }
        if let line = document.conflictLines.first { throw WriteFailure.conflicted(path: document.path, line: line).tickError }
    }

    private func createParentFolders(of path: String) throws {
        let folder = (root.absolute(path) as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw TickError.cannotWrite("cannot create folder \((path as NSString).deletingLastPathComponent): \(error.localizedDescription)")
        }
    }

    /// Applies splices, turning an internal overlap into a clean failure.
    static func apply(_ splices: [Splice], to document: Document) throws -> [UInt8] {
        do {
            return try Splice.apply(splices, to: document.source.bytes)
        } catch {
            throw TickError.badData("\(error.description) in \(document.path); nothing was changed")
        }
    }

    /// A date the user typed (`--due friday`), as a date, or a usage error.
    func date(_ text: String, option: String) throws -> TaskDate {
        guard let date = DateExpression.resolve(text, today: today) else {
            throw TickError.usage("\(option) " + DateExpression.problem(with: text, today: today))
        }
        return date
    }

    /// Text typed for a title, with people's dates in its tokens made ISO.
    func normalizedTitle(_ text: String, option: String) throws -> String {
        let trimmed = text.trimmingWhiteSpace()
        guard !trimmed.isEmpty else { throw TickError.usage("\(option) is empty; give the item's text") }
        try OptionValue.oneLine(trimmed, option: option)
        do {
            return try TypedDates.normalize(trimmed, today: today)
        } catch {
            throw TickError.usage(error.description)
        }
    }

    /// The 1-based line of `offset` in `bytes`.
    static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        SourceText(bytes).line(containing: min(offset, max(bytes.count - 1, 0)))
    }
}

extension Terminal {
    static func note(_ message: String) {
        writeError("tick: note: " + TerminalText.safeLines(message) + "\n")
    }

    static func writeBytes(_ bytes: [UInt8]) {
        writeRaw(bytes)
    }
}

/// Shared parsing of option values for change commands.
enum OptionValue {
    /// `text`, a value that becomes text in a file (a title, a heading, a
    /// tag, a list's name), when it is one line of printable text: a line
    /// break or any other control character (tab aside) would write lines
    /// or bytes the user never saw, so it is refused (exit 64).
    @discardableResult
    static func oneLine(_ text: String, option: String) throws -> String {
        if let scalar = text.unicodeScalars.first(where: isForbidden) {
            let code = String(format: "U+%04X", scalar.value)
            let what = scalar == "\n" || scalar == "\r" || scalar.value == 0x2028 || scalar.value == 0x2029 ? "a line break" : "a control character"
            throw TickError.usage("\(option) holds \(what) (\(code)); give one line of plain text")
        }
        return text
    }

    /// C0 and C1 controls other than tab, DEL, and the Unicode line and
    /// paragraph separators.
    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x09) || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }

    static func priority(_ text: String) throws -> Priority {
        let word = text.hasPrefix("!") ? String(text.dropFirst()) : text
        guard let priority = Priority(word: word) else {
            throw TickError.usage("unknown priority '\(text)'; use lowest, low, normal, medium, high or urgent")
        }
        return priority
    }

    static func color(_ text: String) throws -> String {
        try oneLine(text, option: "--color")
        guard ListColor.isValid(text) else {
            throw TickError.usage("unknown color '\(text)'; use one of \(ListColor.names.joined(separator: ", ")) or #rrggbb")
        }
        return text.lowercased()
    }

    static func icon(_ text: String) throws -> String {
        try oneLine(text, option: "--icon")
        guard !text.isEmpty, !text.contains(where: { $0.isWhitespace }) else {
            throw TickError.usage("icon '\(text)' must be one word, a symbol name like cart or an emoji")
        }
        return text
    }

    static func tag(_ text: String, option: String = "--tag") throws -> String {
        try oneLine(text, option: option)
        let tag = text.hasPrefix("#") ? String(text.dropFirst()) : text
        let valid =
            !tag.isEmpty
            && tag.unicodeScalars.allSatisfy { scalar in
                scalar.value >= 0x80 || CharacterSet.alphanumerics.contains(scalar) || "_-/".unicodeScalars.contains(scalar)
            } && !tag.allSatisfy(\.isNumber)
        guard valid else { throw TickError.usage("tag '\(text)' must be letters, digits, _, - or /, and not only digits") }
        return tag
    }

    /// A block id as typed (`q4plan` or `^q4plan`): letters, digits, `-` and `_`.
    static func blockID(_ text: String, option: String) throws -> String {
        let id = text.hasPrefix("^") ? String(text.dropFirst()) : text
        guard !id.isEmpty,
            id.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D || byte == 0x5F
            })
        else {
            throw TickError.usage("\(option) '\(text)' is not a block id; an id is letters, digits, - and _ (e.g. q4plan)")
        }
        return id
    }

    static func sortKeys(_ text: String) throws -> [SortKey] {
        switch SortKey.list(text) {
        case .success(let keys): return keys
        case .failure(let failure): throw TickError.usage("--by: " + failure.message)
        }
    }
}

extension Document {
    /// `PATH:LINE  title` of an item, for messages.
    func describe(_ item: TaskItem) -> String { "\(address(of: item))  \(item.title)" }
}
