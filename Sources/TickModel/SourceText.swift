import TickSystem

/// The bytes of one file and the table of where its lines start.
///
/// Lines end at LF, CRLF or a lone CR, exactly as CommonMark counts them, so
/// the line numbers here agree with cmark-gfm's. Line numbers are 1-based;
/// every range is a half-open range of byte offsets into `bytes`.
public struct SourceText: Sendable {
    /// The file's bytes, untouched: a byte-order mark, CRLF endings and
    /// invalid UTF-8 all stay as they are.
    public let bytes: [UInt8]
    /// `lineStarts[n - 1]` is the offset of the first byte of line `n`.
    public let lineStarts: [Int]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        starts.reserveCapacity(bytes.count / 32 + 1)
        var index = 0
        let count = bytes.count
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // Most files have no CR at all: then libc's memchr (vectorised)
            // finds the LFs, several times faster than a loop over every byte.
            if Posix.findByte(0x0D, base, count) == nil {
                while index < count, let found = Posix.findByte(0x0A, base + index, count - index) {
                    index = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
                    starts.append(index)
                }
                return
            }
            while index < count {
                let byte = buffer[index]
                if byte == 0x0A {
                    starts.append(index + 1)
                } else if byte == 0x0D {
                    if index + 1 < count, buffer[index + 1] == 0x0A { index += 1 }
                    starts.append(index + 1)
                }
                index += 1
            }
        }
        // A final line ending does not open an empty last line.
        if starts.count > 1, starts.last == count { starts.removeLast() }
        self.lineStarts = starts
    }

    /// The number of lines (an empty file has one, empty, line).
    public var lineCount: Int { lineStarts.count }

    /// The bytes of line `line` including its line ending.
    public func rangeWithEnding(ofLine line: Int) -> Range<Int> {
        let start = lineStarts[line - 1]
        let end = line < lineStarts.count ? lineStarts[line] : bytes.count
        return start..<end
    }

    /// The bytes of line `line` without its line ending.
    public func range(ofLine line: Int) -> Range<Int> {
        let full = rangeWithEnding(ofLine: line)
        var end = full.upperBound
        if end > full.lowerBound, bytes[end - 1] == 0x0A { end -= 1 }
        if end > full.lowerBound, bytes[end - 1] == 0x0D { end -= 1 }
        return full.lowerBound..<end
    }

    /// The line ending bytes of line `line` ("", "\n", "\r\n" or "\r").
    public func ending(ofLine line: Int) -> ArraySlice<UInt8> {
        bytes[range(ofLine: line).upperBound..<rangeWithEnding(ofLine: line).upperBound]
    }

    /// The 1-based line that holds byte `offset`.
    public func line(containing offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low + 1
    }

    /// The 1-based byte column of `offset` on its line.
    public func column(of offset: Int) -> Int {
        offset - lineStarts[line(containing: offset) - 1] + 1
    }

    /// True when line `line` holds nothing but spaces and tabs.
    public func isBlank(line: Int) -> Bool {
        range(ofLine: line).allSatisfy { bytes[$0] == 0x20 || bytes[$0] == 0x09 }
    }

    /// The text of `range`, with invalid UTF-8 shown as U+FFFD.
    public func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// The file's dominant line ending: CRLF when its first line ends so, else LF.
    public var lineEnding: String {
        for line in 1...lineCount {
            let ending = self.ending(ofLine: line)
            if !ending.isEmpty { return String(decoding: ending, as: UTF8.self) }
        }
        return "\n"
    }

    /// True when the file has at least one line ending.
    public var hasLineEnding: Bool { lineCount > 1 || !ending(ofLine: 1).isEmpty }

    /// True when the file starts with a UTF-8 byte-order mark.
    public var hasByteOrderMark: Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }
}

package enum UTF8Check {
    /// One pass over the bytes: where the first invalid UTF-8 sequence is (nil
    /// when the file is valid), and, when the file holds NUL bytes or invalid
    /// sequences, a copy of the same length in which each of their bytes is
    /// replaced by `?`.
    ///
    /// cmark-gfm replaces such bytes with the 3-byte U+FFFD, which would shift
    /// every column after them; a copy of equal length keeps its positions
    /// equal to the file's own offsets.
    package static func scan(_ bytes: [UInt8]) -> (firstInvalidOffset: Int?, sanitized: [UInt8]?) {
        var copy: [UInt8]? = nil
        var firstInvalid: Int? = nil
        var index = 0
        let count = bytes.count
        bytes.withUnsafeBufferPointer { buffer in
            while index < count {
                // 32 ASCII bytes without NUL at a time (most of a file): one
                // test of the four words' high bits and zero bytes together,
                // about half the instructions per byte of 8 at a time.
                while index + 32 <= count {
                    let base = UnsafeRawPointer(buffer.baseAddress! + index)
                    let a = base.loadUnaligned(as: UInt64.self)
                    let b = base.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    let c = base.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
                    let d = base.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                    // A flagged word is decided byte by byte below.
                    let zeros = WordBytes.zero(a) | WordBytes.zero(b) | WordBytes.zero(c) | WordBytes.zero(d)
                    if zeros | WordBytes.highBit(a | b | c | d) != 0 { break }
                    index += 32
                }
                if index == count { break }
                // Eight ASCII bytes without NUL at a time.
                if index + 8 <= count {
                    let word = UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: UInt64.self)
                    if WordBytes.highBit(word) | WordBytes.zero(word) == 0 {
                        index += 8
                        continue
                    }
                }
                let byte = buffer[index]
                if byte < 0x80 {
                    if byte == 0 {
                        if copy == nil { copy = bytes }
                        copy![index] = 0x3F
                    }
                    index += 1
                    continue
                }
                let length = sequenceLength(bytes, at: index)
                if length == 0 {
                    if copy == nil { copy = bytes }
                    if firstInvalid == nil { firstInvalid = index }
                    copy![index] = 0x3F
                    index += 1
                } else {
                    index += length
                }
            }
        }
        return (firstInvalid, copy)
    }

    /// True when `bytes` is valid UTF-8 (NUL bytes allowed).
    package static func isValid(_ bytes: [UInt8]) -> Bool { scan(bytes).firstInvalidOffset == nil }

    /// The length of the valid UTF-8 sequence starting at `index`, or 0.
    package static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        var minSecond: UInt8 = 0x80
        var maxSecond: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            minSecond = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            maxSecond = 0x9F
        case 0xF0:
            length = 4
            minSecond = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            maxSecond = 0x8F
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        let second = bytes[index + 1]
        guard second >= minSecond, second <= maxSecond else { return 0 }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return 0 }
        return length
    }
}
