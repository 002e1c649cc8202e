import Testing

@testable import TickModel

/// The byte writer the JSON, iCalendar and CSV writers append to.
@Suite("Byte output")
struct ByteOutputTests {
    @Test("a literal is appended as its UTF-8 bytes, past the buffer's first capacity")
    func literalsAreAppendedAsTheirBytes() {
        var output = ByteOutput(capacity: 64)
        var expected = ""
        for _ in 0..<40 {
            output.append("BEGIN:VTODO\r\n")
            output.append("é")
            expected += "BEGIN:VTODO\r\né"
        }
        let storage = output.release()
        defer { storage.deallocate() }
        #expect(String(decoding: storage.written, as: UTF8.self) == expected)
    }
}
