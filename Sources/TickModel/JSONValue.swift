import Foundation
import TickSystem

/// A JSON value whose objects keep their keys in the order they were built.
///
/// tick's JSON promises a stable key order (SPEC §6). Foundation's
/// `JSONSerialization` only offers sorted keys, so output goes through this
/// small value type and its writer instead.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let text): hasher.combine(text)
        case .int(let number): hasher.combine(number)
        default: hasher.combine(0)
        }
    }

    public static func string(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }

    /// The value of `key` in an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let pairs) = self { return pairs.first(where: { $0.0 == key })?.1 }
        return nil
    }

    public var stringValue: String? {
        switch self {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): String(flag)
        default: nil
        }
    }

    /// Compact or pretty-printed JSON text.
    public func serialized(pretty: Bool = false) -> String {
        String(decoding: serializedBytes(pretty: pretty), as: UTF8.self)
    }

    /// Compact or pretty-printed JSON as UTF-8 bytes (written straight into
    /// one buffer: output of tens of megabytes stays fast).
    public func serializedBytes(pretty: Bool = false) -> [UInt8] {
        var output = ByteOutput(capacity: 256)
        write(to: &output, pretty: pretty, indent: 0)
        return output.bytes
    }

    private static func newline(_ output: inout ByteOutput, indent: Int) {
        output.append(0x0A)
        output.append(0x20, count: indent * 2)
    }

    private func write(to output: inout ByteOutput, pretty: Bool, indent: Int) {
        switch self {
        case .null: output.append("null")
        case .bool(let flag): output.append(flag ? "true" : "false")
        case .int(let number): output.append(Array(String(number).utf8))
        case .double(let number):
            output.append(Array((number.isFinite ? String(number) : "null").utf8))
        case .string(let text): JSONValue.appendString(text, to: &output)
        case .array(let values):
            if values.isEmpty {
                output.append("[]")
                return
            }
            output.append(UInt8(ascii: "["))
            for (position, value) in values.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                if pretty { JSONValue.newline(&output, indent: indent + 1) }
                value.write(to: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { JSONValue.newline(&output, indent: indent) }
            output.append(UInt8(ascii: "]"))
        case .object(let pairs):
            if pairs.isEmpty {
                output.append("{}")
                return
            }
            output.append(UInt8(ascii: "{"))
            for (position, (key, value)) in pairs.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                if pretty { JSONValue.newline(&output, indent: indent + 1) }
                JSONValue.appendString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                if pretty { output.append(0x20) }
                value.write(to: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { JSONValue.newline(&output, indent: indent) }
            output.append(UInt8(ascii: "}"))
        }
    }

    package static func appendString(_ text: String, to output: inout ByteOutput) {
        var text = text
        text.withUTF8 { appendString(utf8: $0, to: &output) }
    }

    /// Appends UTF-8 bytes as a JSON string literal, quotes included.
    /// `escapeFree`: the caller knows that no byte needs an escape (as a
    /// title the parse cache marks plain ASCII: printable, no `"` or `\`),
    /// so the bytes are copied as they are, unscanned.
    package static func appendString(utf8: UnsafeBufferPointer<UInt8>, escapeFree: Bool = false, to output: inout ByteOutput) {
        output.append(UInt8(ascii: "\""))
        // Most strings need no escape: find the first byte that does, eight
        // bytes at a time, and copy everything before it whole. This runs
        // over every byte of every string a query prints.
        var start = 0
        var index = escapeFree ? utf8.count : 0
        while index < utf8.count {
            index = firstEscape(in: utf8, from: index)
            guard index < utf8.count else { break }
            let byte = utf8[index]
            output.append(UnsafeBufferPointer(rebasing: utf8[start..<index]))
            output.append(0x5C)
            switch byte {
            case UInt8(ascii: "\""): output.append(0x22)
            case UInt8(ascii: "\\"): output.append(0x5C)
            case 0x0A: output.append(UInt8(ascii: "n"))
            case 0x0D: output.append(UInt8(ascii: "r"))
            case 0x09: output.append(UInt8(ascii: "t"))
            default:
                output.append("u00")
                output.appendHex(UInt64(byte), digits: 2)
            }
            index += 1
            start = index
        }
        output.append(UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
        output.append(UInt8(ascii: "\""))
    }

    /// The index of the first byte at or after `start` that JSON must escape
    /// (a control byte, `"` or `\`), or the count when there is none.
    private static func firstEscape(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        if let base = utf8.baseAddress {
            let raw = UnsafeRawPointer(base)
            // A word holds such a byte when one of its bytes is below 0x20 or
            // equals 0x22 or 0x5C.
            while index + 8 <= utf8.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if WordBytes.below(0x20, word) | WordBytes.equal(0x22, word) | WordBytes.equal(0x5C, word) != 0 { break }
                index += 8
            }
        }
        while index < utf8.count {
            let byte = utf8[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { return index }
            index += 1
        }
        return index
    }

    /// Converts a value from Foundation's `JSONSerialization` or a YAML load.
    public init(any value: Any?) {
        switch value {
        case nil, is NSNull: self = .null
        case let flag as Bool: self = .bool(flag)
        case let number as Int: self = .int(number)
        case let number as Double: self = .double(number)
        case let text as String: self = .string(text)
        case let date as Date: self = .string(ISO8601DateFormatter().string(from: date))
        case let list as [Any?]: self = .array(list.map { JSONValue(any: $0) })
        case let map as [String: Any?]: self = .object(map.keys.sorted().map { ($0, JSONValue(any: map[$0]!)) })
        default: self = .string(String(describing: value!))
        }
    }
}
