import TickModel
import TickSyntax

/// An item's block as text that can be written anywhere: its first line from
/// the box on, and each further line with the item's indentation (and block
/// quote markers) taken off.
///
/// Rendering it at an `ItemShape` re-indents every line (notes and subtasks
/// alike) to that shape's depth, so relative indentation inside the block is
/// kept.
public struct ItemBlock: Sendable, Hashable {
    /// The first line from the box on (`[ ] Buy milk due:2026-11-24`), no line ending.
    public var firstLine: [UInt8]
    /// The other lines, without the item's indentation; empty for a blank line.
    public var rest: [[UInt8]]

    public init(firstLine: [UInt8], rest: [[UInt8]] = []) {
        self.firstLine = firstLine
        self.rest = rest
    }

    /// A new open item with `text` as its title.
    public init(openItemWithTitle text: String) {
        self.init(firstLine: Array(("[ ] " + text).utf8))
    }

    /// The block of `item` as written in `document`.
    public init(of item: TaskItem, in document: Document) {
        let source = document.source
        let bytes = source.bytes
        let firstLineNumber = source.line(containing: item.markerRange.lowerBound)
        firstLine = Array(bytes[item.boxRange.lowerBound..<source.range(ofLine: item.line).upperBound])
        let shape = ItemShape(of: item, in: document)
        let quote = shape.quotePrefix
        let contentColumn = EditStyle.width(shape.continuationPrefix[quote.count...])
        var rest: [[UInt8]] = []
        if item.lastLine > item.line {
            for line in item.line + 1...item.lastLine where line > firstLineNumber {
                var range = source.range(ofLine: line)
                range = ItemBlock.skipQuoteMarkers(range, depth: item.quoteDepth, bytes: bytes)
                var column = 0
                var start = range.lowerBound
                var overshoot = 0
                while start < range.upperBound, column < contentColumn, bytes[start] == 0x20 || bytes[start] == 0x09 {
                    let next = bytes[start] == 0x09 ? column + 4 - column % 4 : column + 1
                    if next > contentColumn { overshoot = next - contentColumn }
                    column = next
                    start += 1
                }
                let remainder = [UInt8](repeating: 0x20, count: overshoot) + bytes[start..<range.upperBound]
                rest.append(remainder.allSatisfy { $0 == 0x20 || $0 == 0x09 } ? [] : remainder)
            }
        }
        self.rest = rest
    }

    /// The offset after up to `depth` block-quote markers (`>` and one space).
    static func skipQuoteMarkers(_ range: Range<Int>, depth: Int, bytes: [UInt8]) -> Range<Int> {
        var position = range.lowerBound
        for _ in 0..<depth {
            var probe = position
            var spaces = 0
            while probe < range.upperBound, bytes[probe] == 0x20, spaces < 3 {
                probe += 1
                spaces += 1
            }
            guard probe < range.upperBound, bytes[probe] == UInt8(ascii: ">") else { break }
            probe += 1
            if probe < range.upperBound, bytes[probe] == 0x20 { probe += 1 }
            position = probe
        }
        return position..<range.upperBound
    }

    /// The block's lines at `shape`, joined by the shape's line ending, with
    /// no line ending after the last.
    func rendered(at shape: ItemShape) -> [UInt8] {
        var output = shape.prefix + shape.marker + shape.spacing + firstLine
        let continuation = shape.continuationPrefix
        var blank = shape.quotePrefix
        while let last = blank.last, last == 0x20 { blank.removeLast() }
        for line in rest {
            output += shape.lineEnding
            output += line.isEmpty ? blank : continuation + line
        }
        return output
    }
}

/// Where new items go in a list, and what they look like there.
struct InsertionSite {
    /// The offset the new text is inserted at.
    var offset: Int
    /// Text that goes before the first item (a line ending, a blank line, a new heading).
    var lead: [UInt8]
    /// The first new item's shape (its marker already numbered).
    var shape: ItemShape
    /// False when the new text ends the file and the file had no final line ending.
    var endsWithLineEnding: Bool
    /// A section heading this insertion creates, if any.
    var createdSection: String?

    /// The text to insert for `blocks`, numbered on from the first.
    func text(for blocks: [ItemBlock]) -> [UInt8] {
        var output = lead
        for (position, block) in blocks.enumerated() {
            if position > 0 { output += shape.lineEnding }
            var numbered = shape
            numbered.marker = shape.marker(advancedBy: position)
            output += block.rendered(at: numbered)
        }
        if endsWithLineEnding { output += shape.lineEnding }
        return output
    }
}

/// Adds items to a list (`tick add`) and finds where items go (`add`, `mv`,
/// `archive`).
///
/// Guarantees: one insertion, after the last item of the list, section or
/// parent (or, in an empty one, after its last line of text), in the bullet,
/// indentation, numbering, block quote and line ending of the items around
/// it. No existing byte changes.
public enum InsertItem {
    /// Where `add` puts a new item.
    public enum Placement: Sendable, Hashable {
        /// After the last top-level item of the list (outside block quotes
        /// when the list has such items).
        case endOfList
        /// After the last top-level item of the section with this heading
        /// (case-insensitive; outside block quotes when the section has such
        /// items); a missing section is created at the end.
        case section(String)
        /// After the last subtask of the item with this index.
        case under(Int)
    }

    /// What an insertion writes: one splice that adds text and touches no
    /// existing byte.
    public struct Insertion: Sendable {
        /// The one splice that inserts the new text.
        public var splice: Splice
        /// Where the first new item's line starts, counted in the edited bytes
        /// when this splice is the only one.
        public var itemOffset: Int
        /// A section heading the insertion creates, if any.
        public var createdSection: String?
    }

    /// Inserts `blocks` at `placement`; items in `excluding` (and their
    /// subtasks) are not used as neighbours.
    ///
    /// `lineEnding` is the ending to use where the text has none to copy
    /// (by default the document's first, else LF); `mv` and `archive` pass
    /// the file's own, since what is left after removing blocks may have none.
    public static func insert(
        _ blocks: [ItemBlock], into document: Document, at placement: Placement,
        excluding: Set<Int> = [], lineEnding: [UInt8]? = nil
    ) -> Insertion {
        let site = site(for: placement, in: document, excluding: excluding, lineEnding: lineEnding)
        return Insertion(
            splice: Splice.insert(site.text(for: blocks), at: site.offset),
            itemOffset: site.offset + site.lead.count, createdSection: site.createdSection)
    }

    /// Adds a new open item with title `text` (already in its final form).
    public static func add(_ text: String, to document: Document, at placement: Placement) -> Insertion {
        insert([ItemBlock(openItemWithTitle: text)], into: document, at: placement)
    }

    /// The title of a new item: typed `text` (already with ISO dates) with
    /// its tokens in `dialect`, and `due` and `priority` set in it
    /// (replacing tokens of the same kind typed in the text).
    public static func title(_ text: String, due: TaskDate?, priority: Priority?, dialect: MetadataDialect) -> String {
        var changes: [TokenEdit.Change] = []
        if let priority { changes.append(.setPriority(priority)) }
        if let due { changes.append(.setDate(.due, due)) }
        let text = TokenEdit.title(text, in: dialect)
        guard !changes.isEmpty else { return text }
        let line = DocumentParser.parse("- [ ] " + text, path: "")
        guard let item = line.items.first,
            let edited = try? Splice.apply(TokenEdit.splices(changes, item: item, in: line, dialect: dialect), to: line.source.bytes)
        else { return text }
        return String(decoding: edited.dropFirst(6), as: UTF8.self)
    }

    static func site(for placement: Placement, in document: Document, excluding: Set<Int>, lineEnding: [UInt8]? = nil) -> InsertionSite {
        let items = document.items
        let source = document.source
        func live(_ index: Int) -> Bool {
            var current: Int? = index
            while let at = current {
                if excluding.contains(at) { return false }
                current = items[at].parent
            }
            return true
        }
        let defaultShape = ItemShape(
            prefix: [], marker: EditStyle.defaultBullet(in: document), spacing: [0x20],
            lineEnding: source.hasLineEnding ? Array(source.lineEnding.utf8) : (lineEnding ?? Array(source.lineEnding.utf8)))
        switch placement {
        case .under(let parentIndex):
            let parent = items[parentIndex]
            if let anchor = parent.children.last(where: live) { return after(items[anchor], in: document, lineEnding: defaultShape.lineEnding) }
            return afterLine(parent.lastLine, in: document, shape: ItemShape(of: parent, in: document).childShape, blankLine: false)
        case .section(let name):
            let wanted = name.lowercased()
            guard let sectionIndex = document.sections.firstIndex(where: { $0.title.lowercased() == wanted }) else {
                return newSection(name, in: document, shape: defaultShape)
            }
            let inSection = items.filter { $0.depth == 0 && $0.section == sectionIndex && live($0.index) }
            let unquoted = inSection.filter { $0.quoteDepth == 0 }
            if let anchor = (unquoted.isEmpty ? inSection : unquoted).last { return after(anchor, in: document, lineEnding: defaultShape.lineEnding) }
            let section = document.sections[sectionIndex]
            let headingLast = source.line(containing: max(section.range.lowerBound, section.range.upperBound - 1))
            let end =
                sectionIndex + 1 < document.sections.count
                ? source.line(containing: document.sections[sectionIndex + 1].range.lowerBound) - 1 : source.lineCount
            if headingLast < end, let last = (headingLast + 1...end).last(where: { !source.isBlank(line: $0) }) {
                return afterLine(last, in: document, shape: defaultShape, blankLine: true)
            }
            return afterLine(headingLast, in: document, shape: defaultShape, blankLine: false)
        case .endOfList:
            let candidates = items.filter { $0.depth == 0 && live($0.index) }
            let unquoted = candidates.filter { $0.quoteDepth == 0 }
            if let anchor = (unquoted.isEmpty ? candidates : unquoted).last {
                return after(anchor, in: document, lineEnding: defaultShape.lineEnding)
            }
            let contentStart = source.hasByteOrderMark ? 3 : 0
            guard
                let last = (1...source.lineCount).last(where: {
                    !source.isBlank(line: $0) && source.rangeWithEnding(ofLine: $0).upperBound > contentStart
                        && !(source.range(ofLine: $0) == 0..<3 && source.hasByteOrderMark)
                })
            else {
                // Only blank lines: the item goes at the end. After a last
                // line of white space without a line ending (`\t`), it starts
                // a line of its own (else the tab would make it code), and
                // the file still ends without a line ending.
                if source.bytes.count > contentStart, let last = source.bytes.last, last != 0x0A && last != 0x0D {
                    return InsertionSite(
                        offset: source.bytes.count, lead: defaultShape.lineEnding, shape: defaultShape,
                        endsWithLineEnding: false)
                }
                return InsertionSite(
                    offset: source.bytes.count > contentStart ? source.bytes.count : contentStart,
                    lead: [], shape: defaultShape, endsWithLineEnding: true)
            }
            let isSectionHeading = document.sections.contains {
                source.line(containing: $0.range.lowerBound) <= last
                    && source.line(containing: max($0.range.lowerBound, $0.range.upperBound - 1)) == last
            }
            return afterLine(last, in: document, shape: defaultShape, blankLine: !isSectionHeading)
        }
    }

    /// Just after `anchor`'s block, in its shape, numbered one on.
    static func after(_ anchor: TaskItem, in document: Document, lineEnding: [UInt8]) -> InsertionSite {
        var shape = ItemShape(of: anchor, in: document)
        if !document.source.hasLineEnding { shape.lineEnding = lineEnding }
        shape.marker = shape.marker(advancedBy: 1)
        return afterLine(anchor.lastLine, in: document, shape: shape, blankLine: false)
    }

    /// After line `line` (and its line ending), optionally after a blank line.
    static func afterLine(_ line: Int, in document: Document, shape: ItemShape, blankLine: Bool) -> InsertionSite {
        let source = document.source
        var shape = shape
        if !source.ending(ofLine: line).isEmpty { shape.lineEnding = Array(source.ending(ofLine: line)) }
        let ending = shape.lineEnding
        let offset = source.rangeWithEnding(ofLine: line).upperBound
        if source.ending(ofLine: line).isEmpty {
            // The last line of a file without a final line ending: keep it so.
            return InsertionSite(offset: offset, lead: ending + (blankLine ? ending : []), shape: shape, endsWithLineEnding: false)
        }
        return InsertionSite(offset: offset, lead: blankLine ? ending : [], shape: shape, endsWithLineEnding: true)
    }

    /// True when most of the file's section headings that have a line
    /// under them have a blank one: a new heading copies that style.
    static func blankLineUnderHeadings(in document: Document) -> Bool {
        let source = document.source
        var blank = 0
        var text = 0
        for section in document.sections {
            let under = source.line(containing: max(section.range.lowerBound, section.range.upperBound - 1)) + 1
            guard under <= source.lineCount, !source.rangeWithEnding(ofLine: under).isEmpty else { continue }
            if source.isBlank(line: under) { blank += 1 } else { text += 1 }
        }
        return blank > text
    }

    /// A new `## name` section at the end of the file, with a blank line
    /// under it when the file's headings have one.
    static func newSection(_ name: String, in document: Document, shape: ItemShape) -> InsertionSite {
        let source = document.source
        let bytes = source.bytes
        let ending = shape.lineEnding
        let contentStart = source.hasByteOrderMark ? 3 : 0
        var lead: [UInt8] = []
        var endsWithLineEnding = true
        if bytes.count > contentStart {
            let lastByte = bytes[bytes.count - 1]
            if lastByte != 0x0A && lastByte != 0x0D {
                lead += ending
                endsWithLineEnding = false
            }
            if !source.isBlank(line: source.lineCount) || !lead.isEmpty { lead += ending }
        }
        lead += Array("## \(name)".utf8) + ending + (blankLineUnderHeadings(in: document) ? ending : [])
        return InsertionSite(
            offset: bytes.count, lead: lead, shape: shape, endsWithLineEnding: endsWithLineEnding,
            createdSection: name)
    }
}
