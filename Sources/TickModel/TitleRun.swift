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

/// The display title's white-space rule (SPEC §3.1), in one place: every
/// display title (JSON, CSV, iCalendar, the terminal, `AttributedString`) is
/// made by it.
///
/// White space is the ASCII space, tab, line feed and carriage return (the
/// white space that separates words in Markdown source). Each stretch of it,
/// within a run or across runs, becomes one space (U+0020); at the title's
/// start and end it is dropped. Nothing else is changed: a no-break space
/// (U+00A0) or another Unicode space is kept as written, and a combining
/// mark after white space stays, after the one space the white space became.
public enum TitleWhiteSpace {
    /// The bytes that are white space in a title.
    public static let bytes: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]

    @inline(__always)
    public static func contains(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Collapses white space in text given byte by byte (UTF-8), across
    /// any number of pieces.
    public struct Collapser: Sendable {
        /// What to write for a byte.
        public enum Step: Sendable {
            /// Nothing: white space, kept pending (or dropped at the start).
            case skip
            /// The byte.
            case keep
            /// One space for the white space before the byte, then the byte.
            case spaceThenKeep
        }

        /// Whether any text has been kept.
        public private(set) var hasText = false
        /// White space seen after kept text, not yet written (dropped if
        /// no text follows: the end is trimmed).
        public private(set) var pendingSpace = false

        public init() {}

        @inline(__always)
        public mutating func take(_ byte: UInt8) -> Step {
            if TitleWhiteSpace.contains(byte) {
                pendingSpace = hasText
                return .skip
            }
            hasText = true
            if pendingSpace {
                pendingSpace = false
                return .spaceThenKeep
            }
            return .keep
        }
    }
}

/// A piece of a display title and the run it comes from.
public struct DisplayTitlePiece: Sendable, Hashable {
    public var text: String
    /// The index, among the runs, of the run the text comes from (for a
    /// space joining two runs, the run where the white space began).
    public var run: Int
    /// True for the one space that stands for white space between two runs
    /// (it belongs to neither run's words).
    public var isJoiningSpace: Bool
}

extension Array where Element == TitleRun {
    /// The display title: the runs without metadata tokens, white space
    /// collapsed by `TitleWhiteSpace`.
    public var displayTitle: String { displayPieces.map(\.text).joined() }

    /// The display title in pieces that follow the runs: joined, they are
    /// `displayTitle`. Renderers style each piece as its run.
    public var displayPieces: [DisplayTitlePiece] {
        var pieces: [DisplayTitlePiece] = []
        var collapser = TitleWhiteSpace.Collapser()
        var spaceRun = 0 // the run where the pending white space began
        for (index, run) in enumerated() where run.token == nil {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(run.text.utf8.count)
            for byte in run.text.utf8 {
                let wasPending = collapser.pendingSpace
                switch collapser.take(byte) {
                case .skip:
                    if collapser.pendingSpace, !wasPending { spaceRun = index }
                case .keep:
                    bytes.append(byte)
                case .spaceThenKeep:
                    // White space that began in an earlier run joins the two
                    // (then nothing of this run is kept yet).
                    if spaceRun == index {
                        bytes.append(0x20)
                    } else {
                        pieces.append(DisplayTitlePiece(text: " ", run: spaceRun, isJoiningSpace: true))
                    }
                    bytes.append(byte)
                }
            }
            if !bytes.isEmpty {
                pieces.append(DisplayTitlePiece(text: String(decoding: bytes, as: UTF8.self), run: index, isJoiningSpace: false))
            }
        }
        return pieces
    }

    /// The metadata tokens among the runs, in order.
    public var tokens: [MetadataToken] { compactMap(\.token) }
}
