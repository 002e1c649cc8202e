import Synchronization
import TickModel
import TickSyntax

/// How many colors the terminal shows, or none at all.
enum ColorDepth: Sendable {
    /// Plain text: no escape sequences of any kind.
    case none
    /// xterm's 256 colors.
    case ansi256
    /// 24-bit color (COLORTERM is truecolor or 24bit).
    case trueColor
}

/// A color as red, green and blue.
struct RGB: Equatable, Sendable {
    var red: Int
    var green: Int
    var blue: Int

    /// A list color (`green`, `#ff8800`); nil when unknown.
    init?(listColor: String) {
        guard let (red, green, blue) = ListColor.rgb(listColor) else { return nil }
        self.init(red: red, green: green, blue: blue)
    }

    init(red: Int, green: Int, blue: Int) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    static let red = RGB(listColor: "red")!
    static let orange = RGB(listColor: "orange")!
    static let yellow = RGB(listColor: "yellow")!
    static let blue = RGB(listColor: "blue")!
    static let gray = RGB(listColor: "gray")!
    static let teal = RGB(listColor: "teal")!

    /// The nearest of xterm's 256 colors: the 6×6×6 cube or the gray ramp.
    var xterm256: Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearestLevel(_ value: Int) -> Int {
            levels.indices.min(by: { abs(levels[$0] - value) < abs(levels[$1] - value) })!
        }
        let (r, g, b) = (nearestLevel(red), nearestLevel(green), nearestLevel(blue))
        let cube = 16 + 36 * r + 6 * g + b
        let cubeError = distance(levels[r], levels[g], levels[b])
        let average = (red + green + blue) / 3
        let grayIndex = max(0, min(23, (average - 8 + 5) / 10))
        let grayLevel = 8 + 10 * grayIndex
        return distance(grayLevel, grayLevel, grayLevel) < cubeError ? 232 + grayIndex : cube
    }

    private func distance(_ r: Int, _ g: Int, _ b: Int) -> Int {
        (r - red) * (r - red) + (g - green) * (g - green) + (b - blue) * (b - blue)
    }
}

/// The look of a stretch of text.
struct TextStyle: Equatable, Sendable {
    var bold = false
    var dim = false
    var italic = false
    var underline = false
    var strikethrough = false
    var inverse = false
    var color: RGB? = nil
    /// Shown as an OSC 8 hyperlink.
    var link: String? {
        get { linkNumber == 0 ? nil : Links.shared.url(numbered: linkNumber) }
        // `Links.shared` looked up only for a link: `map(Links.shared.number)`
        // looked it up (a lazy global) and retained and released it for every
        // style made, on the count every core shares.
        set { linkNumber = newValue.map { Links.shared.number($0) } ?? 0 }
    }
    /// The link's number in `Links` (0: none), so that a style is plain
    /// data, copied and compared as bytes: with the link's string in it,
    /// each copy of a style retained the string, several times a row.
    private var linkNumber: Int32 = 0

    init(
        bold: Bool = false, dim: Bool = false, italic: Bool = false, underline: Bool = false, strikethrough: Bool = false,
        inverse: Bool = false, color: RGB? = nil, link: String? = nil
    ) {
        (self.bold, self.dim, self.italic, self.underline, self.strikethrough, self.inverse) = (bold, dim, italic, underline, strikethrough, inverse)
        self.color = color
        if let link { self.link = link }
    }

    static let plain = TextStyle()
    static func colored(_ color: RGB?) -> TextStyle { TextStyle(color: color) }
    static let dimmed = TextStyle(dim: true)
    static let strong = TextStyle(bold: true)
}

/// The links of styled text, each numbered once for the process's life
/// (a listing's titles hold a few distinct links): what lets `TextStyle`
/// hold a number instead of a string.
private final class Links: Sendable {
    static let shared = Links()
    private let table = Mutex<(urls: [String], numbers: [String: Int32])>(([], [:]))

    /// The number of `url`, from 1.
    func number(_ url: String) -> Int32 {
        table.withLock { table in
            if let number = table.numbers[url] { return number }
            table.urls.append(url)
            let number = Int32(table.urls.count)
            table.numbers[url] = number
            return number
        }
    }

    func url(numbered number: Int32) -> String { table.withLock { $0.urls[Int(number) - 1] } }
}

/// Text made of styled spans: measured as plain text, printed with or
/// without escape sequences. With `ColorDepth.none` the output is exactly
/// the plain text.
struct StyledText: Sendable {
    /// A stretch of text in one style, with the columns it takes.
    struct Span: Sendable {
        var text: String
        var style: TextStyle
        var width: Int
    }

    /// The spans; two in a row never have the same style.
    private(set) var spans: [Span] = []
    /// The columns the text takes (`DisplayWidth`), kept as spans are
    /// appended: a listing asks for it several times per cell.
    private(set) var width = 0

    init() {}

    init(_ text: String, _ style: TextStyle = .plain) {
        append(text, style)
    }

    /// Appends `text`, its control characters made visible (`TerminalText`):
    /// the only escape sequences in rendered text are the styles' own.
    mutating func append(_ text: String, _ style: TextStyle = .plain) {
        guard !text.isEmpty else { return }
        appendVisible(TerminalText.safe(text), style, width: nil)
    }

    /// Appends `text`, already made visible by `TerminalText.safe`, whose
    /// width is `width`: for text measured once and printed many times.
    mutating func append(visible text: String, _ style: TextStyle, width: Int) {
        guard !text.isEmpty else { return }
        appendVisible(text, style, width: width)
    }

    mutating func append(_ other: StyledText) {
        for span in other.spans { appendVisible(span.text, span.style, width: span.width) }
    }

    /// Appends text whose control characters were already made visible;
    /// `width`, when known, is its width.
    private mutating func appendVisible(_ text: String, _ style: TextStyle, width textWidth: Int?) {
        guard let last = spans.last, last.style == style else {
            let span = Span(text: text, style: style, width: textWidth ?? DisplayWidth.of(text))
            spans.append(span)
            width += span.width
            return
        }
        let merged = last.text + text
        // Text that starts with an ASCII character cannot join the last
        // character before it (a combining mark or a joiner could), so its
        // width adds up; otherwise the span is measured again.
        let mergedWidth = text.utf8.first! < 0x80 ? last.width + (textWidth ?? DisplayWidth.of(text)) : DisplayWidth.of(merged)
        spans[spans.count - 1] = Span(text: merged, style: style, width: mergedWidth)
        width += mergedWidth - last.width
    }

    static func + (lhs: StyledText, rhs: StyledText) -> StyledText {
        var result = lhs
        result.append(rhs)
        return result
    }

    var plain: String { spans.map(\.text).joined() }
    var isEmpty: Bool { spans.isEmpty }

    /// The text cut to at most `width` columns, ending in `…` when cut.
    func truncated(to width: Int) -> StyledText {
        guard self.width > width else { return self }
        guard width > 0 else { return StyledText() }
        var result = StyledText()
        var remaining = width - 1
        var lastStyle = TextStyle.plain
        outer: for span in spans {
            var piece = ""
            for character in span.text {
                let characterWidth = DisplayWidth.of(character)
                if characterWidth > remaining {
                    result.append(piece, span.style)
                    lastStyle = span.style
                    break outer
                }
                piece.append(character)
                remaining -= characterWidth
            }
            result.append(piece, span.style)
            lastStyle = span.style
        }
        var ellipsisStyle = lastStyle
        ellipsisStyle.link = nil
        result.append("…", ellipsisStyle)
        return result
    }

    /// The text cut to at most `width` columns from its start, beginning
    /// with `…` when cut: for paths, whose end says most.
    func truncatedAtStart(to width: Int) -> StyledText {
        guard self.width > width else { return self }
        guard width > 0 else { return StyledText() }
        var kept: [(text: String, style: TextStyle)] = []
        var remaining = width - 1
        outer: for span in spans.reversed() {
            var piece: [Character] = []
            for character in span.text.reversed() {
                let characterWidth = DisplayWidth.of(character)
                if characterWidth > remaining {
                    kept.append((String(piece.reversed()), span.style))
                    break outer
                }
                piece.append(character)
                remaining -= characterWidth
            }
            kept.append((String(piece.reversed()), span.style))
        }
        var ellipsisStyle = kept.last?.style ?? .plain
        ellipsisStyle.link = nil
        var result = StyledText("…", ellipsisStyle)
        for (text, style) in kept.reversed() { result.append(text, style) }
        return result
    }

    /// The text padded with spaces to `width` columns.
    func padded(to width: Int) -> StyledText {
        let missing = width - self.width
        guard missing > 0 else { return self }
        var result = self
        result.append(String(repeating: " ", count: missing))
        return result
    }

    /// The text with escape sequences for `depth` (none at all for `.none`).
    func rendered(_ depth: ColorDepth) -> String {
        if depth == .none, spans.count == 1 { return spans[0].text }
        var bytes: [UInt8] = []
        render(depth, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the text with escape sequences for `depth` (none at all
    /// for `.none`) to `bytes`: what `rendered` returns, without a string
    /// in between.
    func render(_ depth: ColorDepth, into bytes: inout [UInt8]) {
        for span in spans {
            let end = Self.open(span.style, depth, into: &bytes)
            bytes.append(contentsOf: span.text.utf8)
            end.append(to: &bytes)
        }
    }

    /// What ends a span that `open` started: the SGR reset, then the
    /// link's end, each when the span's start wrote its counterpart.
    struct SpanEnd {
        var resetsStyle = false
        var endsLink = false

        static let none = SpanEnd()

        func append(to bytes: inout [UInt8]) {
            if resetsStyle { StaticString("\u{1B}[0m").withUTF8Buffer { bytes.append(contentsOf: $0) } }
            if endsLink { StaticString("\u{1B}]8;;\u{1B}\\").withUTF8Buffer { bytes.append(contentsOf: $0) } }
        }
    }

    /// Appends what starts a span in `style` at `depth` (a link, then the
    /// SGR codes: bold 1, dim 2, italic 3, underline 4, inverse 7,
    /// strikethrough 9, then the color; nothing for `.none`) and
    /// returns what ends it. Written as bytes, with no string made: with
    /// colors on, a listing starts several spans on every row.
    static func open(_ style: TextStyle, _ depth: ColorDepth, into bytes: inout [UInt8]) -> SpanEnd {
        guard depth != .none, style != .plain else { return .none }
        var end = SpanEnd()
        if let link = style.link {
            StaticString("\u{1B}]8;;").withUTF8Buffer { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: link.utf8)
            StaticString("\u{1B}\\").withUTF8Buffer { bytes.append(contentsOf: $0) }
            end.endsLink = true
        }
        let start = bytes.count
        func code(_ text: StaticString) {
            bytes.append(bytes.count == start ? 0x1B : UInt8(ascii: ";"))
            if bytes.count == start + 1 { bytes.append(UInt8(ascii: "[")) }
            text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }
        // A color's numbers are written digit by digit: `String(value)`
        // allocated three strings for each colored span of every row.
        func number(_ value: Int) {
            bytes.append(UInt8(ascii: ";"))
            let digits = DecimalDigits.count(value.magnitude)
            let end = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: digits))
            bytes.withUnsafeMutableBufferPointer { DecimalDigits.write(value.magnitude, to: $0.baseAddress! + end, count: digits) }
        }
        if style.bold { code("1") }
        if style.dim { code("2") }
        if style.italic { code("3") }
        if style.underline { code("4") }
        if style.inverse { code("7") }
        if style.strikethrough { code("9") }
        if let color = style.color {
            switch depth {
            case .trueColor:
                code("38;2")
                number(color.red)
                number(color.green)
                number(color.blue)
            case .ansi256:
                code("38;5")
                number(color.xterm256)
            case .none: break
            }
        }
        if bytes.count > start {
            bytes.append(UInt8(ascii: "m"))
            end.resetsStyle = true
        }
        return end
    }
}
