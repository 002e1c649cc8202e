import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal Language Server Protocol client for the tests: starts the
/// built `tick lsp` with pipes, sends framed JSON-RPC messages and reads the
/// server's messages on a thread of its own, so that a test waits for an
/// answer with a time limit and never hangs on a server that stopped.
final class LSPClient: @unchecked Sendable {
    struct Timeout: Error, CustomStringConvertible {
        var what: String
        var description: String { "no answer within the time limit: \(what)" }
    }

    let process: Process
    private let input: Int32
    private let condition = NSCondition()
    private var received: [[String: Any]] = []
    private var unreadable: [String] = []
    private var outputClosed = false
    private var nextID = 1
    /// Everything the server wrote to standard error.
    private(set) var standardError = Data()

    /// Starts `tick lsp ARGUMENTS` (today pinned to 2026-11-21 unless the arguments say otherwise).
    init(_ arguments: [String] = [], today: String = "2026-11-21") throws {
        signal(SIGPIPE, SIG_IGN) // writing to a server that exited must fail, not end the test run
        process = Process()
        process.executableURL = TickProcess.executable
        process.arguments = ["lsp", "--today", today] + arguments
        var environment = ProcessInfo.processInfo.environment
        for key in ["TICK_DIR", "TICK_TODAY"] { environment[key] = nil }
        environment["XDG_CACHE_HOME"] = TickRunner.cacheHome
        environment["XDG_STATE_HOME"] = TickRunner.stateHome
        environment["XDG_CONFIG_HOME"] = TickRunner.configHome
        process.environment = environment
        let inPipe = Pipe()
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
        input = inPipe.fileHandleForWriting.fileDescriptor
        let output = outPipe.fileHandleForReading.fileDescriptor
        let errors = errPipe.fileHandleForReading.fileDescriptor
        Thread.detachNewThread { [self] in readMessages(output) }
        Thread.detachNewThread { [self] in
            let data = TickRunner.readAll(errors)
            condition.lock()
            standardError = data
            condition.unlock()
        }
        // Keep the pipes' handles alive with the process.
        handles = [inPipe, outPipe, errPipe]
    }

    private var handles: [Pipe] = []

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    private func readMessages(_ descriptor: Int32) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            buffer += chunk[0..<count]
            while let headerEnd = Self.find([13, 10, 13, 10], in: buffer) {
                let header = String(decoding: buffer[0..<headerEnd], as: UTF8.self)
                guard let line = header.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
                    let length = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
                else {
                    condition.lock()
                    unreadable.append(header)
                    condition.broadcast()
                    condition.unlock()
                    buffer.removeFirst(headerEnd + 4)
                    continue
                }
                guard buffer.count >= headerEnd + 4 + length else { break }
                let body = Data(buffer[(headerEnd + 4)..<(headerEnd + 4 + length)])
                buffer.removeFirst(headerEnd + 4 + length)
                condition.lock()
                if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
                    received.append(object)
                } else {
                    unreadable.append(String(decoding: body, as: UTF8.self))
                }
                condition.broadcast()
                condition.unlock()
            }
        }
        condition.lock()
        outputClosed = true
        condition.broadcast()
        condition.unlock()
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return start }
        }
        return nil
    }

    // MARK: Sending

    /// Writes raw bytes to the server's input.
    func sendRaw(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += count
        }
    }

    /// Writes `body` with a Content-Length header.
    func sendFramed(_ body: [UInt8]) {
        sendRaw(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }

    func send(_ message: [String: Any]) {
        var message = message
        message["jsonrpc"] = "2.0"
        sendFramed(Array(try! JSONSerialization.data(withJSONObject: message)))
    }

    func notify(_ method: String, _ params: [String: Any] = [:]) {
        send(["method": method, "params": params])
    }

    /// Sends a request and returns the response (its `result` or `error`).
    @discardableResult
    func request(_ method: String, _ params: Any = [String: Any](), timeout: TimeInterval = 10) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        send(["id": id, "method": method, "params": params])
        return try response(id: id, timeout: timeout)
    }

    /// The response with `id`.
    func response(id: Any, timeout: TimeInterval = 10) throws -> [String: Any] {
        try take(timeout: timeout, "a response to request \(id)") { message in
            message["method"] == nil && "\(message["id"] ?? "nil")" == "\(id)"
        }
    }

    /// The next notification of `method`.
    func notification(_ method: String, timeout: TimeInterval = 10) throws -> [String: Any] {
        try take(timeout: timeout, "a \(method) notification") { $0["method"] as? String == method && $0["id"] == nil }
    }

    /// The next message of any kind.
    func nextMessage(timeout: TimeInterval = 10) throws -> [String: Any] {
        try take(timeout: timeout, "any message") { _ in true }
    }

    private func take(timeout: TimeInterval, _ what: String, _ test: ([String: Any]) -> Bool) throws -> [String: Any] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let index = received.firstIndex(where: test) { return received.remove(at: index) }
            if outputClosed || !condition.wait(until: deadline) {
                if let index = received.firstIndex(where: test) { return received.remove(at: index) }
                throw Timeout(what: what + (outputClosed ? " (the server closed its output)" : ""))
            }
        }
    }

    /// Messages received and not yet taken.
    var pending: [[String: Any]] {
        condition.lock()
        defer { condition.unlock() }
        return received
    }

    /// Output that was not a framed JSON message.
    var unreadableOutput: [String] {
        condition.lock()
        defer { condition.unlock() }
        return unreadable
    }

    // MARK: Conveniences

    /// `initialize` (offering `encodings` as `general.positionEncodings`, none when nil) and `initialized`.
    @discardableResult
    func initialize(root: URL?, encodings: [String]? = nil) throws -> [String: Any] {
        var capabilities: [String: Any] = [:]
        if let encodings { capabilities["general"] = ["positionEncodings": encodings] }
        var params: [String: Any] = ["processId": NSNull(), "capabilities": capabilities]
        if let root {
            params["rootUri"] = root.absoluteString
            params["workspaceFolders"] = [["uri": root.absoluteString, "name": root.lastPathComponent]]
        }
        let response = try request("initialize", params)
        notify("initialized")
        return response
    }

    func open(_ uri: String, _ text: String, version: Int = 1) {
        notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "markdown", "version": version, "text": text]])
    }

    func change(_ uri: String, _ text: String, version: Int) {
        notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": version], "contentChanges": [["text": text]]])
    }

    /// Closes the server's input.
    func closeInput() { try? handles[0].fileHandleForWriting.close() }

    /// The exit status, once the process has ended (nil if it has not within `timeout`).
    func waitForExit(timeout: TimeInterval = 10) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning {
            if Date() > deadline { return nil }
            usleep(10_000)
        }
        return process.terminationStatus
    }

    /// `shutdown`, `exit`, and the exit status.
    func shutDown() throws -> Int32? {
        try request("shutdown", NSNull())
        notify("exit")
        return waitForExit()
    }
}

/// Applies LSP text edits to bytes, converting positions in `encoding`
/// ("utf-8" or "utf-16") on its own (a second implementation, so the tests
/// do not check the server's conversion with itself).
enum TextEdits {
    /// Byte offset of an LSP position in `bytes`.
    static func offset(line: Int, character: Int, in bytes: [UInt8], encoding: String) -> Int {
        var lineStart = 0
        var currentLine = 0
        var index = 0
        while currentLine < line && index < bytes.count {
            if bytes[index] == 10 {
                currentLine += 1
                lineStart = index + 1
            } else if bytes[index] == 13 {
                if index + 1 < bytes.count && bytes[index + 1] == 10 { index += 1 }
                currentLine += 1
                lineStart = index + 1
            }
            index += 1
        }
        if currentLine < line { return bytes.count }
        var lineEnd = lineStart
        while lineEnd < bytes.count && bytes[lineEnd] != 10 && bytes[lineEnd] != 13 { lineEnd += 1 }
        let text = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
        var units = 0
        var byteOffset = lineStart
        for scalar in text.unicodeScalars {
            if units >= character { break }
            units += encoding == "utf-8" ? scalar.utf8.count : scalar.utf16.count
            byteOffset += scalar.utf8.count
        }
        return byteOffset
    }

    /// `bytes` with `edits` (TextEdit objects, non-overlapping, against the original) applied.
    static func apply(_ edits: [[String: Any]], to bytes: [UInt8], encoding: String) -> [UInt8] {
        let resolved: [(Range<Int>, [UInt8])] = edits.map { edit in
            let range = edit["range"] as! [String: Any]
            let start = range["start"] as! [String: Any]
            let end = range["end"] as! [String: Any]
            let from = offset(line: start["line"] as! Int, character: start["character"] as! Int, in: bytes, encoding: encoding)
            let to = offset(line: end["line"] as! Int, character: end["character"] as! Int, in: bytes, encoding: encoding)
            return (from..<to, Array((edit["newText"] as! String).utf8))
        }
        var result = bytes
        // From the end; of two edits at one place, the later one first, so
        // that the earlier one's text ends up before it (LSP's order).
        let order = resolved.indices.sorted { a, b in
            resolved[a].0.lowerBound != resolved[b].0.lowerBound ? resolved[a].0.lowerBound > resolved[b].0.lowerBound : a > b
        }
        for index in order {
            result.replaceSubrange(resolved[index].0, with: resolved[index].1)
        }
        return result
    }
}
