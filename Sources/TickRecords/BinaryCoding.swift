/// A compact binary encoding for the parse cache: LEB128 integers and
/// length-prefixed UTF-8 strings.
///
/// Written by hand because the cache holds every item of a notes folder and
/// must decode in a few milliseconds; Codable coders are an order of
/// magnitude slower. Every read is bounds-checked, so a damaged cache gives
/// an error, never a crash.
package struct ByteWriter {
    package var bytes: [UInt8] = []

    package init() {}

    package mutating func int(_ value: Int) {
        // Zigzag, so that small negative numbers stay short.
        var rest = UInt64(bitPattern: Int64((value << 1) ^ (value >> 63)))
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    package mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    package mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            int(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    package mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }

    package mutating func optionalInt(_ value: Int?) {
        bool(value != nil)
        if let value { int(value) }
    }

    /// Bytes after their count.
    package mutating func byteArray(_ value: [UInt8]) {
        int(value.count)
        bytes += value
    }

    mutating func range(_ value: Range<Int>) {
        int(value.lowerBound)
        int(value.count)
    }

    /// Eight bytes, little-endian (a checksum: every bit counts, so no LEB128).
    package mutating func word64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}

package struct ByteReader {
    struct Damaged: Error {}

    let bytes: UnsafeBufferPointer<UInt8>
    package var position: Int
    let end: Int

    package init(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    mutating func byte() throws -> UInt8 {
        guard position < end else { throw Damaged() }
        defer { position += 1 }
        return bytes[position]
    }

    /// Eight bytes, little-endian, as `ByteWriter.word64` writes them.
    package mutating func word64() throws -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(try byte()) << UInt64(shift) }
        return value
    }

    package mutating func int() throws -> Int {
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
    package mutating func count(limit: Int = 1 << 40) throws -> Int {
        let value = try int()
        guard value >= 0, value <= limit else { throw Damaged() }
        return value
    }

    package mutating func bool() throws -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw Damaged()
        }
    }

    package mutating func string() throws -> String {
        let length = try count()
        guard length <= end - position else { throw Damaged() }
        defer { position += length }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<position + length]), as: UTF8.self)
    }

    package mutating func optionalString() throws -> String? { try bool() ? try string() : nil }

    package mutating func optionalInt() throws -> Int? { try bool() ? try int() : nil }

    /// Bytes after their count, as `ByteWriter.byteArray` writes them.
    package mutating func byteArray() throws -> [UInt8] {
        let length = try count()
        guard length <= end - position else { throw Damaged() }
        defer { position += length }
        return Array(bytes[position..<position + length])
    }

    mutating func range() throws -> Range<Int> {
        let lower = try count()
        let length = try count()
        return lower..<lower + length
    }
}

/// Where a string is in an encoded payload.
struct ByteSlice: Sendable {
    var start: UInt32
    var count: UInt32

    /// The bytes of the slice in the buffer it was read from.
    func bytes(in buffer: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: buffer[Int(start)..<Int(start) + Int(count)])
    }

    func string(in buffer: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes(in: buffer), as: UTF8.self)
    }
}

extension ByteWriter {
    /// Writes what `body` writes, preceded by its length, so that a reader
    /// can skip it whole.
    mutating func block(_ body: (inout ByteWriter) -> Void) {
        let start = bytes.count
        body(&self)
        // The length goes before the content, in as many bytes as its
        // LEB128 form needs (written in place: this runs for every item).
        let length = bytes.count - start
        var rest = UInt64(length << 1) // zigzag of a length, which is never negative
        var size = 1
        while rest >= 0x80 {
            rest >>= 7
            size += 1
        }
        bytes.insert(contentsOf: repeatElement(0, count: size), at: start)
        rest = UInt64(length << 1)
        for index in start..<start + size {
            bytes[index] = UInt8(rest & 0x7F) | (index < start + size - 1 ? 0x80 : 0)
            rest >>= 7
        }
    }
}

extension ByteReader {
    /// Reads a block written by `ByteWriter.block` with `body`, which must
    /// read all of it.
    mutating func block(_ body: (inout ByteReader) throws -> Void) throws {
        let length = try count()
        guard length <= end - position else { throw Damaged() }
        var inner = ByteReader(bytes, range: position..<position + length)
        try body(&inner)
        guard inner.position == inner.end else { throw Damaged() }
        position += length
    }

    /// Steps over a block written by `ByteWriter.block`.
    mutating func skipBlock() throws {
        let length = try count()
        guard length <= end - position else { throw Damaged() }
        position += length
    }

    /// A string, left in place.
    mutating func slice() throws -> ByteSlice {
        let length = try count()
        guard length <= end - position, position + length <= Int(UInt32.max) else { throw Damaged() }
        defer { position += length }
        return ByteSlice(start: UInt32(position), count: UInt32(length))
    }

    /// The strings of a counted list written at `offset`.
    func slices(at offset: Int) throws -> [ByteSlice] {
        var reader = ByteReader(bytes, range: offset..<end)
        let count = try reader.count(limit: 1 << 20)
        var slices: [ByteSlice] = []
        slices.reserveCapacity(count)
        for _ in 0..<count { slices.append(try reader.slice()) }
        return slices
    }

    /// The pairs of strings of a counted list written at `offset`.
    func slicePairs(at offset: Int) throws -> [(ByteSlice, ByteSlice)] {
        var reader = ByteReader(bytes, range: offset..<end)
        let count = try reader.count(limit: 1 << 20)
        var pairs: [(ByteSlice, ByteSlice)] = []
        for _ in 0..<count { pairs.append((try reader.slice(), try reader.slice())) }
        return pairs
    }
}
