import TickModel

/// Finds the inline structure of one title line by scanning its own bytes.
///
/// Why by hand: cmark-gfm's inline source positions are unreliable (shifted
/// columns inside task items, code spans without their backticks, inverted
/// strikethrough ranges; see DESIGN.md), and runs must carry exact byte
/// ranges. This follows CommonMark's algorithms for the inlines a title line
/// can hold: backslash escapes, entities, code spans, emphasis and strong
/// (the delimiter-run rules, including the rule of three), GFM
/// strikethrough, inline links and images, autolinks, GFM bare URLs, and raw
/// HTML. Every loop is bounded so that a 10 MB line stays linear.
struct InlineScanner {
    enum PieceKind: Equatable {
        case text, escape, entity, code, autolink, html, markup, delimiter, bracket
    }

    /// A slice of the title: content that becomes (part of) a run, or markup.
    struct Piece {
        var kind: PieceKind
        /// For content, the bytes the run covers; for a delimiter, its bytes
        /// still unmatched (which read as literal text).
        var range: Range<Int>
        var text: String? = nil
        var url: String? = nil
        var styles: InlineStyles = []
    }

    private struct Delimiter {
        var piece: Int
        var character: UInt8
        var count: Int
        let originalCount: Int
        let canOpen: Bool
        let canClose: Bool
        var previous: Int?
        var next: Int?
    }

    private struct Bracket {
        var piece: Int
        var isImage: Bool
        var active: Bool
        /// Delimiters from this index on were pushed after the bracket.
        var delimiterBottom: Int
    }

    private struct Span {
        var opener: Int
        var closer: Int
        var style: InlineStyles
        var url: String?
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let start: Int
    let end: Int
    private(set) var pieces: [Piece] = []
    private var delimiters: [Delimiter] = []
    private var lastDelimiter: Int?
    private var brackets: [Bracket] = []
    private var spans: [Span] = []
    /// Backtick-run lengths known to have no closing run further on.
    private var backtickRunsWithoutCloser = Set<Int>()

    /// Longest link destination scanned, to keep `](` repeated a million times linear.
    static let maximumLinkScan = 8192

    init(bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.bytes = bytes
        self.start = range.lowerBound
        self.end = range.upperBound
    }

    /// Scans the line and returns its pieces with their styles resolved.
    mutating func scan() -> [Piece] {
        var index = start
        var textStart = start
        func flushText(upTo position: Int) {
            if position > textStart { pieces.append(Piece(kind: .text, range: textStart..<position)) }
        }
        while index < end {
            let byte = bytes[index]
            var consumed: Int? = nil
            switch byte {
            case UInt8(ascii: "\\"):
                if index + 1 < end, Self.isASCIIPunctuation(bytes[index + 1]) {
                    flushText(upTo: index)
                    pieces.append(
                        Piece(
                            kind: .escape, range: index..<index + 2,
                            text: String(UnicodeScalar(bytes[index + 1]))))
                    consumed = 2
                }
            case UInt8(ascii: "`"):
                flushText(upTo: index)
                consumed = scanCodeSpan(at: index)
            case UInt8(ascii: "<"):
                // Text before must be flushed first: the scanners append pieces.
                flushText(upTo: index)
                textStart = index
                consumed = scanAngleAutolink(at: index) ?? scanHTML(at: index)
            case UInt8(ascii: "&"):
                if let (length, decoded) = Self.scanEntity(bytes, at: index, end: end) {
                    flushText(upTo: index)
                    pieces.append(Piece(kind: .entity, range: index..<index + length, text: decoded))
                    consumed = length
                }
            case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                flushText(upTo: index)
                consumed = scanDelimiterRun(at: index)
            case UInt8(ascii: "!"):
                if index + 1 < end, bytes[index + 1] == UInt8(ascii: "[") {
                    flushText(upTo: index)
                    brackets.append(Bracket(piece: pieces.count, isImage: true, active: true, delimiterBottom: delimiters.count))
                    pieces.append(Piece(kind: .bracket, range: index..<index + 2))
                    consumed = 2
                }
            case UInt8(ascii: "["):
                flushText(upTo: index)
                brackets.append(Bracket(piece: pieces.count, isImage: false, active: true, delimiterBottom: delimiters.count))
                pieces.append(Piece(kind: .bracket, range: index..<index + 1))
                consumed = 1
            case UInt8(ascii: "]"):
                flushText(upTo: index)
                consumed = closeBracket(at: index)
            case UInt8(ascii: "h"), UInt8(ascii: "w"):
                if index == start || Self.isBareURLBoundary(bytes[index - 1]) {
                    flushText(upTo: index)
                    textStart = index
                    consumed = scanBareURL(at: index)
                }
            default:
                break
            }
            if let length = consumed {
                index += length
                textStart = index
            } else {
                index += 1
            }
        }
        flushText(upTo: end)
        processEmphasis(bottom: 0)
        applySpans()
        return pieces
    }

    // MARK: Code spans, autolinks, HTML, entities

    private mutating func scanCodeSpan(at index: Int) -> Int {
        var runEnd = index
        while runEnd < end, bytes[runEnd] == UInt8(ascii: "`") { runEnd += 1 }
        let length = runEnd - index
        if !backtickRunsWithoutCloser.contains(length) {
            var search = runEnd
            while search < end {
                if bytes[search] == UInt8(ascii: "`") {
                    var closeEnd = search
                    while closeEnd < end, bytes[closeEnd] == UInt8(ascii: "`") { closeEnd += 1 }
                    if closeEnd - search == length {
                        var contentStart = runEnd
                        var contentEnd = search
                        let allSpaces = (contentStart..<contentEnd).allSatisfy { bytes[$0] == 0x20 }
                        if !allSpaces, contentEnd - contentStart >= 2,
                            bytes[contentStart] == 0x20, bytes[contentEnd - 1] == 0x20
                        {
                            contentStart += 1
                            contentEnd -= 1
                        }
                        pieces.append(Piece(kind: .markup, range: index..<contentStart))
                        pieces.append(Piece(kind: .code, range: contentStart..<contentEnd, styles: .code))
                        pieces.append(Piece(kind: .markup, range: contentEnd..<closeEnd))
                        return closeEnd - index
                    }
                    search = closeEnd
                } else {
                    search += 1
                }
            }
            backtickRunsWithoutCloser.insert(length)
        }
        pieces.append(Piece(kind: .text, range: index..<runEnd))
        return length
    }

    /// `<https://example.com>` or `<me@example.com>`.
    private mutating func scanAngleAutolink(at index: Int) -> Int? {
        var position = index + 1
        var sawColon = false
        var sawAt = false
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: ">") { break }
            if byte <= 0x20 || byte == UInt8(ascii: "<") { return nil }
            if byte == UInt8(ascii: ":") { sawColon = true }
            if byte == UInt8(ascii: "@") { sawAt = true }
            position += 1
        }
        guard position < end, position > index + 1, sawColon || sawAt else { return nil }
        let content = index + 1..<position
        let text = String(decoding: bytes[content], as: UTF8.self)
        if sawColon {
            // A scheme: a letter, then 1 to 31 letters, digits, `+`, `.` or `-`.
            guard let colon = text.firstIndex(of: ":") else { return nil }
            let scheme = text[..<colon]
            guard scheme.count >= 2, scheme.count <= 32, scheme.first!.isASCII, scheme.first!.isLetter,
                scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) })
            else { return nil }
        }
        let url = sawColon ? text : "mailto:" + text
        pieces.append(Piece(kind: .markup, range: index..<index + 1))
        pieces.append(Piece(kind: .autolink, range: content, text: text, url: url, styles: .autolink))
        pieces.append(Piece(kind: .markup, range: position..<position + 1))
        return position + 1 - index
    }

    /// A raw HTML tag, comment or declaration: `<span class="x">`, `</b>`.
    private mutating func scanHTML(at index: Int) -> Int? {
        guard index + 1 < end else { return nil }
        let next = bytes[index + 1]
        guard Self.isASCIILetter(next) || next == UInt8(ascii: "/") || next == UInt8(ascii: "!") || next == UInt8(ascii: "?")
        else { return nil }
        var position = index + 1
        var quote: UInt8? = nil
        while position < end {
            let byte = bytes[position]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                pieces.append(Piece(kind: .html, range: index..<position + 1, styles: .html))
                return position + 1 - index
            } else if byte == UInt8(ascii: "<") {
                return nil
            }
            position += 1
        }
        return nil
    }

    /// `&amp;`, `&#123;`, `&#x1F600;`: returns the length and the character.
    static func scanEntity(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> (Int, String)? {
        var position = index + 1
        let limit = min(end, index + 34)
        if position < limit, bytes[position] == UInt8(ascii: "#") {
            position += 1
            var hex = false
            if position < limit, bytes[position] | 0x20 == UInt8(ascii: "x") {
                hex = true
                position += 1
            }
            let digitsStart = position
            var value: UInt32 = 0
            while position < limit, position - digitsStart < (hex ? 6 : 7) {
                let byte = bytes[position]
                if let digit = hex ? Self.hexValue(byte) : (byte >= 0x30 && byte <= 0x39 ? UInt32(byte - 0x30) : nil) {
                    value = value * (hex ? 16 : 10) + digit
                    position += 1
                } else {
                    break
                }
            }
            guard position > digitsStart, position < end, bytes[position] == UInt8(ascii: ";") else { return nil }
            let scalar = UnicodeScalar(value).flatMap { $0.value == 0 ? nil : $0 } ?? "\u{FFFD}"
            return (position + 1 - index, String(scalar))
        }
        let nameStart = position
        while position < limit, Self.isASCIILetter(bytes[position]) || (bytes[position] >= 0x30 && bytes[position] <= 0x39) {
            position += 1
        }
        guard position > nameStart, position < end, bytes[position] == UInt8(ascii: ";") else { return nil }
        let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
        guard let decoded = namedEntities[name] else { return nil }
        return (position + 1 - index, decoded)
    }

    /// The named entities people type in to-do titles. Foundation has no HTML
    /// entity table on Linux; an unknown name stays literal text.
    static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
        "copy": "©", "reg": "®", "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–",
        "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "laquo": "«", "raquo": "»",
        "deg": "°", "times": "×", "divide": "÷", "euro": "€", "pound": "£", "yen": "¥",
        "cent": "¢", "sect": "§", "para": "¶", "middot": "·", "bull": "•", "larr": "←",
        "rarr": "→", "uarr": "↑", "darr": "↓", "check": "✓", "hearts": "♥", "star": "☆",
        "frac12": "½", "frac14": "¼", "frac34": "¾", "plusmn": "±", "ne": "≠", "le": "≤", "ge": "≥",
    ]

    /// GFM's extended autolinks: `https://…`, `http://…` and `www.…`.
    private mutating func scanBareURL(at index: Int) -> Int? {
        let prefixes: [[UInt8]] = [Array("https://".utf8), Array("http://".utf8), Array("www.".utf8)]
        guard
            let prefix = prefixes.first(where: { prefix in
                index + prefix.count < end && (0..<prefix.count).allSatisfy { bytes[index + $0] == prefix[$0] }
            })
        else { return nil }
        var position = index + prefix.count
        while position < end, bytes[position] > 0x20, bytes[position] != UInt8(ascii: "<") { position += 1 }
        // Trailing punctuation is not part of the link; nor is an unbalanced `)`.
        while position > index + prefix.count {
            let last = bytes[position - 1]
            if "?!.,:*_~'\"".utf8.contains(last) {
                position -= 1
                continue
            }
            if last == UInt8(ascii: ")") {
                let slice = bytes[index..<position]
                let opens = slice.filter { $0 == UInt8(ascii: "(") }.count
                let closes = slice.filter { $0 == UInt8(ascii: ")") }.count
                if closes > opens {
                    position -= 1
                    continue
                }
            }
            break
        }
        guard position > index + prefix.count else { return nil }
        let text = String(decoding: bytes[index..<position], as: UTF8.self)
        let url = prefix.count == 4 ? "http://" + text : text
        pieces.append(Piece(kind: .autolink, range: index..<position, text: text, url: url, styles: .autolink))
        return position - index
    }

    // MARK: Emphasis and strikethrough

    private mutating func scanDelimiterRun(at index: Int) -> Int {
        let character = bytes[index]
        var runEnd = index
        while runEnd < end, bytes[runEnd] == character { runEnd += 1 }
        let count = runEnd - index
        if character == UInt8(ascii: "~"), count > 2 {
            pieces.append(Piece(kind: .text, range: index..<runEnd))
            return count
        }
        let before = Self.characterClass(bytes, before: index, start: start)
        let after = Self.characterClass(bytes, at: runEnd, end: end)
        let leftFlanking = after != .whitespace && (after != .punctuation || before != .other)
        let rightFlanking = before != .whitespace && (before != .punctuation || after != .other)
        let canOpen: Bool
        let canClose: Bool
        if character == UInt8(ascii: "_") {
            canOpen = leftFlanking && (!rightFlanking || before == .punctuation)
            canClose = rightFlanking && (!leftFlanking || after == .punctuation)
        } else {
            canOpen = leftFlanking
            canClose = rightFlanking
        }
        pieces.append(Piece(kind: .delimiter, range: index..<runEnd))
        let delimiter = Delimiter(
            piece: pieces.count - 1, character: character, count: count, originalCount: count,
            canOpen: canOpen, canClose: canClose, previous: lastDelimiter, next: nil)
        if let last = lastDelimiter { delimiters[last].next = delimiters.count }
        lastDelimiter = delimiters.count
        delimiters.append(delimiter)
        return count
    }

    private mutating func removeDelimiter(_ index: Int) {
        let previous = delimiters[index].previous
        let next = delimiters[index].next
        if let previous { delimiters[previous].next = next }
        if let next { delimiters[next].previous = previous } else { lastDelimiter = previous }
        delimiters[index].previous = nil
        delimiters[index].next = nil
        delimiters[index].count = -1
    }

    /// CommonMark's "process emphasis", over the delimiters from `bottom` on.
    private mutating func processEmphasis(bottom: Int) {
        // First live delimiter at or above `bottom`.
        var current: Int? = nil
        var probe = lastDelimiter
        while let index = probe, index >= bottom {
            current = index
            probe = delimiters[index].previous
        }
        // openersBottom[character][closer count % 3][closer can open]: where a
        // failed search stopped, so later searches do not repeat it.
        var openersBottom: [UInt8: [Int]] = [:]
        while let closerIndex = current {
            let closer = delimiters[closerIndex]
            guard closer.canClose else {
                current = closer.next
                continue
            }
            let key = closer.character
            let slot = (closer.character == UInt8(ascii: "~") ? closer.count % 3 : closer.originalCount % 3) * 2 + (closer.canOpen ? 1 : 0)
            let floor = max(bottom, openersBottom[key]?[slot] ?? bottom)
            var openerIndex: Int? = nil
            var search = closer.previous
            while let candidateIndex = search, candidateIndex >= floor {
                let candidate = delimiters[candidateIndex]
                if candidate.character == closer.character, candidate.canOpen {
                    if closer.character == UInt8(ascii: "~") {
                        if candidate.count == closer.count {
                            openerIndex = candidateIndex
                            break
                        }
                    } else {
                        let oddMatch =
                            (candidate.canClose || closer.canOpen)
                            && (candidate.originalCount + closer.originalCount) % 3 == 0
                            && !(candidate.originalCount % 3 == 0 && closer.originalCount % 3 == 0)
                        if !oddMatch {
                            openerIndex = candidateIndex
                            break
                        }
                    }
                }
                search = candidate.previous
            }
            guard let opener = openerIndex else {
                var bottoms = openersBottom[key] ?? Array(repeating: bottom, count: 6)
                bottoms[slot] = closer.previous.map { $0 + 1 } ?? bottom
                openersBottom[key] = bottoms
                let next = closer.next
                if !closer.canOpen { removeDelimiter(closerIndex) }
                current = next
                continue
            }
            let used: Int
            let style: InlineStyles
            if closer.character == UInt8(ascii: "~") {
                used = closer.count
                style = .strikethrough
            } else {
                used = delimiters[opener].count >= 2 && closer.count >= 2 ? 2 : 1
                style = used == 2 ? .strong : .emphasis
            }
            spans.append(Span(opener: delimiters[opener].piece, closer: closer.piece, style: style))
            // Delimiters between opener and closer can no longer match.
            var between = delimiters[opener].next
            while let index = between, index != closerIndex {
                between = delimiters[index].next
                removeDelimiter(index)
            }
            delimiters[opener].count -= used
            delimiters[closerIndex].count -= used
            pieces[delimiters[opener].piece].range =
                pieces[delimiters[opener].piece].range.lowerBound..<pieces[delimiters[opener].piece].range.upperBound - used
            pieces[closer.piece].range = pieces[closer.piece].range.lowerBound + used..<pieces[closer.piece].range.upperBound
            if delimiters[opener].count == 0 { removeDelimiter(opener) }
            if delimiters[closerIndex].count == 0 {
                let next = delimiters[closerIndex].next
                removeDelimiter(closerIndex)
                current = next
            }
        }
        // Whatever is left above `bottom` is literal text.
        while let last = lastDelimiter, last >= bottom { removeDelimiter(last) }
    }

    // MARK: Links and images

    private mutating func closeBracket(at index: Int) -> Int {
        guard let opener = brackets.popLast() else {
            pieces.append(Piece(kind: .text, range: index..<index + 1))
            return 1
        }
        guard opener.active, let (length, url) = scanLinkTail(at: index + 1) else {
            pieces.append(Piece(kind: .text, range: index..<index + 1))
            return 1
        }
        let closerPiece = pieces.count
        pieces.append(Piece(kind: .markup, range: index..<index + 1 + length))
        pieces[opener.piece].kind = .markup
        processEmphasis(bottom: opener.delimiterBottom)
        spans.append(Span(opener: opener.piece, closer: closerPiece, style: opener.isImage ? .image : .link, url: url))
        if !opener.isImage {
            // No links inside links: earlier openers can no longer make one.
            for position in brackets.indices where !brackets[position].isImage { brackets[position].active = false }
        }
        return 1 + length
    }

    /// `(destination "title")` after a `]`: its length and the destination.
    private func scanLinkTail(at index: Int) -> (Int, String)? {
        guard index < end, bytes[index] == UInt8(ascii: "(") else { return nil }
        let limit = min(end, index + Self.maximumLinkScan)
        var position = index + 1
        func skipSpaces() { while position < limit, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 } }
        skipSpaces()
        var destination = ""
        if position < limit, bytes[position] == UInt8(ascii: "<") {
            let destStart = position + 1
            position += 1
            while position < limit, bytes[position] != UInt8(ascii: ">") {
                if bytes[position] == UInt8(ascii: "<") { return nil }
                if bytes[position] == UInt8(ascii: "\\"), position + 1 < limit { position += 1 }
                position += 1
            }
            guard position < limit else { return nil }
            destination = Self.unescaped(bytes, destStart..<position)
            position += 1
        } else {
            let destStart = position
            var depth = 0
            while position < limit {
                let byte = bytes[position]
                if byte <= 0x20 { break }
                if byte == UInt8(ascii: "\\"), position + 1 < limit, Self.isASCIIPunctuation(bytes[position + 1]) {
                    position += 2
                    continue
                }
                if byte == UInt8(ascii: "(") {
                    depth += 1
                    if depth > 32 { return nil }
                }
                if byte == UInt8(ascii: ")") {
                    if depth == 0 { break }
                    depth -= 1
                }
                position += 1
            }
            guard depth == 0 else { return nil }
            destination = Self.unescaped(bytes, destStart..<position)
        }
        let beforeTitle = position
        skipSpaces()
        if position < limit, position > beforeTitle,
            let close: UInt8 = [
                UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "'"): UInt8(ascii: "'"),
                UInt8(ascii: "("): UInt8(ascii: ")"),
            ][bytes[position]]
        {
            position += 1
            while position < limit, bytes[position] != close {
                if bytes[position] == UInt8(ascii: "\\") { position += 1 }
                position += 1
            }
            guard position < limit else { return nil }
            position += 1
            skipSpaces()
        }
        guard position < limit, bytes[position] == UInt8(ascii: ")") else { return nil }
        return (position + 1 - index, destination)
    }

    // MARK: Styles

    /// Gives every piece between a span's opener and closer the span's style,
    /// in one pass over the pieces (nesting depth does not multiply the work).
    private mutating func applySpans() {
        guard !spans.isEmpty else { return }
        var delta = Array(repeating: [Int](repeating: 0, count: 8), count: pieces.count + 1)
        for span in spans where span.closer > span.opener + 1 {
            for bit in 0..<8 where span.style.rawValue & (1 << bit) != 0 {
                delta[span.opener + 1][bit] += 1
                delta[span.closer][bit] -= 1
            }
        }
        var depth = [Int](repeating: 0, count: 8)
        for index in pieces.indices {
            for bit in 0..<8 { depth[bit] += delta[index][bit] }
            var styles = pieces[index].styles
            for bit in 0..<8 where depth[bit] > 0 { styles.insert(InlineStyles(rawValue: 1 << bit)) }
            pieces[index].styles = styles
        }
        // The innermost link or image gives its URL (spans close inner first).
        for span in spans where span.url != nil && span.closer > span.opener + 1 {
            for index in span.opener + 1..<span.closer where pieces[index].url == nil {
                pieces[index].url = span.url
            }
        }
    }

    // MARK: Character classes

    enum CharacterClass { case whitespace, punctuation, other }

    static func characterClass(_ bytes: UnsafeBufferPointer<UInt8>, before index: Int, start: Int) -> CharacterClass {
        guard index > start else { return .whitespace }
        var lead = index - 1
        while lead > start, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
        return characterClass(bytes, at: lead, end: index)
    }

    static func characterClass(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> CharacterClass {
        guard index < end else { return .whitespace }
        let byte = bytes[index]
        if byte < 0x80 {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C { return .whitespace }
            return isASCIIPunctuation(byte) ? .punctuation : .other
        }
        let length = max(1, min(4, end - index))
        let scalar = String(decoding: bytes[index..<index + length], as: UTF8.self).unicodeScalars.first
        guard let scalar else { return .other }
        if scalar.properties.isWhitespace { return .whitespace }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation,
            .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return .punctuation
        default:
            return .other
        }
    }

    static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }

    static func isASCIILetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    static func isBareURLBoundary(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: "(") || byte == UInt8(ascii: "*")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }

    /// The text of `range` with backslash escapes and entities resolved.
    static func unescaped(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var result = [UInt8]()
        result.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < range.upperBound, isASCIIPunctuation(bytes[index + 1]) {
                result.append(bytes[index + 1])
                index += 2
                continue
            }
            if byte == UInt8(ascii: "&"), let (length, decoded) = scanEntity(bytes, at: index, end: range.upperBound) {
                result.append(contentsOf: decoded.utf8)
                index += length
                continue
            }
            result.append(byte)
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }
}
