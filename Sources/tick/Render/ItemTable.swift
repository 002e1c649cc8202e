import TickRecords
import TickSystem

/// One line of an item listing, cut into the columns `ItemTable` aligns.
struct ItemRow {
    /// Indentation, box and priority marker, in front of the title.
    var prefix: StyledText
    var title: StyledText
    var due: StyledText = StyledText()
    var tags: StyledText = StyledText()
    var list: StyledText = StyledText()
    /// Lines printed under the row (notes), indented under the title.
    var notes: [StyledText] = []
    var notesIndent = 0
}

/// A line of a listing: a heading, a blank, or an item row.
enum ListingLine {
    case heading(StyledText)
    case blank
    case row(ItemRow)
}

/// Lays out item rows in aligned columns (title, due, tags, list) that fit
/// the terminal width. The title keeps the most room: a long list name gives
/// way first (down to 12 columns), then the tags (down to 12), then the title
/// (down to 24), then the list name again (down to 8), then the tags (cut,
/// then dropped), then the list name (cut, then dropped), then the title down
/// to its minimum (12), then the due date. Empty columns take no room; lines
/// never end in spaces.
enum ItemTable {
    static let gap = 2
    static let minimumTitle = 12
    static let comfortableTitle = 24
    /// How far a list name or the tags give way before the title does.
    static let sideColumn = 12
    /// How far they give way before the title goes below `comfortableTitle`.
    static let shortSideColumn = 8

    static func render(_ lines: [ListingLine], width: Int?, depth: ColorDepth) -> [String] {
        var output: [String] = []
        render(ListingSource(lines), width: width, depth: depth) { output.append($0) }
        return output
    }

    /// Lays out the lines of `source` and hands each finished line to `emit`,
    /// in order. The lines are asked for twice, once to measure the columns
    /// and once to print, so a source that builds them on demand never holds
    /// a whole listing (200,000 rows of styled text) in memory. Both passes
    /// take blocks of lines on every core (building a row parses its title:
    /// most of the time of showing a big list), a batch of blocks at a time:
    /// the lines are emitted in order, and after each batch the pages of the
    /// parse cache it read are given back (`ListingSource.finishedBatch`).
    static func render(_ source: ListingSource, width: Int?, depth: ColorDepth, emit: (String) -> Void) {
        let blocks = (source.count + blockSize - 1) / blockSize
        func lines(ofBlock block: Int) -> Range<Int> { block * blockSize..<min(source.count, (block + 1) * blockSize) }
        var widths = ColumnWidths()
        for batchStart in stride(from: 0, to: blocks, by: blocksPerBatch) {
            let measured = Parallel.map(min(blocksPerBatch, blocks - batchStart)) { offset in
                var widths = ColumnWidths()
                for index in lines(ofBlock: batchStart + offset) {
                    if case .row(let row) = source.line(index) { widths.include(row) }
                }
                return widths
            }
            widths = measured.reduce(widths) { $0.merged(with: $1) }
            source.finishedBatch()
        }
        if let width { widths.fit(in: width) }
        for batchStart in stride(from: 0, to: blocks, by: blocksPerBatch) {
            let rendered = Parallel.map(min(blocksPerBatch, blocks - batchStart)) { offset in
                var texts: [String] = []
                for index in lines(ofBlock: batchStart + offset) {
                    render(source.line(index), widths: widths, width: width, depth: depth) { texts.append($0) }
                }
                return texts
            }
            for texts in rendered { texts.forEach(emit) }
            source.finishedBatch()
        }
    }

    /// Lines measured or rendered together by one task, and blocks rendered
    /// before their lines are emitted.
    static let blockSize = 2048
    static let blocksPerBatch = 8

    /// The widths of the columns: the widest cell of each, then cut to fit
    /// the terminal.
    private struct ColumnWidths {
        var main = 0, due = 0, tags = 0, list = 0, longestPrefix = 0

        mutating func include(_ row: ItemRow) {
            main = max(main, row.prefix.width + row.title.width)
            due = max(due, row.due.width)
            tags = max(tags, row.tags.width)
            list = max(list, row.list.width)
            longestPrefix = max(longestPrefix, row.prefix.width)
        }

        func merged(with other: ColumnWidths) -> ColumnWidths {
            ColumnWidths(
                main: max(main, other.main), due: max(due, other.due), tags: max(tags, other.tags),
                list: max(list, other.list), longestPrefix: max(longestPrefix, other.longestPrefix))
        }

        /// Gives way in turn, as the type's comment says, until the row
        /// fits in `width` (or nothing is left to give).
        mutating func fit(in width: Int) {
            func total() -> Int {
                main + [due, tags, list].filter { $0 > 0 }.reduce(0) { $0 + $1 + gap }
            }
            /// Shrinks a column by the excess, not below `floor` (a column
            /// already narrower is left alone); below `dropBelow` it goes.
            func shrink(_ column: WritableKeyPath<ColumnWidths, Int>, to floor: Int, dropBelow: Int = 0) {
                let current = self[keyPath: column]
                guard total() > width, current > 0 else { return }
                let shrunk = max(min(current, floor), current - (total() - width))
                self[keyPath: column] = shrunk < dropBelow ? 0 : shrunk
            }
            shrink(\.list, to: sideColumn)
            shrink(\.tags, to: sideColumn)
            shrink(\.main, to: longestPrefix + comfortableTitle)
            shrink(\.list, to: shortSideColumn)
            shrink(\.tags, to: 0, dropBelow: shortSideColumn)
            shrink(\.list, to: 0, dropBelow: 4)
            shrink(\.main, to: longestPrefix + minimumTitle)
            shrink(\.due, to: 5)
            shrink(\.main, to: longestPrefix + 4) // a very narrow terminal: fit, however little is left
        }
    }

    /// The printed lines of one listing line: a row is followed by its notes.
    private static func render(_ line: ListingLine, widths: ColumnWidths, width: Int?, depth: ColorDepth, emit: (String) -> Void) {
        func trimmed(_ line: String) -> String {
            var text = Substring(line)
            while text.last == " " { text.removeLast() }
            return String(text)
        }
        switch line {
        case .blank: emit("")
        case .heading(let text):
            emit(trimmed((width.map { text.truncated(to: $0) } ?? text).rendered(depth)))
        case .row(let row):
            let title = row.title.truncated(to: max(0, widths.main - row.prefix.width))
            var cells: [(StyledText, Int)] = [(row.prefix + title, widths.main)]
            for (cell, cellWidth) in [(row.due, widths.due), (row.tags, widths.tags), (row.list, widths.list)] where cellWidth > 0 {
                cells.append((cell.truncated(to: cellWidth), cellWidth))
            }
            // Drop empty trailing cells so that no line ends in spaces.
            while cells.count > 1, cells.last!.0.isEmpty { cells.removeLast() }
            // Each cell is rendered on its own, then padded with plain
            // spaces: the same text as padding the cells and rendering
            // them as one (plain spaces carry no escape sequence), with no
            // styled copy of the row.
            var text = ""
            for (index, (cell, cellWidth)) in cells.enumerated() {
                text += cell.rendered(depth)
                if index < cells.count - 1 { text += String(repeating: " ", count: max(0, cellWidth + gap - cell.width)) }
            }
            emit(trimmed(text))
            for note in row.notes {
                let indented = StyledText(String(repeating: " ", count: row.notesIndent)) + note
                emit(trimmed((width.map { indented.truncated(to: $0) } ?? indented).rendered(depth)))
            }
        }
    }
}

struct ListingSource {
    let count: Int
    let line: (Int) -> ListingLine
    /// The items the lines are read from, whose parse cache pages are
    /// given back after each batch of lines (`finishedBatch`).
    let items: [EncodedListedItem]

    init(count: Int, readingFrom items: [EncodedListedItem] = [], line: @escaping (Int) -> ListingLine) {
        self.count = count
        self.items = items
        self.line = line
    }

    /// Called after each batch of lines is measured or printed: the pages
    /// of the parse cache they were read from can be let go.
    func finishedBatch() { items.releaseCachePages() }

    init(_ lines: [ListingLine]) {
        self.init(count: lines.count) { lines[$0] }
    }
}
