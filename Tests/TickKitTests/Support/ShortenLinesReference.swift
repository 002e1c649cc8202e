import Foundation

@testable import TickModel
@testable import TickSyntax

// The two-step version of the rules of `CmarkInput.shortCopy` (on the
// full-length, neutralised copy), kept as the reference the one-pass copy
// is checked against.
extension CmarkInput {
    static func shortenLines(_ bytes: [UInt8], lines source: SourceText) -> (bytes: [UInt8], lineStarts: [Int]) {
        let count = bytes.count
        let lineCount = source.lineCount
        var starts = [Int](repeating: 0, count: lineCount)
        let short = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress, let outBase = out.baseAddress else {
                    initialized = 0
                    return
                }
                source.lineStarts.withUnsafeBufferPointer { lineStarts in
                    var written = 0
                    var wholeUntilLine = 0 // lines before this one are kept whole (a `]:` stretch)
                    var bracketCheckedUntil = 0 // stretches looked at for `]:` end before this line
                    for line in 0..<lineCount {
                        let start = lineStarts[line]
                        let next = line + 1 < lineCount ? lineStarts[line + 1] : count
                        var end = next // the end of the content, before the line ending
                        if end > start, buffer[end - 1] == 0x0A { end -= 1 }
                        if end > start, buffer[end - 1] == 0x0D { end -= 1 }

                        var keep = end // how much of the content cmark-gfm gets
                        var index = start
                        if line == 0, count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { index = 3 }
                        var sawBracket = false
                        var sawAngle = false
                        var firstBracket = 0
                        var run: UInt8 = 0
                        var runLength = 0
                        var sawFence = false
                        while index < end {
                            let byte = buffer[index]
                            if byte >= 0x80 || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) { break }
                            if byte == UInt8(ascii: "["), !sawBracket {
                                sawBracket = true
                                firstBracket = index
                            }
                            if byte == UInt8(ascii: "<") { sawAngle = true }
                            if byte == UInt8(ascii: "`") || byte == UInt8(ascii: "~") {
                                runLength = byte == run ? runLength + 1 : 1
                                run = byte
                                if runLength >= 3 { sawFence = true }
                            } else {
                                runLength = 0
                            }
                            index += 1
                        }
                        if sawBracket, line >= bracketCheckedUntil {
                            // The stretch up to the next blank line: kept whole if it holds `]:`.
                            var blank = line + 1
                            while blank < lineCount, !isBlank(buffer, lineStarts[blank], blank + 1 < lineCount ? lineStarts[blank + 1] : count) {
                                blank += 1
                            }
                            bracketCheckedUntil = blank
                            if containsBracketColon(base, start, blank < lineCount ? lineStarts[blank] : count) {
                                wholeUntilLine = blank
                            }
                        }
                        var bracketToLetter = false
                        if (index < end || sawBracket) && !sawAngle && !sawFence && line >= wholeUntilLine {
                            // The first `[` (its stretch holds no `]:`, so it can only open
                            // inlines: it becomes a letter), else the first letter, or the
                            // whole UTF-8 sequence of a non-ASCII character.
                            let cut: Int
                            if sawBracket {
                                cut = firstBracket + 1
                            } else {
                                let lead = buffer[index]
                                cut = min(end, index + (lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2))
                            }
                            let rest = end - cut
                            if rest <= 0
                                || (memchr(base + cut, Int32(UInt8(ascii: "|")), rest) == nil
                                    && memchr(base + cut, Int32(UInt8(ascii: ">")), rest) == nil)
                            {
                                keep = cut
                                bracketToLetter = sawBracket
                            }
                        }
                        starts[line] = written
                        memcpy(outBase + written, base + start, keep - start)
                        if bracketToLetter { outBase[written + firstBracket - start] = UInt8(ascii: "a") }
                        written += keep - start
                        memcpy(outBase + written, base + end, next - end)
                        written += next - end
                    }
                    initialized = written
                }
            }
        }
        return (short, starts)
    }
}
