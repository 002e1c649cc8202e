import TickModel

/// How an LSP `Position.character` counts: UTF-8 bytes or UTF-16 code
/// units (LSP 3.17 `PositionEncodingKind`). UTF-16 is the protocol's
/// default; `utf-8` is used when the client offers it, since it is how tick
/// counts.
enum PositionEncoding: String {
    case utf8 = "utf-8"
    case utf16 = "utf-16"

    /// The encoding to use given the client's `general.positionEncodings`.
    static func negotiate(_ offered: [String]?) -> PositionEncoding {
        offered?.contains(PositionEncoding.utf8.rawValue) == true ? .utf8 : .utf16
    }
}

/// A zero-based LSP position: a line and a character offset on it.
struct LSPPosition: Equatable {
    var line: Int
    var character: Int

    var json: JSONValue { .object([("line", .int(line)), ("character", .int(character))]) }

    init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    /// A `Position` object; nil when it is not one.
    init?(_ value: JSONValue?) {
        guard let line = value?["line"]?.intValue, let character = value?["character"]?.intValue else { return nil }
        self.init(line: line, character: character)
    }
}

/// Converts between byte offsets into a text (tick's ranges) and LSP
/// positions in one encoding, exactly: lines end at LF, CRLF or a lone CR
/// (as in both CommonMark and LSP), and a character offset past a line's
/// end, or inside a UTF-16 surrogate pair, is clamped as LSP asks.
struct PositionConverter {
    let source: SourceText
    let encoding: PositionEncoding

    /// True when the text ends with a line ending: LSP then has one more,
    /// empty, line after it.
    private var endsWithLineEnding: Bool {
        guard let last = source.bytes.last else { return false }
        return last == 0x0A || last == 0x0D
    }

    /// The position of byte `offset` (clamped to the text).
    func position(of offset: Int) -> LSPPosition {
        let bytes = source.bytes
        let offset = min(max(offset, 0), bytes.count)
        if offset == bytes.count && endsWithLineEnding { return LSPPosition(line: source.lineCount, character: 0) }
        let line = source.line(containing: offset)
        let content = source.range(ofLine: line)
        let end = min(offset, content.upperBound)
        return LSPPosition(line: line - 1, character: units(content.lowerBound..<end))
    }

    /// The byte offset of `position`: a line past the end is the end of the
    /// text, a character past the line's end is the line's end.
    func offset(of position: LSPPosition) -> Int {
        let bytes = source.bytes
        guard position.line >= 0 else { return 0 }
        guard position.line < source.lineCount else { return bytes.count }
        let content = source.range(ofLine: position.line + 1)
        var remaining = max(position.character, 0)
        var index = content.lowerBound
        while index < content.upperBound, remaining > 0 {
            let width = Self.scalarWidth(bytes[index])
            let units = encoding == .utf8 ? width : (width == 4 ? 2 : 1)
            if units > remaining { break }
            remaining -= units
            index = min(index + width, content.upperBound)
        }
        return index
    }

    /// The number of `encoding` units in `range` of the bytes.
    func units(_ range: Range<Int>) -> Int {
        if encoding == .utf8 { return range.count }
        var count = 0
        for index in range {
            let byte = source.bytes[index]
            if byte & 0xC0 == 0x80 { continue } // continuation byte
            count += byte >= 0xF0 ? 2 : 1 // 4-byte sequences are surrogate pairs
        }
        return count
    }

    /// The length of the UTF-8 sequence a byte starts (1 for a stray byte).
    private static func scalarWidth(_ byte: UInt8) -> Int {
        switch byte {
        case 0xF0...0xF7: 4
        case 0xE0...0xEF: 3
        case 0xC2...0xDF: 2
        default: 1
        }
    }

    /// A `Range` object for a byte range.
    func range(_ range: Range<Int>) -> JSONValue {
        .object([("start", position(of: range.lowerBound).json), ("end", position(of: range.upperBound).json)])
    }
}
