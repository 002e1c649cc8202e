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
    /// a whole listing (200,000 rows of styled text) in memory.
    static func render(_ source: ListingSource, width: Int?, depth: ColorDepth, emit: (String) -> Void) {
        var mainWidth = 0, dueWidth = 0, tagsWidth = 0, listWidth = 0, longestPrefix = 0
        for index in 0..<source.count {
            guard case .row(let row) = source.line(index) else { continue }
            mainWidth = max(mainWidth, row.prefix.width + row.title.width)
            dueWidth = max(dueWidth, row.due.width)
            tagsWidth = max(tagsWidth, row.tags.width)
            listWidth = max(listWidth, row.list.width)
            longestPrefix = max(longestPrefix, row.prefix.width)
        }
        if let width {
            func total() -> Int {
                mainWidth + [dueWidth, tagsWidth, listWidth].filter { $0 > 0 }.reduce(0) { $0 + $1 + gap }
            }
            // Give way in turn: the title down to a comfortable width, then the
            // tags, then the list name, then the title down to its minimum, then the due date.
            func shrinkMain(to floor: Int) {
                if total() > width { mainWidth = max(min(mainWidth, floor), mainWidth - (total() - width)) }
            }
            shrinkMain(to: longestPrefix + comfortableTitle)
            if total() > width, tagsWidth > 0 {
                let excess = total() - width
                tagsWidth = excess >= tagsWidth + gap ? 0 : max(tagsWidth - excess, 0)
            }
            if total() > width, listWidth > 0 { listWidth = max(min(listWidth, 8), listWidth - (total() - width)) }
            shrinkMain(to: longestPrefix + minimumTitle)
            if total() > width, dueWidth > 0 { dueWidth = max(min(dueWidth, 5), dueWidth - (total() - width)) }
            shrinkMain(to: longestPrefix + 4)   // a very narrow terminal: fit, however little is left
        }
        func trimmed(_ line: String) -> String {
            var text = Substring(line)
            while text.last == " " { text.removeLast() }
            return String(text)
        }
        for index in 0..<source.count {
            switch source.line(index) {
            case .blank: emit("")
            case .heading(let text):
                emit(trimmed((width.map { text.truncated(to: $0) } ?? text).rendered(depth)))
            case .row(let row):
                let title = row.title.truncated(to: max(0, mainWidth - row.prefix.width))
                var cells: [(StyledText, Int)] = [(row.prefix + title, mainWidth)]
                for (cell, cellWidth) in [(row.due, dueWidth), (row.tags, tagsWidth), (row.list, listWidth)] where cellWidth > 0 {
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
}

/// The lines of a listing, given by index: held in an array, or built on
/// demand (`ItemTable` asks for each line twice).
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
