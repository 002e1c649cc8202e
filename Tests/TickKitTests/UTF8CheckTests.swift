import Testing

@testable import TickModel

/// `UTF8Check.scan` skips 32 and 8 ASCII bytes at a time; it must find the
/// same bytes as a check of every byte, wherever they lie in a stride.
@Suite("UTF-8 check")
struct UTF8CheckTests {
    /// The reference: every byte looked at alone.
    func slowScan(_ bytes: [UInt8]) -> (Int?, [UInt8]?) {
        var copy = bytes
        var first: Int? = nil
        var changed = false
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0 {
                copy[index] = 0x3F
                changed = true
                index += 1
                continue
            }
            if bytes[index] < 0x80 {
                index += 1
                continue
            }
            let length = UTF8Check.sequenceLength(bytes, at: index)
            if length == 0 {
                copy[index] = 0x3F
                changed = true
                if first == nil { first = index }
                index += 1
            } else {
                index += length
            }
        }
        return (first, changed ? copy : nil)
    }

    @Test("NUL, invalid and multibyte bytes at every offset of the strides")
    func everyOffset() {
        let specials: [[UInt8]] = [[0], [0x01], [0x80], [0xC3, 0xA9], [0xE2, 0x9C, 0x85], [0xF0, 0x9F, 0x93, 0x85], [0xFF], [0xC3], [0x00, 0x01]]
        for length in [31, 32, 33, 40, 64, 70] {
            for offset in 0..<length {
                for special in specials {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes.replaceSubrange(offset..<min(length, offset + special.count), with: special.prefix(length - offset))
                    let fast = UTF8Check.scan(bytes)
                    let slow = slowScan(bytes)
                    #expect(fast.firstInvalidOffset == slow.0 && fast.sanitized == slow.1, "\(length) \(offset) \(special)")
                }
            }
        }
    }
}
