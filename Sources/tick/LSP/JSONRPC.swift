import Foundation
import TickModel
import TickSystem

/// JSON-RPC 2.0 as the Language Server Protocol frames it: each message is
/// a `Content-Length: N` header block, a blank line, and N bytes of JSON.
///
/// This file knows nothing about tick or LSP methods: it reads and writes
/// frames, turns JSON text into `JSONValue`s and back, and names the error
/// codes of the JSON-RPC and LSP specifications.
enum JSONRPC {
    /// The error codes a response may carry (JSON-RPC 2.0 and LSP 3.17).
    enum ErrorCode: Int {
        /// The body is not JSON, or the header has no usable `Content-Length`.
        case parseError = -32700
        /// JSON, but not a JSON-RPC message (no `jsonrpc: "2.0"`, no method, a batch).
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case internalError = -32603
        /// A request other than `initialize` before `initialize`.
        case serverNotInitialized = -32002
        /// The request names a document or item the server cannot act on.
        case requestFailed = -32803
    }

    /// The largest body accepted; a longer one is skipped (and answered
    /// with a parse error), so a wrong length cannot make the server hold
    /// gigabytes.
    static let maximumBody = 64 << 20
    /// The largest header block accepted before its blank line.
    static let maximumHeader = 64 << 10

    /// JSON text as a `JSONValue`; nil when it is not JSON.
    static func decode(_ bytes: [UInt8]) -> JSONValue? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else { return nil }
        return value(object)
    }

    /// A Foundation JSON object as a `JSONValue` (object keys in no particular order).
    private static func value(_ object: Any) -> JSONValue {
        switch object {
        case let text as String: return .string(text)
        case let number as NSNumber:
            // JSONSerialization gives booleans as NSNumbers of type `c`.
            switch String(cString: number.objCType) {
            case "c", "B": return .bool(number.boolValue)
            case "d", "f":
                let double = number.doubleValue
                if double.rounded() == double, abs(double) < 1e15 { return .int(Int(double)) }
                return .double(double)
            default: return .int(number.intValue)
            }
        case let array as [Any]: return .array(array.map(value))
        case let dictionary as [String: Any]: return .object(dictionary.map { ($0.key, value($0.value)) }.sorted { $0.0 < $1.0 })
        default: return .null
        }
    }

    /// One frame read from the input.
    enum Frame {
        /// The body of a message (not yet checked to be JSON).
        case body([UInt8])
        /// A header block without a usable `Content-Length`, or a body over
        /// `maximumBody` (skipped): answered with a parse error.
        case unreadable(String)
        /// The input ended.
        case end
    }

    /// Reads frames from a file descriptor (the server's standard input),
    /// with `read(2)` so that nothing is buffered out of its sight.
    final class Reader {
        private let descriptor: Int32
        private var buffer: [UInt8] = []
        private var position = 0
        private var ended = false

        init(descriptor: Int32) { self.descriptor = descriptor }

        /// Reads more input into the buffer; false at the end of input.
        private func fill() -> Bool {
            if ended { return false }
            if position > 0 && position >= buffer.count / 2 {
                buffer.removeFirst(position)
                position = 0
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { Posix.read(descriptor, into: $0) }
            if count <= 0 {
                ended = true
                return false
            }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }

        /// One line of the header block, without its `\r\n` (or `\n`); nil
        /// at the end of input. A line longer than the header limit comes
        /// back cut short (its rest is read as further lines).
        private func line() -> [UInt8]? {
            while true {
                if let newline = buffer[position...].firstIndex(of: 0x0A) {
                    var line = Array(buffer[position..<newline])
                    position = newline + 1
                    if line.last == 0x0D { line.removeLast() }
                    return line
                }
                if buffer.count - position > JSONRPC.maximumHeader {
                    let line = Array(buffer[position..<position + JSONRPC.maximumHeader])
                    position += JSONRPC.maximumHeader
                    return line
                }
                if !fill() { return nil }
            }
        }

        /// `count` bytes, or nil when the input ends first.
        private func bytes(_ count: Int) -> [UInt8]? {
            while buffer.count - position < count {
                if !fill() { return nil }
            }
            let body = Array(buffer[position..<position + count])
            position += count
            return body
        }

        /// Skips `count` bytes; false when the input ends first.
        private func skip(_ count: Int) -> Bool {
            var left = count
            while left > 0 {
                if position >= buffer.count, !fill() { return false }
                let step = min(left, buffer.count - position)
                position += step
                left -= step
            }
            return true
        }

        /// The next frame. Blank lines before a header block are skipped.
        func next() -> Frame {
            var length: Int? = nil
            var problem: String? = nil
            var sawHeader = false
            var headerBytes = 0
            while true {
                guard let line = line() else { return .end }
                if line.isEmpty {
                    if !sawHeader { continue }
                    break
                }
                sawHeader = true
                headerBytes += line.count
                if headerBytes > JSONRPC.maximumHeader { problem = problem ?? "header block too long" }
                let text = String(decoding: line, as: UTF8.self)
                guard let colon = text.firstIndex(of: ":") else {
                    problem = problem ?? "header line without a colon"
                    continue
                }
                let name = text[..<colon].trimmingWhiteSpace().lowercased()
                let value = text[text.index(after: colon)...].trimmingWhiteSpace()
                if name == "content-length" {
                    if let number = Int(value), number >= 0 {
                        length = number
                    } else {
                        problem = problem ?? "Content-Length '\(value)' is not a length"
                    }
                }
            }
            if let problem { return .unreadable(problem) }
            guard let length else { return .unreadable("no Content-Length header") }
            if length > JSONRPC.maximumBody {
                guard skip(length) else { return .end }
                return .unreadable("a body of \(length) bytes is over the limit of \(JSONRPC.maximumBody)")
            }
            guard let body = bytes(length) else { return .end }
            return .body(body)
        }
    }

    /// Writes framed messages to a file descriptor (standard output) with
    /// `write(2)`. A closed output is reported, never a crash.
    final class Writer {
        private let descriptor: Int32
        /// True once a write failed (the client closed its end).
        private(set) var failed = false

        init(descriptor: Int32) { self.descriptor = descriptor }

        func send(_ message: JSONValue) {
            let body = message.serializedBytes()
            var frame = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
            frame += body
            if !failed, frame.withUnsafeBytes({ Posix.writeAll($0, to: descriptor) }) != nil { failed = true }
        }
    }
}

extension JSONValue {
    /// The number, when this is an integer.
    var intValue: Int? {
        if case .int(let number) = self { return number }
        return nil
    }

    /// The text, when this is a string (`stringValue` also turns numbers into text).
    var textValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var arrayValue: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}
