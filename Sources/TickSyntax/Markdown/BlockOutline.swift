/// The block structure of a Markdown file that tick needs, as plain values:
/// list items and headings with their 1-based lines and byte columns.
///
/// Produced by `CmarkBlockParser`; nothing here points into C memory.
struct BlockOutline {
    struct ListItem {
        var startLine: Int
        /// 1-based byte column of the list marker.
        var startColumn: Int
        var endLine: Int
        /// The item's first child when it is a paragraph: where its text starts.
        var paragraphLine: Int?
        var paragraphColumn: Int?
        /// Index in `items` of the nearest enclosing list item.
        var enclosingItem: Int?
        var quoteDepth: Int
        var isOrdered: Bool
    }

    struct Heading {
        var level: Int
        var startLine: Int
        var startColumn: Int
        var endLine: Int
        /// False for a setext heading (text underlined with `===` or `---`).
        var isATX: Bool
    }

    var items: [ListItem] = []
    var headings: [Heading] = []
}
