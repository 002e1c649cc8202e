/// The inline styles a run of title text carries.
public struct InlineStyles: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let emphasis = InlineStyles(rawValue: 1 << 0)
    public static let strong = InlineStyles(rawValue: 1 << 1)
    public static let code = InlineStyles(rawValue: 1 << 2)
    public static let strikethrough = InlineStyles(rawValue: 1 << 3)
    public static let link = InlineStyles(rawValue: 1 << 4)
    public static let image = InlineStyles(rawValue: 1 << 5)
    public static let autolink = InlineStyles(rawValue: 1 << 6)
    public static let html = InlineStyles(rawValue: 1 << 7)

    /// Styles inside which metadata tokens are never recognised.
    public static let opaque: InlineStyles = [.code, .link, .image, .autolink, .html]

    /// The names of the styles, for JSON and debugging.
    public var names: [String] {
        let all: [(InlineStyles, String)] = [
            (.emphasis, "emphasis"), (.strong, "strong"), (.code, "code"), (.strikethrough, "strikethrough"),
            (.link, "link"), (.image, "image"), (.autolink, "autolink"), (.html, "html"),
        ]
        return all.filter { contains($0.0) }.map(\.1)
    }
}

/// A slice of a title with its attributes, like a run of an `AttributedString`.
///
/// `range` is the exact half-open byte range in the file that the run came
/// from. Markup bytes (`**`, backticks, `[`, `](url)`) belong to no run, so
/// slicing the file with `range` gives the run's source; `text` is what a
/// reader sees (backslash escapes and entities resolved).
public struct TitleRun: Sendable, Hashable {
    public var text: String
    public var range: Range<Int>
    public var styles: InlineStyles
    /// The destination of a link, image or autolink.
    public var url: String?
    /// Set when this run is a metadata token.
    public var token: MetadataToken?

    public init(text: String, range: Range<Int>, styles: InlineStyles = [], url: String? = nil, token: MetadataToken? = nil) {
        self.text = text
        self.range = range
        self.styles = styles
        self.url = url
        self.token = token
    }
}

extension Array where Element == TitleRun {
    /// The display title: the runs without metadata tokens, white space
    /// between them collapsed to one space, trimmed at both ends.
    public var displayTitle: String {
        // By scalars, not characters: a space followed by a combining mark
        // is one character, but its space still collapses, as in the
        // parser's byte-wise summary of the title.
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for run in self where run.token == nil {
            for scalar in run.text.unicodeScalars {
                if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                    pendingSpace = !result.isEmpty
                } else {
                    if pendingSpace { result.append(" "); pendingSpace = false }
                    result.append(scalar)
                }
            }
        }
        return String(result)
    }

    /// The metadata tokens among the runs, in order.
    public var tokens: [MetadataToken] { compactMap(\.token) }
}
