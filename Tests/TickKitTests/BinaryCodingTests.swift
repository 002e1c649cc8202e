import Testing

@testable import TickRecords

/// The cache's byte coding reads back what it wrote, and refuses a length
/// longer than the bytes that follow it.
@Suite struct BinaryCodingTests {
    func read<T>(_ bytes: [UInt8], _ body: (inout ByteReader) throws -> T) throws -> T {
        try bytes.withUnsafeBufferPointer { buffer in
            var reader = ByteReader(buffer, range: 0..<buffer.count)
            return try body(&reader)
        }
    }

    @Test func byteArraysReadBackWhatWasWritten() throws {
        var writer = ByteWriter()
        writer.byteArray([1, 2, 3])
        writer.byteArray([])
        writer.int(7)
        #expect(try read(writer.bytes) { [try $0.byteArray(), try $0.byteArray(), [UInt8(try $0.int())]] } == [[1, 2, 3], [], [7]])
    }

    @Test func aByteArrayLongerThanTheBytesLeftIsDamaged() throws {
        // A length of 5 (zigzag: 0x0A) with one byte after it: the check
        // must count from after the length, not before it.
        #expect(throws: (any Error).self) { try read([0x0A, 0xAA]) { try $0.byteArray() } }
        #expect(throws: (any Error).self) { try read([0x06, 0x01, 0x02]) { try $0.byteArray() } }
        #expect(try read([0x04, 0x01, 0x02]) { try $0.byteArray() } == [1, 2])
    }

    @Test("an item record's flags keep each of their bits for one thing: status, priority, extras, markup")
    func recordFlagBitsDoNotOverlap() {
        let extraBits = ItemRecordLayout.Extra.allCases.map(\.bit)
        #expect(extraBits.min()! > 1 << 16, "above the status byte, the priority byte and has-priority")
        #expect(Set(extraBits).count == extraBits.count)
        #expect(extraBits.allSatisfy { $0 & ItemRecordLayout.markupBit == 0 })
        #expect(extraBits.max()! < ItemRecordLayout.markupBit)
    }
}
