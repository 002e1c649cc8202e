/// Turns the bytes of one title line into runs: inline styles from
/// `InlineScanner`, then metadata tokens found in its plain stretches.
struct TitleParser {
    struct Result {
        var runs: [TitleRun]
        var diagnostics: [(offset: Int, message: String)]
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, title: Range<Int>) -> Result {
        guard !title.isEmpty else { return Result(runs: [], diagnostics: []) }
        var inline = InlineScanner(bytes: bytes, range: title)
        let pieces = inline.scan()
        var metadata = MetadataScanner(bytes: bytes, title: title)
        var runs: [TitleRun] = []
        runs.reserveCapacity(pieces.count)

        func text(of piece: InlineScanner.Piece) -> String {
            piece.text ?? String(decoding: bytes[piece.range], as: UTF8.self)
        }
        /// Adds content, merging with the previous run when it is byte-adjacent
        /// and has the same attributes.
        func append(_ text: String, _ range: Range<Int>, _ styles: InlineStyles, _ url: String?) {
            if var last = runs.last, last.token == nil, last.range.upperBound == range.lowerBound,
               last.styles == styles, last.url == url {
                last.text += text
                last.range = last.range.lowerBound..<range.upperBound
                runs[runs.count - 1] = last
            } else {
                runs.append(TitleRun(text: text, range: range, styles: styles, url: url))
            }
        }
        /// A stretch of unstyled literal text: split around its tokens.
        func appendPlain(_ segment: Range<Int>) {
            var cursor = segment.lowerBound
            for token in metadata.tokens(in: segment) {
                if token.range.lowerBound > cursor {
                    append(String(decoding: bytes[cursor..<token.range.lowerBound], as: UTF8.self),
                           cursor..<token.range.lowerBound, [], nil)
                }
                runs.append(TitleRun(text: String(decoding: bytes[token.range], as: UTF8.self), range: token.range, token: token))
                cursor = token.range.upperBound
            }
            if segment.upperBound > cursor {
                append(String(decoding: bytes[cursor..<segment.upperBound], as: UTF8.self), cursor..<segment.upperBound, [], nil)
            }
        }

        var plainStart: Int? = nil
        var plainEnd = 0
        func flushPlain() {
            if let start = plainStart { appendPlain(start..<plainEnd) }
            plainStart = nil
        }
        for piece in pieces {
            let isLiteral = piece.kind == .text || piece.kind == .delimiter || piece.kind == .bracket
            if piece.kind == .markup || piece.range.isEmpty { flushPlain(); continue }
            if isLiteral && piece.styles.isEmpty {
                if plainStart != nil && plainEnd == piece.range.lowerBound {
                    plainEnd = piece.range.upperBound
                } else {
                    flushPlain()
                    plainStart = piece.range.lowerBound
                    plainEnd = piece.range.upperBound
                }
                continue
            }
            flushPlain()
            append(text(of: piece), piece.range, piece.styles, piece.url)
        }
        flushPlain()
        return Result(runs: runs, diagnostics: metadata.diagnostics)
    }
}
