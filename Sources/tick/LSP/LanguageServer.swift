import Foundation
import TickEngine
import TickModel
import TickRecords
import TickStore
import TickSyntax

/// A failed request: the JSON-RPC error code and a message for the user.
struct LSPError: Error {
    var code: JSONRPC.ErrorCode
    var message: String

    init(_ code: JSONRPC.ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}

/// A document the editor has open: its text as the editor last sent it
/// (never the file on disk), parsed.
struct OpenDocument {
    /// The URI exactly as the client wrote it (clients compare URIs as text).
    var uri: String
    /// The version of the last `didOpen` or `didChange`.
    var version: Int
    var document: Document
}

/// The language server behind `tick lsp` (SPEC §10, docs/EDITORS.md).
///
/// It reads one message at a time from standard input and answers on
/// standard output; it never writes files (code actions return the edits for
/// the editor to apply). Guarantees: every request gets exactly one response,
/// a notification never gets one; malformed input gets the protocol's error
/// response and the server reads on; it ends when told to (`exit`) or when
/// its input closes, with status 0 after `shutdown` and 1 without.
final class LanguageServer {
    private let reader: JSONRPC.Reader
    private let writer: JSONRPC.Writer
    let today: TaskDate
    private let defaultFolderPath: String
    /// The notes folder (the workspace root); nil when it cannot be read.
    private(set) var root: NotesFolder?
    private(set) var encoding: PositionEncoding = .utf16
    private var initialized = false
    private var shutdownRequested = false
    /// Open documents by URI.
    private(set) var openDocuments: [String: OpenDocument] = [:]
    /// The folder's lists as the read model holds them (read from disk,
    /// through the parse cache), until a save, a close or a watched file
    /// says they changed.
    private var diskLists: EncodedWorkspace? {
        didSet { diskCompletionWords = nil }
    }
    /// What completion offers from `diskLists`' lists (`documents`, then
    /// those not UTF-8), a run of `runLength` lists to each, made the first
    /// time completion asks after each read of the folder: completing a tag
    /// or an id then reads the items only of the runs that hold a list the
    /// editor has open (a folder of 50,000 notes has more than a million).
    private var diskCompletionWords: [CompletionWords]?
    /// The lists read at a time, from the parse cache's pages given back after each run.
    private static let runLength = 1024

    init(input: Int32, output: Int32, folderPath: String, today: TaskDate) {
        reader = JSONRPC.Reader(descriptor: input)
        writer = JSONRPC.Writer(descriptor: output)
        self.today = today
        defaultFolderPath = folderPath
    }

    /// Serves until `exit` or the end of input; returns the exit status.
    func run() -> Int32 {
        while true {
            switch reader.next() {
            case .end:
                return shutdownRequested ? 0 : 1
            case .unreadable(let why):
                sendError(id: .null, LSPError(.parseError, "cannot read the message: \(why)"))
            case .body(let bytes):
                guard let message = JSONRPC.decode(bytes) else {
                    sendError(id: .null, LSPError(.parseError, "the message is not JSON"))
                    break
                }
                if let status = handle(message) { return status }
            }
            if writer.failed { return shutdownRequested ? 0 : 1 }
        }
    }

    // MARK: Messages

    /// Handles one message; returns the exit status when it was `exit`.
    private func handle(_ message: JSONValue) -> Int32? {
        guard message.isObject else {
            sendError(id: .null, LSPError(.invalidRequest, "a message is a JSON object (batches are not used by LSP)"))
            return nil
        }
        let rawID = message["id"]
        var id: JSONValue? = nil
        if let rawID {
            switch rawID {
            case .int, .string, .double, .null: id = rawID
            default:
                sendError(id: .null, LSPError(.invalidRequest, "a request id is a number or a string"))
                return nil
            }
        }
        guard message["jsonrpc"]?.textValue == "2.0" else {
            sendError(id: id ?? .null, LSPError(.invalidRequest, "the message has no \"jsonrpc\": \"2.0\""))
            return nil
        }
        guard let methodValue = message["method"] else {
            // A response to a request of ours (the server sends none) is ignored.
            if id != nil, message["result"] != nil || message["error"] != nil { return nil }
            sendError(id: id ?? .null, LSPError(.invalidRequest, "the message has no method"))
            return nil
        }
        guard let method = methodValue.textValue else {
            sendError(id: id ?? .null, LSPError(.invalidRequest, "the method is not a string"))
            return nil
        }
        let params = message["params"] ?? .null
        if let id {
            do {
                let result = try request(method, params)
                send(.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]))
            } catch let error as LSPError {
                sendError(id: id, error)
            } catch {
                sendError(id: id, LSPError(.internalError, "\(error)"))
            }
            return nil
        }
        if method == "exit" { return shutdownRequested ? 0 : 1 }
        notification(method, params)
        return nil
    }

    private func send(_ message: JSONValue) { writer.send(message) }

    private func sendError(id: JSONValue, _ error: LSPError) {
        send(
            .object([
                ("jsonrpc", .string("2.0")), ("id", id),
                ("error", .object([("code", .int(error.code.rawValue)), ("message", .string(error.message))])),
            ]))
    }

    private func notify(_ method: String, _ params: JSONValue) {
        send(.object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)]))
    }

    /// The result of a request, or the error to answer with.
    private func request(_ method: String, _ params: JSONValue) throws -> JSONValue {
        if method == "initialize" {
            if initialized { throw LSPError(.invalidRequest, "initialize was already called") }
            return initialize(params)
        }
        guard initialized else { throw LSPError(.serverNotInitialized, "the server is not initialized; send initialize first") }
        if shutdownRequested { throw LSPError(.invalidRequest, "the server is shutting down; only exit is accepted") }
        switch method {
        case "shutdown":
            shutdownRequested = true
            return .null
        case "textDocument/codeAction": return try codeActions(params)
        case "textDocument/completion": return try completion(params)
        case "textDocument/hover": return try hover(params)
        case "workspace/symbol": return try workspaceSymbols(params)
        case "workspace/executeCommand": return try executeCommand(params)
        default: throw LSPError(.methodNotFound, "tick lsp has no method '\(method)'")
        }
    }

    private func notification(_ method: String, _ params: JSONValue) {
        guard initialized, !shutdownRequested else { return }
        switch method {
        case "textDocument/didOpen":
            guard let item = params["textDocument"], let uri = item["uri"]?.textValue, let text = item["text"]?.textValue else { return }
            update(uri: uri, version: item["version"]?.intValue ?? 0, text: text)
        case "textDocument/didChange":
            guard let uri = params["textDocument"]?["uri"]?.textValue, let changes = params["contentChanges"]?.arrayValue,
                var text = openDocuments[uri].map({ String(decoding: $0.document.source.bytes, as: UTF8.self) })
            else { return }
            for change in changes {
                guard let newText = change["text"]?.textValue else { continue }
                if let range = change["range"], let start = LSPPosition(range["start"]), let end = LSPPosition(range["end"]) {
                    // An incremental change (a client may send one even though full sync was asked for).
                    let source = SourceText(Array(text.utf8))
                    let converter = PositionConverter(source: source, encoding: encoding)
                    let from = converter.offset(of: start)
                    let to = max(from, converter.offset(of: end))
                    text = String(decoding: Array(source.bytes[..<from]) + Array(newText.utf8) + Array(source.bytes[to...]), as: UTF8.self)
                } else {
                    text = newText
                }
            }
            update(uri: uri, version: params["textDocument"]?["version"]?.intValue ?? 0, text: text)
        case "textDocument/didClose":
            guard let uri = params["textDocument"]?["uri"]?.textValue else { return }
            openDocuments[uri] = nil
            diskLists = nil
            notify("textDocument/publishDiagnostics", .object([("uri", .string(uri)), ("diagnostics", .array([]))]))
        case "textDocument/didSave", "workspace/didChangeWatchedFiles":
            diskLists = nil
        default:
            break // initialized, $/cancelRequest, $/setTrace and the rest need nothing
        }
    }

    // MARK: Lifecycle

    private func initialize(_ params: JSONValue) -> JSONValue {
        initialized = true
        let offered = params["capabilities"]?["general"]?["positionEncodings"]?.arrayValue?.compactMap(\.textValue)
        encoding = PositionEncoding.negotiate(offered)
        var folderPath = defaultFolderPath
        if let folder = params["workspaceFolders"]?.arrayValue?.first?["uri"]?.textValue, let path = Self.path(ofURI: folder) {
            folderPath = path
        } else if let uri = params["rootUri"]?.textValue, let path = Self.path(ofURI: uri) {
            folderPath = path
        } else if let path = params["rootPath"]?.textValue, !path.isEmpty {
            folderPath = path
        }
        root = try? NotesFolder(path: folderPath)
        let triggers: [JSONValue] = [":", "!", "#", " "].map { .string($0) }
        let capabilities: JSONValue = .object([
            ("positionEncoding", .string(encoding.rawValue)),
            ("textDocumentSync", .object([("openClose", .bool(true)), ("change", .int(1)), ("save", .bool(true))])),
            ("codeActionProvider", .object([("codeActionKinds", .array([.string(LSPFeatures.codeActionKind)]))])),
            ("completionProvider", .object([("triggerCharacters", .array(triggers)), ("resolveProvider", .bool(false))])),
            ("hoverProvider", .bool(true)),
            ("workspaceSymbolProvider", .bool(true)),
            ("executeCommandProvider", .object([("commands", .array([.string(LSPFeatures.queryCommand)]))])),
        ])
        return .object([
            ("capabilities", capabilities),
            ("serverInfo", .object([("name", .string("tick")), ("version", .string(Tick.configuration.version))])),
        ])
    }

    // MARK: Documents

    /// The local path of a `file:` URI.
    static func path(ofURI uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        let path = url.path
        return path.isEmpty ? nil : path
    }

    /// The `file:` URI of an absolute path.
    static func uri(ofPath path: String) -> String { URL(fileURLWithPath: path).absoluteString }

    /// The path a document's items are addressed by: relative to the notes
    /// folder when inside it, else absolute.
    func documentPath(ofURI uri: String) -> String {
        let absolute = Self.path(ofURI: uri) ?? uri
        if let root, let relative = root.relative(absolute), !relative.isEmpty, !relative.hasPrefix("../") { return relative }
        return absolute
    }

    private func update(uri: String, version: Int, text: String) {
        let document = DocumentParser.parse(Array(text.utf8), path: documentPath(ofURI: uri))
        openDocuments[uri] = OpenDocument(uri: uri, version: version, document: document)
        publishDiagnostics(uri: uri, version: version, document: document)
    }

    /// Publishes what `tick check` reports for the document's text.
    private func publishDiagnostics(uri: String, version: Int, document: Document) {
        let converter = PositionConverter(source: document.source, encoding: encoding)
        // As `tick check --dependencies`: dependencies name ids in any list
        // (the other lists as last read from disk, the open ones as edited).
        // Obsidian reads these without complaint, so they are information,
        // not warnings.
        // Only a list with an id or a dependency can have such a problem: the
        // folder is not walked for the others on every change.
        let concernsDependencies = document.items.contains { $0.metadata.id != nil || !$0.metadata.dependsOn.isEmpty }
        let dependencyProblems =
            root == nil || !concernsDependencies
            ? []
            : DependencyIndex.problems(in: listsWithDependencies())
                .filter { $0.path == document.path }
                .map { Diagnostic(line: $0.line, column: $0.column, message: $0.message) }
        let found = document.diagnostics.map { ($0, 2) } + dependencyProblems.map { ($0, 3) }
        let diagnostics: [JSONValue] = found.map { diagnostic, severity in
            .object([
                ("range", converter.range(LSPFeatures.range(of: diagnostic, in: document.source))),
                ("severity", .int(severity)), // 2: a warning, as tick check says; 3: information
                ("source", .string("tick")),
                ("message", .string(diagnostic.message)),
            ])
        }
        notify(
            "textDocument/publishDiagnostics",
            .object([
                ("uri", .string(uri)), ("version", .int(version)), ("diagnostics", .array(diagnostics)),
            ]))
    }

    /// The open document `params.textDocument.uri` names.
    func openDocument(_ params: JSONValue) throws -> OpenDocument {
        guard let uri = params["textDocument"]?["uri"]?.textValue else {
            throw LSPError(.invalidParams, "params.textDocument.uri is missing")
        }
        guard let open = openDocuments[uri] else {
            throw LSPError(.requestFailed, "\(uri) is not open; tick lsp answers for documents the editor has opened")
        }
        return open
    }

    /// Each list of the folder in path order, the open ones as the editor
    /// has them (`open`), the others as the read model holds them (`disk`,
    /// with the URI to name the list by, its items ready to read; the
    /// cache's pages are given back a run of lists at a time), then the
    /// open documents outside the folder. `fresh` reads the folder again
    /// (symbols and queries, which a user asks for now and then);
    /// completion takes the lists read last, until a save, a close or a
    /// watched file changes.
    func forEachList(fresh: Bool = false, disk: (String, EncodedDocument) -> Void, open: (OpenDocument) -> Void) {
        let (workspace, lists) = diskListsInPathOrder(fresh: fresh)
        inRuns(of: lists) { run, opened in
            guard let root, let workspace else { return }
            for place in run {
                if let document = opened[place] {
                    open(document)
                } else {
                    disk(Self.uri(ofPath: root.absolute(lists[place].path)), workspace.checked(lists[place]))
                }
            }
            CachePages.release(lists[run])
        } outside: {
            open($0)
        }
    }

    /// What completion offers from each list, in `forEachList`'s order:
    /// the lists the editor has open as it has them, the others as last
    /// read, a run's lists together where the editor has none of them open
    /// (each run's words found the first time completion asks after each
    /// read of the folder).
    func forEachListsCompletionWords(_ body: (CompletionWords) -> Void) {
        let (workspace, lists) = diskListsInPathOrder()
        if let workspace, diskCompletionWords == nil {
            // On one core: read on two at once, the runs' pages, given back
            // run by run, raised the server's peak by 35-40 MB at 50,000
            // notes (to more than 200 MB), for 0.3 s of the first completion.
            let runs = (lists.count + Self.runLength - 1) / Self.runLength
            diskCompletionWords = (0..<runs).map { index in
                let run = index * Self.runLength..<min(lists.count, (index + 1) * Self.runLength)
                let words = CompletionWords(run.lazy.map { workspace.checked(lists[$0]) })
                CachePages.release(lists[run])
                return words
            }
        }
        let runWords = diskCompletionWords ?? []
        inRuns(of: lists) { run, opened in
            guard !opened.isEmpty else { return body(runWords[run.lowerBound / Self.runLength]) }
            for place in run {
                if let document = opened[place] {
                    body(CompletionWords(document.document))
                } else if let workspace {
                    body(CompletionWords([workspace.checked(lists[place])]))
                }
            }
            CachePages.release(lists[run])
        } outside: {
            body(CompletionWords($0.document))
        }
    }

    /// The folder's lists (`lists`: the read model's, in list order, then
    /// those not UTF-8, as read from disk) a run of `runLength` at a time,
    /// each with the lists of it the editor has open (by place, as it has
    /// them), then the open documents outside the folder, in path order.
    private func inRuns(
        of lists: [EncodedDocument], _ body: (Range<Int>, _ opened: [Int: OpenDocument]) -> Void, outside: (OpenDocument) -> Void
    ) {
        var openPaths: [String: OpenDocument] = [:]
        for open in openDocuments.values { openPaths[open.document.path] = open }
        for start in stride(from: 0, to: lists.count, by: Self.runLength) {
            let run = start..<min(lists.count, start + Self.runLength)
            var opened: [Int: OpenDocument] = [:]
            if !openPaths.isEmpty {
                for place in run { if let document = openPaths.removeValue(forKey: lists[place].path) { opened[place] = document } }
            }
            body(run, opened)
        }
        for document in openPaths.values.sorted(by: { $0.document.path < $1.document.path }) { outside(document) }
    }

    /// The folder's lists as last read (`diskLists`), read again when
    /// `fresh` or after a change; nil without a notes folder.
    private func diskWorkspace(fresh: Bool = false) -> EncodedWorkspace? {
        guard let root else { return nil }
        if fresh { diskLists = nil } // let go before the new read, not held beside it
        if diskLists == nil {
            diskLists = EncodedWorkspace.load(root, cache: ParseCache(root: root.root))
        }
        return diskLists
    }

    /// The folder's lists as last read (`diskWorkspace`): the read model's,
    /// in path order, then those not UTF-8 (the read model's own array,
    /// not a copy, when there are none, as nearly always).
    private func diskListsInPathOrder(fresh: Bool = false) -> (workspace: EncodedWorkspace?, lists: [EncodedDocument]) {
        guard let workspace = diskWorkspace(fresh: fresh) else { return (nil, []) }
        let notUTF8 = workspace.skipped.notUTF8
        return (workspace, notUTF8.isEmpty ? workspace.documents : workspace.documents + notUTF8)
    }

    /// The list at `path` of the folder, parsed from its file (for the
    /// positions of its items, which only a parse knows); nil when it
    /// cannot be read.
    func parsedList(_ path: String) -> Document? {
        try? root?.load(path)
    }

    /// The lists whose items carry a block id or a dependency, parsed (the
    /// open ones as the editor has them): a dependency problem lies among
    /// them only.
    func listsWithDependencies() -> [Document] {
        var lists: [Document] = []
        forEachList { _, list in
            if list.carriesDependencies, let parsed = parsedList(list.path) { lists.append(parsed) }
        } open: { opened in
            lists.append(opened.document)
        }
        return lists
    }
}

/// What completion offers from lists: the tags their items use, each once
/// (by its lowercased form) with how many times and as it is first written,
/// and the block ids their items carry, in order, with their titles and
/// whether they are open. The words of lists taken one after another give
/// what their items would give one by one, so the words of runs of lists
/// merged in order are those of all their items.
struct CompletionWords: Sendable {
    struct TagUse: Sendable {
        let key: String
        let shown: String
        var count: Int
    }

    private(set) var tags: [TagUse] = []
    private(set) var ids: [(id: String, title: String, isOpen: Bool)] = []

    /// The words of lists of the read model, one after another (their items read in place).
    init(_ lists: some Sequence<EncodedDocument>) {
        var places: [String: Int] = [:]
        for list in lists {
            for item in list.items() {
                if item.hasTags { item.forEachTag { add(tag: $0.string, places: &places) } }
                if let id = item.id { ids.append((id.string, item.title.string, item.status.isOpen)) }
            }
        }
    }

    /// The words of a list the editor has open, as it has it.
    init(_ document: Document) {
        var places: [String: Int] = [:]
        for item in document.items {
            for tag in item.metadata.tags { add(tag: tag, places: &places) }
            if let id = item.metadata.id { ids.append((id, item.title, item.status.isOpen)) }
        }
    }

    /// Counts `tag`; `places` holds the place in `tags` of each key so far.
    private mutating func add(tag: String, places: inout [String: Int]) {
        let key = tag.lowercased()
        if let place = places[key] {
            tags[place].count += 1
        } else {
            places[key] = tags.count
            tags.append(TagUse(key: key, shown: tag, count: 1))
        }
    }
}
