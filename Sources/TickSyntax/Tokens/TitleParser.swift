import TickModel

/// Turns the bytes of one title line into runs: inline styles from
/// `InlineScanner`, then metadata tokens found in its plain stretches.
///
/// Two outputs share one walk over the pieces: `parse` builds every run (for
/// renderers, the editor and `AttributedString`), and `summarize` keeps only
/// the display title and the tokens, which is all a parse of a whole notes
/// folder needs and allocates far less.
package enum TitleParser {
    package struct Result {
        package var runs: [TitleRun]
        var diagnostics: [(offset: Int, message: String)]
    }

    package struct Summary {
        var title: String
        /// The title's tokens, folded.
        var metadata: ItemMetadata
        var diagnostics: [(offset: Int, message: String)]
        /// The title holds no inline markup (`isPlain`).
        var isPlain: Bool
    }

    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, title: Range<Int>) -> Result {
        var sink = RunSink(bytes: bytes)
        let walked = walk(bytes, title: title, into: &sink)
        return Result(runs: sink.runs, diagnostics: walked.diagnostics)
    }

    /// `isValidUTF8`: the bytes around `title` are valid UTF-8 (the whole
    /// file is), which allows the fast path for titles without markup.
    static func summarize(_ bytes: UnsafeBufferPointer<UInt8>, title: Range<Int>, isValidUTF8: Bool = false) -> Summary {
        if isValidUTF8, !title.isEmpty, let summary = summarizePlain(bytes, title: title) { return summary }
        var sink = SummarySink(bytes: bytes)
        sink.display.reserveCapacity(title.count)
        let walked = walk(bytes, title: title, into: &sink)
        return Summary(
            title: String(decoding: sink.display, as: UTF8.self), metadata: sink.metadata, diagnostics: walked.diagnostics,
            isPlain: walked.isPlain)
    }

    /// `summarize` for a valid UTF-8 title without inline markup (most
    /// titles), or nil as soon as a byte shows that the title is not plain
    /// (`isPlain`): then the caller starts again with the general walk.
    ///
    /// What `walk` and `SummarySink` would do, in one pass over the title:
    /// at each word start a token is tried (as `MetadataScanner.tokens`
    /// does) and folded into the metadata; other words are copied straight
    /// into the string's storage, white space collapsed (`TitleWhiteSpace`'s
    /// rule, written out for speed; pinned equal to it by the tests of the
    /// shortcut against the full walk). The display title
    /// is never longer than the title: every byte written is a byte of the
    /// title, or one space standing for white space skipped before it.
    /// (Valid UTF-8 matters: then every piece between tokens is whole
    /// characters, which `SummarySink.appendRaw` copies unchanged.)
    private static func summarizePlain(_ bytes: UnsafeBufferPointer<UInt8>, title: Range<Int>) -> Summary? {
        var metadata = ItemMetadata()
        var scanner = MetadataScanner(bytes: bytes, title: title)
        var plain = true
        let (low, high) = interestingBytes
        let (stopLow, stopHigh) = stopBytes
        /// False when the byte at `index` makes the title not plain (see `isPlain`).
        func allowed(_ index: Int) -> Bool {
            let byte = bytes[index]
            let interesting = byte < 64 ? (low >> UInt64(byte)) & 1 : byte < 128 ? (high >> UInt64(byte - 64)) & 1 : 0
            return interesting == 0 || isPlainByte(bytes, title, index)
        }
        let end = title.upperBound
        // Written to a temporary buffer (on the stack for most titles), then
        // copied into a string of its exact length: a string built in place
        // would keep the title's length as its capacity, megabytes over a
        // folder of titles whose tokens are left out.
        let display = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: title.count) { out -> String in
            var count = 0
            var pendingSpace = false
            var index = title.lowerBound
            var wordStart = true // at the title's start or after a space or tab
            while index < end {
                let byte = bytes[index]
                if byte == 0x20 || byte == 0x09 {
                    pendingSpace = count != 0
                    wordStart = true
                    index += 1
                    continue
                }
                if byte == 0x0A || byte == 0x0D { // white space for the display title, not for tokens
                    pendingSpace = count != 0
                    wordStart = false
                    index += 1
                    continue
                }
                if wordStart, MetadataScanner.mayStartToken(bytes, at: index, limit: end),
                    let token = scanner.token(at: index, limit: end)
                {
                    for position in token.range where !allowed(position) {
                        plain = false
                        return ""
                    }
                    metadata.add(token)
                    index = token.range.upperBound
                    wordStart = index == title.lowerBound || bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09
                    continue
                }
                // A word that is not a token: measured up to the next white
                // space (one test per byte against `stopBytes`), then copied.
                var wordEnd = index
                while wordEnd < end {
                    let byte = bytes[wordEnd]
                    let stop = byte < 64 ? (stopLow &>> UInt64(byte)) & 1 : byte < 128 ? (stopHigh &>> UInt64(byte &- 64)) & 1 : 0
                    if stop != 0 {
                        if TitleWhiteSpace.contains(byte) { break }
                        // Any other stop byte is one of `interestingBytes`.
                        guard isPlainByte(bytes, title, wordEnd) else {
                            plain = false
                            return ""
                        }
                    }
                    wordEnd += 1
                }
                if pendingSpace {
                    out[count] = 0x20
                    count += 1
                    pendingSpace = false
                }
                (out.baseAddress! + count).update(from: bytes.baseAddress! + index, count: wordEnd - index)
                count += wordEnd - index
                index = wordEnd
                wordStart = false
            }
            return String(decoding: UnsafeBufferPointer(rebasing: out[..<count]), as: UTF8.self)
        }
        guard plain else { return nil }
        return Summary(title: display, metadata: metadata, diagnostics: scanner.diagnostics, isPlain: true)
    }

    /// Receives a title's content in order: styled pieces, plain text, tokens.
    protocol Sink {
        /// Content with styles or decoded text (`text` nil means the raw bytes).
        mutating func content(_ range: Range<Int>, text: String?, styles: InlineStyles, url: String?)
        /// Unstyled literal text, exactly the bytes of `range`.
        mutating func plain(_ range: Range<Int>)
        mutating func token(_ token: MetadataToken)
    }

    /// Walks the pieces of the title, splitting plain stretches around
    /// tokens; the tokens' diagnostics, and whether the title is plain
    /// (`isPlain`, which decides how it is walked).
    private static func walk<S: Sink>(
        _ bytes: UnsafeBufferPointer<UInt8>, title: Range<Int>, into sink: inout S
    ) -> (diagnostics: [(offset: Int, message: String)], isPlain: Bool) {
        guard !title.isEmpty else { return ([], true) }
        var metadata = MetadataScanner(bytes: bytes, title: title)

        func emitPlain(_ segment: Range<Int>) {
            var cursor = segment.lowerBound
            for token in metadata.tokens(in: segment) {
                if token.range.lowerBound > cursor { sink.plain(cursor..<token.range.lowerBound) }
                sink.token(token)
                cursor = token.range.upperBound
            }
            if segment.upperBound > cursor { sink.plain(cursor..<segment.upperBound) }
        }

        // Most titles hold no inline markup at all: then the scanner would
        // find one stretch of plain text, so skip it.
        if isPlain(bytes, title) {
            emitPlain(title)
            return (metadata.diagnostics, true)
        }
        var inline = InlineScanner(bytes: bytes, range: title)
        let pieces = inline.scan()

        var plainStart: Int? = nil
        var plainEnd = 0
        for piece in pieces {
            if piece.kind == .markup || piece.range.isEmpty {
                if let start = plainStart {
                    emitPlain(start..<plainEnd)
                    plainStart = nil
                }
                continue
            }
            let isLiteral = piece.kind == .text || piece.kind == .delimiter || piece.kind == .bracket
            if isLiteral && piece.styles.isEmpty {
                if plainStart != nil && plainEnd == piece.range.lowerBound {
                    plainEnd = piece.range.upperBound
                } else {
                    if let start = plainStart { emitPlain(start..<plainEnd) }
                    plainStart = piece.range.lowerBound
                    plainEnd = piece.range.upperBound
                }
                continue
            }
            if let start = plainStart {
                emitPlain(start..<plainEnd)
                plainStart = nil
            }
            sink.content(piece.range, text: piece.text, styles: piece.styles, url: piece.url)
        }
        if let start = plainStart { emitPlain(start..<plainEnd) }
        return (metadata.diagnostics, false)
    }

    /// Bytes that can start inline markup (escapes, code, autolinks, HTML,
    /// entities, emphasis, strikethrough, links and images).
    private static let markupBytes: [Bool] = (0..<256).map { byte in
        "\\`<&*_~[]".utf8.contains(UInt8(byte))
    }

    /// The ASCII bytes `isPlain` must look at (the markup bytes, and `/` and
    /// `.` of bare URLs) as a 128-bit set: one shift and test per byte, where
    /// a lookup in `markupBytes` costs a global's initialisation check and a
    /// bounds check on every byte of every title.
    private static let interestingBytes: (low: UInt64, high: UInt64) = {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for byte in "\\`<&*_~[]/.".utf8 {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
        return (low, high)
    }()

    /// `interestingBytes` and the white space that ends a word: where
    /// `summarizePlain` stops while measuring a word.
    private static let stopBytes: (low: UInt64, high: UInt64) = {
        var (low, high) = interestingBytes
        for byte in TitleWhiteSpace.bytes { low |= 1 << UInt64(byte) }
        return (low, high)
    }()

    /// True when the title holds nothing the inline scanner would treat as
    /// markup, so that all of it is one stretch of plain text.
    package static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>, _ title: Range<Int>) -> Bool {
        let (low, high) = interestingBytes
        for index in title {
            let byte = bytes[index]
            let interesting = byte < 64 ? (low >> UInt64(byte)) & 1 : byte < 128 ? (high >> UInt64(byte - 64)) & 1 : 0
            if interesting != 0, !isPlainByte(bytes, title, index) { return false }
        }
        return true
    }

    /// `isPlain`'s test of one of the `interestingBytes`.
    private static func isPlainByte(_ bytes: UnsafeBufferPointer<UInt8>, _ title: Range<Int>, _ index: Int) -> Bool {
        let byte = bytes[index]
        if markupBytes[Int(byte)] { return false }
        // Bare URLs: `://` and `www.`.
        let previous = index > title.lowerBound ? bytes[index - 1] : 0
        if byte == UInt8(ascii: "/"), previous == UInt8(ascii: ":") { return false }
        if byte == UInt8(ascii: "."), previous == UInt8(ascii: "w"), index >= title.lowerBound + 3,
            bytes[index - 2] == UInt8(ascii: "w"), bytes[index - 3] == UInt8(ascii: "w")
        {
            return false
        }
        return true
    }

    /// Builds runs, merging byte-adjacent content with the same attributes.
    private struct RunSink: Sink {
        let bytes: UnsafeBufferPointer<UInt8>
        var runs: [TitleRun] = []

        mutating func content(_ range: Range<Int>, text: String?, styles: InlineStyles, url: String?) {
            let text = text ?? String(decoding: bytes[range], as: UTF8.self)
            if var last = runs.last, last.token == nil, last.range.upperBound == range.lowerBound,
                last.styles == styles, last.url == url
            {
                last.text += text
                last.range = last.range.lowerBound..<range.upperBound
                runs[runs.count - 1] = last
            } else {
                runs.append(TitleRun(text: text, range: range, styles: styles, url: url))
            }
        }

        mutating func plain(_ range: Range<Int>) { content(range, text: nil, styles: [], url: nil) }

        mutating func token(_ token: MetadataToken) {
            runs.append(TitleRun(text: String(decoding: bytes[token.range], as: UTF8.self), range: token.range, token: token))
        }
    }

    /// Keeps the display title's bytes (white space collapsed by
    /// `TitleWhiteSpace`) and the tokens.
    private struct SummarySink: Sink {
        let bytes: UnsafeBufferPointer<UInt8>
        var display: [UInt8] = []
        var metadata = ItemMetadata()
        var collapser = TitleWhiteSpace.Collapser()

        private mutating func append<C: Collection>(_ text: C) where C.Element == UInt8 {
            for byte in text {
                switch collapser.take(byte) {
                case .skip: break
                case .keep: display.append(byte)
                case .spaceThenKeep:
                    display.append(0x20)
                    display.append(byte)
                }
            }
        }

        mutating func content(_ range: Range<Int>, text: String?, styles: InlineStyles, url: String?) {
            if let text { append(text.utf8) } else { appendRaw(range) }
        }

        mutating func plain(_ range: Range<Int>) { appendRaw(range) }

        /// The bytes of `range` as the runs read them: decoded on their own,
        /// so that in a file that is not UTF-8 the halves of a broken
        /// sequence on either side of markup (`~\xC3~\xA9`) stay two U+FFFD
        /// instead of joining into one character. Valid pieces are copied.
        private mutating func appendRaw(_ range: Range<Int>) {
            if Self.isWholeUTF8(bytes, range) { append(bytes[range]) } else { append(String(decoding: bytes[range], as: UTF8.self).utf8) }
        }

        /// True when `range` starts at a character and ends after a whole
        /// one, as every piece of a valid UTF-8 title does (cheap: looks at
        /// the ends only).
        static func isWholeUTF8(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
            guard let first = range.first else { return true }
            if bytes[first] & 0xC0 == 0x80 { return false }
            var lead = range.upperBound - 1
            while lead > range.lowerBound, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
            let byte = bytes[lead]
            let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 0
            // A piece that ends after a complete sequence leaves a UTF-8
            // decoder at rest, so decoding it alone or joined gives the same.
            return length == range.upperBound - lead
        }

        mutating func token(_ token: MetadataToken) { metadata.add(token) }
    }
}

extension TaskItem {
    /// The title's runs, in order, metadata tokens included.
    ///
    /// Computed on each call from the title's own bytes (`text`): a title's
    /// runs depend on nothing outside it, so the ranges, shifted by the
    /// title's offset, are the file's. A whole-folder parse needs only the
    /// title and metadata, and items read from the cache have no file bytes.
    /// (For a title that is not valid UTF-8, its own bytes are kept for this.)
    public var runs: [TitleRun] {
        let bytes = invalidTitleBytes ?? Array(text.utf8)
        let base = titleRange.lowerBound
        var runs = bytes.withUnsafeBufferPointer { TitleParser.parse($0, title: 0..<bytes.count).runs }
        guard base != 0 else { return runs }
        func shift(_ range: Range<Int>) -> Range<Int> { range.lowerBound + base..<range.upperBound + base }
        for index in runs.indices {
            runs[index].range = shift(runs[index].range)
            if var token = runs[index].token {
                token.range = shift(token.range)
                token.valueRange = shift(token.valueRange)
                runs[index].token = token
            }
        }
        return runs
    }
}
