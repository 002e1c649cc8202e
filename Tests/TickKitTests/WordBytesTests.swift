import Testing

@testable import TickModel
@testable import TickSystem

/// `WordBytes`: each test of eight bytes at once says "some byte passes"
/// exactly when one does, byte by byte; and `ByteOutput.appendHex`
/// writes what `String(_:radix:)` does.
@Suite struct WordBytesTests {
    /// Words whose bytes are the values each test turns on (and their
    /// neighbours), at every place, and pseudo-random words.
    static let words: [UInt64] = {
        let edges: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x2C, 0x3B, 0x5C, 0x7E, 0x7F, 0x80, 0xC2, 0xFF]
        var words: [UInt64] = []
        for edge in edges {
            for place in 0..<8 {
                for filler: UInt8 in [0x41, 0x00, 0xFF, 0x01] {
                    var bytes = [UInt8](repeating: filler, count: 8)
                    bytes[place] = edge
                    words.append(bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) })
                }
            }
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            words.append(state)
        }
        return words
    }()

    static func bytes(of word: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64(8 * $0)) } }

    @Test func eachTestIsNonzeroExactlyWhenSomeBytePassesIt() {
        for word in Self.words {
            let bytes = Self.bytes(of: word)
            #expect((WordBytes.zero(word) != 0) == bytes.contains(0), "zero, \(word)")
            #expect((WordBytes.highBit(word) != 0) == bytes.contains { $0 >= 0x80 }, "highBit, \(word)")
            for value: UInt8 in [0x00, 0x22, 0x2C, 0x3B, 0x5C, 0x7F, 0xC2] {
                #expect((WordBytes.equal(value, word) != 0) == bytes.contains(value), "equal \(value), \(word)")
            }
            for limit: UInt8 in [0x01, 0x20, 0x21, 0x80] {
                #expect((WordBytes.below(limit, word) != 0) == bytes.contains { $0 < limit }, "below \(limit), \(word)")
            }
            for limit: UInt8 in [0x00, 0x20, 0x7E, 0x7F] {
                #expect((WordBytes.above(limit, word) != 0) == bytes.contains { $0 > limit }, "above \(limit), \(word)")
            }
        }
    }

    @Test(arguments: [(0 as UInt64, 2), (0x0A, 2), (0x1F, 2), (0xFF, 2), (0xDEAD_BEEF, 16), (UInt64.max, 16), (0x0123_4567_89AB_CDEF, 16)])
    func hexDigitsAreStringsRadix16ZeroPadded(value: UInt64, digits: Int) {
        var output = ByteOutput()
        output.appendHex(value, digits: digits)
        let hex = String(value, radix: 16)
        #expect(String(decoding: output.bytes, as: UTF8.self) == String(repeating: "0", count: digits - hex.count) + hex)
    }

    @Test("text is printable ASCII exactly when each of its bytes is 0x20 to 0x7E, at every length and offset")
    func printableASCIIIsEveryByteFrom0x20To0x7E() {
        let bytes = Self.words.prefix(600).flatMap(Self.bytes(of:))
        bytes.withUnsafeBufferPointer { all in
            for start in stride(from: 0, to: 400, by: 7) {
                for length in 0...33 {
                    let text = UnsafeBufferPointer(rebasing: all[start..<start + length])
                    #expect(ByteText.isPrintableASCII(text) == text.allSatisfy { $0 >= 0x20 && $0 <= 0x7E })
                }
            }
        }
        // Printable runs long enough to take the eight-byte path, with one byte changed at each place.
        for length in [8, 9, 16, 23] {
            for place in 0..<length {
                for byte: UInt8 in [0x1F, 0x20, 0x7E, 0x7F, 0x80, 0xFF, 0x41] {
                    var text = [UInt8](repeating: 0x61, count: length)
                    text[place] = byte
                    #expect(text.withUnsafeBufferPointer(ByteText.isPrintableASCII) == (byte >= 0x20 && byte <= 0x7E))
                }
            }
        }
    }

    @Test("a number in decimal is what String(_:) writes: zero, every power of ten and its neighbours, the extremes, 2,000 words")
    func decimalNumbersAreStrings() {
        var values = [0, 1, -1, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var power = 1
        while power <= Int.max / 10 {
            power *= 10
            values += [power - 1, power, power + 1, -(power - 1), -power]
        }
        values += Self.words.prefix(2_000).map { Int(truncatingIfNeeded: $0) }
        values += Self.words.prefix(2_000).map { Int(truncatingIfNeeded: $0 >> ($0 % 64)) }
        for value in values {
            var output = ByteOutput(capacity: 64)
            output.append(UInt8(ascii: "<"))
            output.appendDecimal(value)
            output.append(UInt8(ascii: ">"))
            #expect(String(decoding: output.bytes, as: UTF8.self) == "<\(value)>")
        }
    }

    @Test("every count of hex digits of every word is the low digits of String(_:radix:), after what was written before")
    func hexDigitsOfEveryCountAreTheLowDigitsOfStringRadix16() {
        for word in Self.words.prefix(2_000) {
            let full = String(repeating: "0", count: 16 - String(word, radix: 16).count) + String(word, radix: 16)
            for digits in 1...16 {
                var output = ByteOutput(capacity: 64)
                output.append(UInt8(ascii: "<"))
                output.appendHex(word, digits: digits)
                output.append(UInt8(ascii: ">"))
                #expect(String(decoding: output.bytes, as: UTF8.self) == "<" + full.suffix(digits) + ">", "\(word), \(digits) digits")
            }
        }
    }
}
