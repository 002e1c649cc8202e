/// A compact binary encoding for the parse cache: LEB128 integers and
/// length-prefixed UTF-8 strings.
///
/// Written by hand because the cache holds every item of a notes folder and
/// must decode in a few milliseconds; Codable coders are an order of
/// magnitude slower. Every read is bounds-checked, so a damaged cache gives
/// an error, never a crash.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func int(_ value: Int) {
        // Zigzag, so that small negative numbers stay short.
        var rest = UInt64(bitPattern: Int64((value << 1) ^ (value >> 63)))
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            int(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }

    mutating func optionalInt(_ value: Int?) {
        bool(value != nil)
        if let value { int(value) }
    }

    mutating func range(_ value: Range<Int>) {
        int(value.lowerBound)
        int(value.count)
    }
}

struct ByteReader {
    struct Damaged: Error {}

    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    let end: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    mutating func byte() throws -> UInt8 {
        guard position < end else { throw Damaged() }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func int() throws -> Int {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try self.byte()
            guard shift < 64 else { throw Damaged() }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        let signed = Int64(bitPattern: result)
        return Int((signed >> 1) ^ -(signed & 1))
    }

    /// A count or index, which must be small and not negative.
    mutating func count(limit: Int = 1 << 40) throws -> Int {
        let value = try int()
        guard value >= 0, value <= limit else { throw Damaged() }
        return value
    }

    mutating func bool() throws -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw Damaged()
        }
    }

    mutating func string() throws -> String {
        let length = try count()
        guard length <= end - position else { throw Damaged() }
        defer { position += length }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<position + length]), as: UTF8.self)
    }

    mutating func optionalString() throws -> String? { try bool() ? try string() : nil }

    mutating func optionalInt() throws -> Int? { try bool() ? try int() : nil }

    mutating func range() throws -> Range<Int> {
        let lower = try count()
        let length = try count()
        return lower..<lower + length
    }
}
