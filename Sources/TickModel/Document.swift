/// A heading below level 1: it opens a section that holds the items below it.
public struct Section: Sendable, Hashable {
    public var level: Int
    /// The heading's text with its metadata tokens removed.
    public var title: String
    public var line: Int
    /// The heading's lines, line ending of the last one included.
    public var range: Range<Int>
    public var color: String?
    public var icon: String?

    /// Every stored property, as the memberwise initializer takes them.
    package init(level: Int, title: String, line: Int, range: Range<Int>, color: String? = nil, icon: String? = nil) {
        self.level = level
        self.title = title
        self.line = line
        self.range = range
        self.color = color
        self.icon = icon
    }
}

/// YAML front matter: its raw bytes and its parsed keys.
public struct FrontMatter: Sendable {
    /// From the opening `---` to the end of the closing line.
    public var range: Range<Int>
    /// The YAML text between the delimiter lines.
    public var yamlRange: Range<Int>
    /// The top-level keys in the order written; nil when the YAML is malformed
    /// or is not a mapping.
    public var values: [(key: String, value: JSONValue)]?

    public func value(_ key: String) -> JSONValue? {
        values?.first(where: { $0.key == key })?.value
    }

    /// Every stored property, as the memberwise initializer takes them.
    package init(range: Range<Int>, yamlRange: Range<Int>, values: [(key: String, value: JSONValue)]? = nil) {
        self.range = range
        self.yamlRange = yamlRange
        self.values = values
    }
}

/// One list: the parsed form of one Markdown file, which keeps its bytes.
///
/// Parsing never fails and never loses the source: whatever the bytes, the
/// document holds them unchanged in `source`, and problems become
/// `diagnostics`.
public final class Document: Sendable {
    /// The path relative to the notes folder, with `/` separators.
    public let path: String
    public let source: SourceText
    public let frontMatter: FrontMatter?
    /// Front matter `title:`, else the first level-1 heading, else the file
    /// name without its extension.
    public let name: String
    /// The color and icon as written (front matter, then level-1 heading).
    public let explicitColor: String?
    public let explicitIcon: String?
    public let order: Int?
    public let sections: [Section]
    /// Every item in file order; `TaskItem.parent` and `children` index here.
    public let items: [TaskItem]
    public let diagnostics: [Diagnostic]
    /// False when the bytes are not valid UTF-8; such a file is never rewritten.
    public let isValidUTF8: Bool

    // A class, not a struct: a document is immutable once parsed, and the
    // engine hands it around with every one of its items, so sharing one
    // reference is far cheaper than copying a dozen fields per item.
    public init(
        path: String, source: SourceText, frontMatter: FrontMatter?, name: String, explicitColor: String?,
        explicitIcon: String?, order: Int?, sections: [Section], items: [TaskItem], diagnostics: [Diagnostic],
        isValidUTF8: Bool
    ) {
        self.path = path
        self.source = source
        self.frontMatter = frontMatter
        self.name = name
        self.explicitColor = explicitColor
        self.explicitIcon = explicitIcon
        self.order = order
        self.sections = sections
        self.items = items
        self.diagnostics = diagnostics
        self.isValidUTF8 = isValidUTF8
    }

    /// The same document without the file's bytes, for commands that only
    /// read: a notes folder's worth of bytes is tens of megabytes that no
    /// query needs (runs are computed from the titles' own text).
    public func droppingSource() -> Document {
        Document(
            path: path, source: SourceText([]), frontMatter: frontMatter, name: name, explicitColor: explicitColor,
            explicitIcon: explicitIcon, order: order, sections: sections, items: items, diagnostics: diagnostics,
            isValidUTF8: isValidUTF8)
    }

    /// The list's color, `blue` when none is written.
    public var color: String { explicitColor ?? Self.defaultColor }
    /// The list's icon, `list.bullet` when none is written.
    public var icon: String { explicitIcon ?? Self.defaultIcon }

    /// The color and icon of a list that names none.
    package static let defaultColor = "blue", defaultIcon = "list.bullet"

    /// `path` without a final `.markdown` or `.md` (a list's path as LIST
    /// accepts it, and its file name's stem).
    package static func withoutExtension(_ path: String) -> String {
        if path.hasSuffix(".markdown") { return String(path.dropLast(9)) }
        if path.hasSuffix(".md") { return String(path.dropLast(3)) }
        return path
    }

    /// `PATH:LINE` of an item: its address on the command line and in JSON.
    public func address(of item: TaskItem) -> String { "\(path):\(item.line)" }
}
