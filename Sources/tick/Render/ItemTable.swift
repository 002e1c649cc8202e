import TickKit

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
/// the terminal width: the title gives way first (down to 24 columns), then
/// the tags, then the list name, then the title again. Empty columns take no
/// room; lines never end in spaces.
enum ItemTable {
    static let gap = 2
    static let minimumTitle = 12
    static let comfortableTitle = 24

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
    /// most of the time of showing a big list); the lines are emitted a batch
    /// of blocks at a time, in order.
    static func render(_ source: ListingSource, width: Int?, depth: ColorDepth, emit: (String) -> Void) {
        let blocks = (source.count + blockSize - 1) / blockSize
        func lines(ofBlock block: Int) -> Range<Int> { block * blockSize..<min(source.count, (block + 1) * blockSize) }
        let measured = Parallel.map(blocks) { block in
            var widths = ColumnWidths()
            for index in lines(ofBlock: block) {
                if case .row(let row) = source.line(index) { widths.include(row) }
            }
            return widths
        }
        var widths = measured.reduce(ColumnWidths()) { $0.merged(with: $1) }
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
            ColumnWidths(main: max(main, other.main), due: max(due, other.due), tags: max(tags, other.tags),
                         list: max(list, other.list), longestPrefix: max(longestPrefix, other.longestPrefix))
        }

        /// Gives way in turn: the title down to a comfortable width, then
        /// the tags, then the list name, then the title down to its minimum,
        /// then the due date.
        mutating func fit(in width: Int) {
            func total() -> Int {
                main + [due, tags, list].filter { $0 > 0 }.reduce(0) { $0 + $1 + gap }
            }
            func shrinkMain(to floor: Int) {
                if total() > width { main = max(min(main, floor), main - (total() - width)) }
            }
            shrinkMain(to: longestPrefix + comfortableTitle)
            if total() > width, tags > 0 {
                let excess = total() - width
                tags = excess >= tags + gap ? 0 : max(tags - excess, 0)
            }
            if total() > width, list > 0 { list = max(min(list, 8), list - (total() - width)) }
            shrinkMain(to: longestPrefix + minimumTitle)
            if total() > width, due > 0 { due = max(min(due, 5), due - (total() - width)) }
            shrinkMain(to: longestPrefix + 4)   // a very narrow terminal: fit, however little is left
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
            var text = StyledText()
            for (index, (cell, cellWidth)) in cells.enumerated() {
                let isLast = index == cells.count - 1
                text.append(isLast ? cell : cell.padded(to: cellWidth + gap))
            }
            emit(trimmed(text.rendered(depth)))
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

    init(count: Int, line: @escaping (Int) -> ListingLine) {
        self.count = count
        self.line = line
    }

    init(_ lines: [ListingLine]) {
        self.init(count: lines.count) { lines[$0] }
    }
}
