import TickModel
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

    /// Builds the row's cells into `cells`, as `ItemsView.row` would have.
    func build<Cells: RowCells>(into cells: inout Cells) {
        cells.append(prefix, to: .prefix)
        cells.append(title, to: .title)
        cells.append(due, to: .due)
        cells.append(tags, to: .tags)
        cells.append(list, to: .list)
        for note in notes { cells.appendNote(note, indent: notesIndent) }
    }
}

/// A cell of a row, in the order a row's cells are built (notes come after them, through `appendNote`).
enum RowCell: Int {
    case prefix, title, due, tags, list
}

/// Where a row is built: its cells in `RowCell` order (a cell may be left
/// out, none comes back), then its notes. `ItemsView.row` builds a row into
/// either kind: styled text (`ItemRow`, for rows cut to fit and for
/// tests), or the printed bytes a listing keeps (`RowBytes`). Both give the
/// same text and widths as the styled text of each cell.
protocol RowCells {
    /// Appends styled text to `cell`.
    mutating func append(_ text: StyledText, to cell: RowCell)
    /// Appends the prefix of a row of an item with `status`, `priority`
    /// and `depth` (`ItemStyle.RowPrefixes.prefix`) to the prefix cell;
    /// returns its width.
    mutating func appendPrefix(_ prefixes: ItemStyle.RowPrefixes, status: TaskStatus, priority: Priority, depth: Int) -> Int
    /// Appends `text`, its control characters made visible, in `style`.
    mutating func append(_ text: String, _ style: TextStyle, to cell: RowCell)
    /// Appends the text `text` holds, as `append(text.string, style, to: cell)`.
    mutating func append(_ text: EncodedText, _ style: TextStyle, to cell: RowCell)
    /// Appends printable ASCII `text` (a column a byte), as
    /// `append(String(decoding: text, as: UTF8.self), style, to: cell)`.
    mutating func append(ascii text: UnsafeBufferPointer<UInt8>, _ style: TextStyle, to cell: RowCell)
    /// Appends the item's tags, `#tag #other`, in `style` to the tags cell,
    /// as `append(ItemStyle.tagsText(item.tags.map(\.string)), style, to: .tags)` does.
    mutating func appendTags(of item: EncodedListedItem, _ style: TextStyle)
    /// Adds a line under the row, indented by `indent` columns.
    mutating func appendNote(_ note: StyledText, indent: Int)
}

extension ItemRow: RowCells {
    /// An empty row, to build into.
    init() { self.init(prefix: StyledText(), title: StyledText()) }

    mutating func append(_ text: StyledText, to cell: RowCell) {
        switch cell {
        case .prefix: prefix.append(text)
        case .title: title.append(text)
        case .due: due.append(text)
        case .tags: tags.append(text)
        case .list: list.append(text)
        }
    }

    mutating func appendPrefix(_ prefixes: ItemStyle.RowPrefixes, status: TaskStatus, priority: Priority, depth: Int) -> Int {
        let prefix = prefixes.prefix(status: status, priority: priority, depth: depth)
        append(prefix, to: .prefix)
        return prefix.width
    }

    mutating func append(_ text: String, _ style: TextStyle, to cell: RowCell) { append(StyledText(text, style), to: cell) }

    mutating func append(_ text: EncodedText, _ style: TextStyle, to cell: RowCell) { append(text.string, style, to: cell) }

    mutating func append(ascii text: UnsafeBufferPointer<UInt8>, _ style: TextStyle, to cell: RowCell) {
        append(String(decoding: text, as: UTF8.self), style, to: cell)
    }

    mutating func appendTags(of item: EncodedListedItem, _ style: TextStyle) {
        append(ItemStyle.tagsText(item.tags.map(\.string)), style, to: .tags)
    }

    mutating func appendNote(_ note: StyledText, indent: Int) {
        notes.append(note)
        notesIndent = indent
    }
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

    /// Lays out the lines of `source` and hands each finished line to
    /// `emit`, in order, without its line feed. (For tests and short
    /// listings; `write` is the one that prints.)
    static func render(_ source: ListingSource, width: Int?, depth: ColorDepth, emit: (String) -> Void) {
        var pending: [UInt8] = []
        write(source, width: width, depth: depth) { pending.append(contentsOf: $0) }
        for line in pending.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            emit(String(decoding: line, as: UTF8.self))
        }
    }

    /// Lays out the lines of `source` and hands the printed bytes to
    /// `write`, each line ended by a line feed.
    ///
    /// Each line is built once (`BuiltLines`): in the order its item's
    /// record lies in the parse cache, on every core, a batch of lines at a
    /// time, the cache's pages given back after each batch, so that a
    /// listing in any order (by due date, by priority) reads the cache front
    /// to back and holds a batch's pages, not the file's. What is kept of a
    /// line is its cells as printed bytes and their widths (tens of bytes a
    /// row, not styled text); the columns are measured on them. Then the
    /// lines are laid out in the listing's order, a chunk of
    /// `linesPerWrittenChunk` lines on each core, and written in order as
    /// they are done; a row that must be cut to fit the terminal is cut as
    /// it is laid out (`printFitting`).
    ///
    /// A listing of more than `keepingAtMost` lines is not kept: it is
    /// measured first and built again as it is written, so that its memory
    /// does not grow with it: a run of lines at a time when its rows are
    /// (mostly) in the cache's order, as a listing in manual order is
    /// (`writeMeasuringFirst`), a window of lines built in the cache's
    /// order otherwise (`writeInWindows`).
    ///
    /// With `cuttingEveryRow` (for tests) every row is printed cut from its
    /// styled text: the reference the kept bytes, and the rows cut from
    /// bytes, are checked against.
    /// (`keepingAtMost` and `windowsOf` are small in tests.)
    static func write(
        _ source: ListingSource, width: Int?, depth: ColorDepth, cuttingEveryRow: Bool = false,
        keepingAtMost limit: Int = keptLinesLimit, windowsOf window: Int = windowLines, to write: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        // Taken out of the source once, not optional: an optional closure
        // unwrapped for each line was retained and released, on every core
        // at once.
        let writesRows = source.writeRow != nil
        let writeRow = source.writeRow ?? { _, _ in false }
        let build = { (index: Int, bytes: inout [UInt8]) -> RenderedLine in
            if writesRows {
                var cells = RowBytes(depth: depth, taking: &bytes)
                let isRow = writeRow(index, &cells)
                let line = cells.finish(into: &bytes)
                if isRow { return line }
            }
            return RenderedLine(source.line(index), width: width, depth: depth, into: &bytes)
        }
        // A row that must be cut (`kept` is what was built of it, at
        // `keptBytes`) is cut from its bytes where it can be
        // (`cutFromBytes`), else built again with its cells cut (`RowBytes`
        // with cut limits) when the text to cut is printable ASCII and it
        // has no notes, and laid out as a row that fits; otherwise it is
        // printed cut from its styled text. With `cuttingEveryRow`, always
        // the last: the reference the tests compare the rows cut from bytes
        // with. (`bytes` is not the array `keptBytes` lies in.)
        let buildCut = {
            (index: Int, kept: RenderedLine, keptBytes: UnsafeBufferPointer<UInt8>, widths: ColumnWidths, bytes: inout [UInt8]) -> RenderedLine in
            let start = bytes.count
            if !cuttingEveryRow {
                let limits = kept.cutLimits(widths)
                if let cut = kept.cutFromBytes(keptBytes, to: limits, into: &bytes) { return cut }
                if writesRows, kept.isRow, kept.end == kept.listEnd {
                    var cells = RowBytes(depth: depth, taking: &bytes, cutTo: limits)
                    let isRow = writeRow(index, &cells)
                    let isExact = cells.cutIsExact
                    let line = cells.finish(into: &bytes)
                    if isRow, isExact { return line }
                    bytes.removeSubrange(start...)
                }
            }
            appendCut(source.line(index), widths: widths, width: width, depth: depth, to: &bytes)
            return RenderedLine(printed: start..<bytes.count - 1)
        }
        // A line built into `bytes`, laid out in `widths`: as it is, or cut
        // into `scratch` when it does not fit.
        let printFitting = {
            (
                index: Int, line: RenderedLine, bytes: UnsafeBufferPointer<UInt8>, widths: ColumnWidths, scratch: inout [UInt8],
                printed: inout ByteOutput
            ) in
            guard line.mustBeCut(widths: widths, width: width, everyRow: cuttingEveryRow) else {
                return line.write(from: bytes, widths: widths, to: &printed)
            }
            scratch.removeAll(keepingCapacity: true)
            let cut = buildCut(index, line, bytes, widths, &scratch)
            scratch.withUnsafeBufferPointer { cut.write(from: $0, widths: widths, to: &printed) }
        }
        if source.count > limit {
            let widths = measure(source, width: width, build: build)
            if source.rowsMostlyInCacheOrder {
                writeMeasuringFirst(source, widths: widths, build: build, printFitting: printFitting, to: write)
            } else {
                writeInWindows(
                    source, windowsOf: window, widths: widths, width: width, cuttingEveryRow: cuttingEveryRow, build: build,
                    buildCut: buildCut, to: write)
            }
            return
        }
        let listing = BuiltLines(of: source, build: build)
        var widths = ColumnWidths()
        for chunk in listing.chunks {
            for line in chunk.kept where line.isRow { widths.include(line) }
        }
        if let width { widths.fit(in: width) }
        // The kept lines are laid out in the listing's order, a chunk of
        // lines on each core; a row that must be cut is cut as it is
        // written (none, when the columns are as wide as their widest
        // cells: output that is not a terminal).
        let fitted = widths
        writeInOrder(writtenChunks(0..<source.count), to: write) { lines, scratch, printed in
            listing.forEachKept(lines) { index, bytes, line in printFitting(index, line, bytes, fitted, &scratch.cut, &printed) }
        }
        // Freed, the chunks' bytes (most a mapping of their own) were unmapped
        // one by one after the output was written: 26 system calls at the
        // end of `today` at 5,000 notes.
        KeptUntilExit.keep(listing.chunks)
    }

    /// Prints the lines of each range of `ranges` (`printLines` appends
    /// the range's lines' bytes to its output, and may use the scratch
    /// buffers, the range's own, as it likes), a range on each core, four
    /// at most at once, and hands the ranges' bytes to `write` in order as
    /// they are done; `written` is told each range once its bytes are
    /// written.
    private static func writeInOrder(
        _ ranges: [Range<Int>], to write: (UnsafeBufferPointer<UInt8>) -> Void, written: (Range<Int>) -> Void = { _ in },
        printLines: (Range<Int>, _ scratch: inout LineScratch, _ printed: inout ByteOutput) -> Void
    ) {
        var delivered = 0
        Parallel.orderedChunks(ranges.count, inFlight: 4, capacity: 1024 * 256) { range, output in
            var scratch = LineScratch()
            printLines(ranges[range], &scratch, &output)
        } deliver: { bytes in
            write(bytes)
            written(ranges[delivered])
            delivered += 1
        }
    }

    /// The most lines a listing keeps built: kept rows take about 290
    /// bytes each (their printed cells and widths), so about 95 MB. A
    /// longer listing is measured first (`measure`), then built again as
    /// it is written, a few runs or a window of lines at a time
    /// (`writeMeasuringFirst`, `writeInWindows`): each line is built twice,
    /// but at 50,000 notes `tick all` (700,000 rows) peaks near 190 MB,
    /// where keeping its rows took 290, and `query open --sort title` (a
    /// million rows) took 280.
    static let keptLinesLimit = 327_680

    /// The columns' widths of a listing, every line built once, in the
    /// cache's order (`ListingSource.inCacheOrder`), and only the widths
    /// kept; fitted to `width`.
    private static func measure(_ source: ListingSource, width: Int?, build: (Int, inout [UInt8]) -> RenderedLine) -> ColumnWidths {
        var widths = ColumnWidths()
        source.inCacheOrder { chunkLines in
            var chunkWidths = ColumnWidths()
            var bytes: [UInt8] = []
            source.forEachPrefetching(chunkLines) { index in
                bytes.removeAll(keepingCapacity: true)
                let line = build(index, &bytes)
                if line.isRow { chunkWidths.include(line) }
            }
            return chunkWidths
        } collect: { measured in
            for chunkWidths in measured { widths.include(chunkWidths) }
        }
        if let width { widths.fit(in: width) }
        return widths
    }

    /// Writes a listing measured first whose rows lie close together in
    /// the cache (in manual order): each line is built again in the
    /// listing's order, a run of lines on each core
    /// (`ListingSource.runs`: short where the rows lie far apart in the
    /// cache), and the runs are written in order as they are done
    /// (`Parallel.orderedChunks`), each run's pages given back once it is
    /// written. Each line is printed as `write` prints it (`printFitting`).
    private static func writeMeasuringFirst(
        _ source: ListingSource, widths: ColumnWidths, build: (Int, inout [UInt8]) -> RenderedLine,
        printFitting: (Int, RenderedLine, UnsafeBufferPointer<UInt8>, ColumnWidths, inout [UInt8], inout ByteOutput) -> Void,
        to write: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        // Each run's own pages are given back once it is written, not as
        // `WrittenCachePages` gives them back: the runs here are written
        // while four others are built, and giving back the span of several
        // runs made `scheduled` at 50,000 notes a fifth slower (its rows
        // run through the cache once per day).
        let giveBackPages = { (run: Range<Int>) in source.releasePages(of: run) }
        writeInOrder(source.runs(ofAtMost: 1024, spanningAtMost: 8 << 20), to: write, written: giveBackPages) { lines, scratch, printed in
            source.forEachPrefetching(lines) { index in
                scratch.built.removeAll(keepingCapacity: true)
                let line = build(index, &scratch.built)
                scratch.built.withUnsafeBufferPointer { printFitting(index, line, $0, widths, &scratch.cut, &printed) }
            }
        }
    }

    /// Writes a listing measured first whose rows lie scattered over the
    /// cache (sorted by title or by list), a window of `window` lines
    /// (`windowLines`; tests make it small) at a time: each window's lines are built in the order their items
    /// lie in the cache, in stretches that span at most 4 MB of it, on
    /// every core, each stretch's pages given back once it is built; then
    /// the window is printed in the listing's order. Built in the listing's
    /// order, each row would map the cache's pages around it again (the
    /// kernel maps up to 2 MB around a fault), and kept whole, a million
    /// rows took 280 MB.
    private static func writeInWindows(
        _ source: ListingSource, windowsOf windowLines: Int, widths: ColumnWidths, width: Int?, cuttingEveryRow: Bool,
        build: (Int, inout [UInt8]) -> RenderedLine,
        buildCut: (Int, RenderedLine, UnsafeBufferPointer<UInt8>, ColumnWidths, inout [UInt8]) -> RenderedLine,
        to write: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        for start in stride(from: 0, to: source.count, by: windowLines) {
            let window = start..<min(source.count, start + windowLines)
            // The window's lines of no item first, then its rows in the cache's order.
            let keyed = window.map { (line: $0, order: source.cacheOrder($0)) }
            let ordered = keyed.sorted { left, right in
                guard let rightOrder = right.order else { return false }
                guard let leftOrder = left.order else { return true }
                return leftOrder < rightOrder
            }.map(\.line)
            let stretches = CachePages.runs(of: ordered.count, atMost: 1024, spanningAtMost: 4 << 20) { source.item(ordered[$0])?.document }
            // A row that must be cut is cut here (`buildCut`), while its
            // pages are mapped, not in the listing's order.
            let built = Parallel.map(stretches.count) { stretch in
                var bytes: [UInt8] = []
                var cutBytes: [UInt8] = []
                var lines: [RenderedLine] = []
                lines.reserveCapacity(stretches[stretch].count)
                source.forEachPrefetching(ordered[stretches[stretch]]) { index in
                    let line = build(index, &bytes)
                    guard line.mustBeCut(widths: widths, width: width, everyRow: cuttingEveryRow) else { return lines.append(line) }
                    // Cut into memory of its own, then put where the row was built.
                    cutBytes.removeAll(keepingCapacity: true)
                    let cut = bytes.withUnsafeBufferPointer { buildCut(index, line, $0, widths, &cutBytes) }
                    bytes.removeSubrange(Int(line.start)...)
                    lines.append(cut.moved(by: bytes.count))
                    bytes.append(contentsOf: cutBytes)
                }
                source.releasePages(of: ordered[stretches[stretch]])
                return BuiltLines.Chunk(bytes: bytes, kept: lines)
            }
            // Where each line of the window was built: its stretch and its place in it.
            var builtAt = [(stretch: Int32, place: Int32)](repeating: (0, 0), count: window.count)
            for (stretch, range) in stretches.enumerated() {
                for (place, line) in ordered[range].enumerated() { builtAt[line - start] = (Int32(stretch), Int32(place)) }
            }
            writeInOrder(writtenChunks(window), to: write) { lines, _, printed in
                let placeOfLine = { (line: Int) in (chunk: Int(builtAt[line - start].stretch), place: Int(builtAt[line - start].place)) }
                // Every line fits: rows that did not were cut above.
                BuiltLines.forEach(lines, in: built, at: placeOfLine) { _, bytes, line in line.write(from: bytes, widths: widths, to: &printed) }
            }
        }
    }

    /// The memory a range of lines is printed with, reused line after
    /// line: a line built, and a row cut from it.
    private struct LineScratch {
        var built: [UInt8] = []
        var cut: [UInt8] = []
    }

    /// The lines `writeInWindows` builds and holds at once (about 10 MB).
    static let windowLines = 32_768

    /// The lines laid out together into one output buffer: about 150 KB
    /// of rows, within the buffer `writeInOrder` starts with, so that the
    /// four buffers in flight serve chunk after chunk and the output is
    /// written into memory already touched (a buffer grown, or a chunk
    /// for each buffer, touches fresh pages: a page fault per 4 KB).
    static let linesPerWrittenChunk = 1024

    /// `lines` in chunks of `linesPerWrittenChunk` (the last shorter).
    private static func writtenChunks(_ lines: Range<Int>) -> [Range<Int>] {
        stride(from: lines.lowerBound, to: lines.upperBound, by: linesPerWrittenChunk).map {
            $0..<min(lines.upperBound, $0 + linesPerWrittenChunk)
        }
    }

    /// Lines built together by one task, and tasks built before the
    /// cache's pages are given back: a batch of 16,384 lines in small
    /// tasks, so that neither core waits long for the other at the end
    /// (four tasks of 4,096 kept the cores 1.65 busy of 2).
    static let chunkSize = 1024
    static let chunksPerBatch = 16
    /// How much of the parse cache a batch's rows may span: a batch of
    /// rows scattered over the cache (a few rows of each list, or rows by
    /// day) mapped most of it before its pages were given back.
    static let batchSpan = 8 << 20

    /// The widths of the columns: the widest cell of each, then cut to fit
    /// the terminal.
    fileprivate struct ColumnWidths {
        var main = 0, due = 0, tags = 0, list = 0, longestPrefix = 0

        mutating func include(_ line: RenderedLine) {
            main = max(main, Int(line.mainWidth))
            due = max(due, Int(line.dueWidth))
            tags = max(tags, Int(line.tagsWidth))
            list = max(list, Int(line.listWidth))
            longestPrefix = max(longestPrefix, Int(line.prefixWidth))
        }

        /// Widens each column to `other`'s, where it is wider.
        mutating func include(_ other: ColumnWidths) {
            main = max(main, other.main)
            due = max(due, other.due)
            tags = max(tags, other.tags)
            list = max(list, other.list)
            longestPrefix = max(longestPrefix, other.longestPrefix)
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

    /// Appends the printed lines of `line` cut to the columns
    /// (`renderStyled`), each ended by a line feed.
    private static func appendCut(_ line: ListingLine, widths: ColumnWidths, width: Int?, depth: ColorDepth, to bytes: inout [UInt8]) {
        renderStyled(line, widths: widths, width: width, depth: depth) { text in
            bytes.append(contentsOf: text.utf8)
            bytes.append(0x0A)
        }
    }

    /// The printed lines of one listing line, from its styled text: a row
    /// is cut to the columns and followed by its notes. A line that must be
    /// cut is printed with it; for one that need not be, `RenderedLine`
    /// writes the same bytes from what it kept (a test checks that).
    private static func renderStyled(_ line: ListingLine, widths: ColumnWidths, width: Int?, depth: ColorDepth, emit: (String) -> Void) {
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

/// A line of a listing as `ItemTable.write` keeps it: the printed bytes
/// of its cells, one after another in its chunk's bytes, and their widths.
/// A heading or a blank line is kept whole, as printed (it takes no part
/// in the columns).
private struct RenderedLine {
    /// Where the line's bytes start and where each cell ends: the main
    /// cell (prefix and title), the due date, the tags, the list name, then
    /// the notes, each ended by a line feed. A heading's bytes all lie
    /// before `mainEnd`.
    var start: Int32 = 0, mainEnd: Int32 = 0, dueEnd: Int32 = 0, tagsEnd: Int32 = 0, listEnd: Int32 = 0, end: Int32 = 0
    /// Where a row's title begins in its main cell: after the prefix's
    /// bytes (the prefix's span may run on into the title).
    var titleStart: Int32 = 0
    /// The widths the columns are measured with (the main cell's is its
    /// prefix's and its title's), and the main cell's own width, which
    /// pads it: the prefix's last space and a title that starts with a
    /// joining mark make one character.
    var prefixWidth: Int32 = 0, mainWidth: Int32 = 0, mainCellWidth: Int32 = 0, dueWidth: Int32 = 0, tagsWidth: Int32 = 0
    var listWidth: Int32 = 0
    /// The widest note, and the columns notes are indented by.
    var notesWidth: Int32 = 0, notesIndent: Int32 = 0
    var isRow = false

    /// An empty line, for `RowBytes` to fill in.
    fileprivate init() {}

    /// The line with its bytes `offset` further on.
    fileprivate func moved(by offset: Int) -> RenderedLine {
        var line = self
        let shift = Int32(offset)
        line.start += shift
        line.titleStart += shift
        line.mainEnd += shift
        line.dueEnd += shift
        line.tagsEnd += shift
        line.listEnd += shift
        line.end += shift
        return line
    }

    /// Lines already printed, at `printed` in the bytes (their line feeds
    /// but the last), written as they are.
    fileprivate init(printed: Range<Int>) {
        start = Int32(printed.lowerBound)
        mainEnd = Int32(printed.upperBound)
        (dueEnd, tagsEnd, listEnd, end) = (mainEnd, mainEnd, mainEnd, mainEnd)
    }

    /// Appends the bytes of `line` to `bytes` and says where they lie.
    init(_ line: ListingLine, width: Int?, depth: ColorDepth, into bytes: inout [UInt8]) {
        if case .row(let row) = line {
            var cells = RowBytes(depth: depth, taking: &bytes)
            row.build(into: &cells)
            self = cells.finish(into: &bytes)
            return
        }
        start = Int32(bytes.count)
        if case .heading(let text) = line {
            let headingStart = bytes.count
            (width.map { text.truncated(to: $0) } ?? text).render(depth, into: &bytes)
            Self.trimTrailingSpaces(&bytes, from: headingStart)
        }
        mainEnd = Int32(bytes.count)
        dueEnd = mainEnd
        tagsEnd = mainEnd
        listEnd = mainEnd
        end = mainEnd
    }

    /// The columns `RowBytes` cuts this row's cells to, to fit `widths`:
    /// those of the cells wider than their column (the title's, the main
    /// column less the prefix), as `ItemTable.renderStyled` cuts them.
    func cutLimits(_ widths: ItemTable.ColumnWidths) -> RowBytes.CutLimits {
        func limit(_ cellWidth: Int32, _ column: Int) -> Int? { column > 0 && Int(cellWidth) > column ? column : nil }
        return RowBytes.CutLimits(
            title: Int(mainWidth) > widths.main ? max(0, widths.main - Int(prefixWidth)) : nil, due: limit(dueWidth, widths.due),
            tags: limit(tagsWidth, widths.tags), list: limit(listWidth, widths.list))
    }

    /// This row with its cells cut to `limits`, cut from its printed bytes
    /// (`bytes`, which its offsets index) and appended to `output`: what
    /// `RowBytes` builds when it builds the row again cut, without reading
    /// the item again (`CutFromBytes`). Nil, with `output` as it was, for a
    /// row with notes or a cell it cannot cut so; such a row is built
    /// again cut.
    func cutFromBytes(_ bytes: UnsafeBufferPointer<UInt8>, to limits: RowBytes.CutLimits, into output: inout [UInt8]) -> RenderedLine? {
        guard isRow, end == listEnd else { return nil }
        let outputStart = output.count
        output.reserveCapacity(outputStart + Int(end - start) + 32)
        var cut = self
        cut.start = Int32(outputStart)
        cut.titleStart = Int32(outputStart) + (titleStart - start)
        /// Appends `cell`, cut to `limit` columns counted from `countFrom`
        /// when there is one, and says where it ends in `output`; nil when
        /// it cannot be cut from its bytes.
        func append(_ cell: Range<Int32>, limit: Int?, countingFrom countFrom: Int32) -> Int32? {
            let range = Int(cell.lowerBound)..<Int(cell.upperBound)
            if let limit {
                guard CutFromBytes.append(bytes, cell: range, countingFrom: Int(countFrom), limit: limit, to: &output) else { return nil }
            } else {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
            }
            return Int32(output.count)
        }
        guard let cutMainEnd = append(start..<mainEnd, limit: limits.title, countingFrom: titleStart),
            let cutDueEnd = append(mainEnd..<dueEnd, limit: limits.due, countingFrom: mainEnd),
            let cutTagsEnd = append(dueEnd..<tagsEnd, limit: limits.tags, countingFrom: dueEnd),
            let cutListEnd = append(tagsEnd..<listEnd, limit: limits.list, countingFrom: tagsEnd)
        else {
            output.removeSubrange(outputStart...)
            return nil
        }
        (cut.mainEnd, cut.dueEnd, cut.tagsEnd, cut.listEnd, cut.end) = (cutMainEnd, cutDueEnd, cutTagsEnd, cutListEnd, cutListEnd)
        // A cut cell is as wide as its limit: the text kept (a column a
        // byte) and the ellipsis; the prefix, which is never cut, runs on
        // into a title that starts with printable ASCII without joining it.
        if let title = limits.title {
            cut.mainWidth = prefixWidth + Int32(title)
            cut.mainCellWidth = cut.mainWidth
        }
        if let due = limits.due { cut.dueWidth = Int32(due) }
        if let tags = limits.tags { cut.tagsWidth = Int32(tags) }
        if let list = limits.list { cut.listWidth = Int32(list) }
        return cut
    }

    /// True for a row with a cell wider than its column, or a note wider
    /// than the terminal (or any row, with `everyRow`): the row is then
    /// cut (`ItemTable.write`'s `buildCut`).
    func mustBeCut(widths: ItemTable.ColumnWidths, width: Int?, everyRow: Bool) -> Bool {
        guard isRow else { return false }
        if everyRow { return true }
        if Int(mainWidth) > widths.main { return true }
        if widths.due > 0, Int(dueWidth) > widths.due { return true }
        if widths.tags > 0, Int(tagsWidth) > widths.tags { return true }
        if widths.list > 0, Int(listWidth) > widths.list { return true }
        if let width, end > listEnd, Int(notesIndent + notesWidth) > width { return true }
        return false
    }

    /// Appends the printed line (and its notes), each ended by a line
    /// feed: the bytes `renderStyled` prints for it.
    func write(from bytes: UnsafeBufferPointer<UInt8>, widths: ItemTable.ColumnWidths, to output: inout ByteOutput) {
        func append(_ range: Range<Int32>) { output.append(UnsafeBufferPointer(rebasing: bytes[Int(range.lowerBound)..<Int(range.upperBound)])) }
        /// Ends the line begun at `start`: its trailing spaces removed, a line feed.
        func endLine(from start: Int) {
            output.removeAll(after: output.withBytes { Self.endTrimmingSpaces(UnsafeBufferPointer(rebasing: $0[start...])) } + start)
            output.append(0x0A)
        }
        let lineStart = output.count
        guard isRow else {
            append(start..<mainEnd)
            output.append(0x0A)
            return
        }
        // The main cell, then each column shown (its range, its width, the
        // column's width), up to the last cell that is not empty; each but
        // the last padded to its column and the gap. (No array per row:
        // this runs once for every row printed.)
        func cell(_ index: Int) -> (range: Range<Int32>, width: Int32, column: Int)? {
            switch index {
            case 0: (start..<mainEnd, mainCellWidth, widths.main)
            case 1: widths.due > 0 ? (mainEnd..<dueEnd, dueWidth, widths.due) : nil
            case 2: widths.tags > 0 ? (dueEnd..<tagsEnd, tagsWidth, widths.tags) : nil
            default: widths.list > 0 ? (tagsEnd..<listEnd, listWidth, widths.list) : nil
            }
        }
        var last = 0
        for index in 1...3 where cell(index).map({ !$0.range.isEmpty }) ?? false { last = index }
        for index in 0...last {
            guard let cell = cell(index) else { continue }
            append(cell.range)
            if index < last { output.append(0x20, count: cell.column + ItemTable.gap - Int(cell.width)) }
        }
        endLine(from: lineStart)
        var noteStart = Int(listEnd)
        while noteStart < Int(end) {
            var noteEnd = noteStart
            while bytes[noteEnd] != 0x0A { noteEnd += 1 }
            let start = output.count
            output.append(0x20, count: Int(notesIndent))
            append(Int32(noteStart)..<Int32(noteEnd))
            endLine(from: start)
            noteStart = noteEnd + 1
        }
    }

    /// Removes the spaces that end the text from `start` on, as
    /// `renderStyled` removes the last character while it is a space: a
    /// space that follows a character it belongs to (a prepended
    /// concatenation mark, U+0600) is not one, so text that is not ASCII
    /// before its spaces is trimmed as a `String`.
    static func trimTrailingSpaces(_ bytes: inout [UInt8], from start: Int) {
        bytes.removeSubrange((start + bytes.withUnsafeBufferPointer { endTrimmingSpaces(UnsafeBufferPointer(rebasing: $0[start...])) })...)
    }

    /// How many bytes of `text` are left once its trailing spaces are
    /// removed, as `trimTrailingSpaces` removes them.
    static func endTrimmingSpaces(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        var end = text.count
        while end > 0, text[end - 1] == 0x20 { end -= 1 }
        guard end < text.count, end > 0, text[end - 1] >= 0x80 else { return end }
        var trimmed = Substring(String(decoding: text, as: UTF8.self))
        while trimmed.last == " " { trimmed.removeLast() }
        return trimmed.utf8.count
    }
}

/// A row written straight into a listing's bytes, as `RenderedLine` keeps
/// it: each cell printed as `StyledText.render` prints that cell (spans of
/// one style run together; the prefix and the title make one cell) and
/// measured as `StyledText` measures it, without building the styled text.
struct RowBytes: RowCells {
    private let depth: ColorDepth
    private var bytes: [UInt8]
    fileprivate var line = RenderedLine()
    /// The cell being built (`RowCell`'s raw value), `notesStage` once the notes have begun.
    private var cell = RowCell.prefix.rawValue
    private static let notesStage = RowCell.list.rawValue + 1
    /// Whether a span is being written, its style, and what ends it.
    private var inSpan = false
    private var spanStyle = TextStyle.plain
    private var spanEnd = StyledText.SpanEnd.none
    /// The widths of the prefix and title together, of the title alone, and of the other cell being built.
    private var main = Measure(), title = Measure(), other = Measure()
    private var prefixWidth = 0
    /// The columns each cell is cut to, for a row built again to fit.
    private let cutLimits: CutLimits?
    /// How the cell being built is cut.
    private var cellCut = CellCut.whole
    private enum CellCut {
        /// The cell is not cut.
        case whole
        /// The cell is cut: this many columns are left for its text (its
        /// limit less the ellipsis).
        case keeping(Int)
        /// The cell has its ellipsis: the rest of its text is left out.
        case ended
    }
    /// False once a cell to cut held text that is not printable ASCII: the
    /// row is then cut from its styled text instead.
    private(set) var cutIsExact = true

    /// The columns a row's cells are cut to, as `StyledText.truncated(to:)`
    /// cuts them (kept text, then `…`); nil for a cell that fits.
    struct CutLimits {
        var title: Int?, due: Int?, tags: Int?, list: Int?

        func limit(of cell: RowCell) -> Int? {
            switch cell {
            case .prefix: nil
            case .title: title
            case .due: due
            case .tags: tags
            case .list: list
            }
        }
    }

    /// A row to be written at the end of `bytes`, which it holds until
    /// `finish`; with `cutLimits`, its cells cut to them, as long as the
    /// text cut is printable ASCII (`cutIsExact`).
    init(depth: ColorDepth, taking bytes: inout [UInt8], cutTo cutLimits: CutLimits? = nil) {
        self.depth = depth
        self.cutLimits = cutLimits
        self.bytes = []
        swap(&self.bytes, &bytes)
        line.start = Int32(self.bytes.count)
        line.isRow = true
    }

    /// Ends the row: gives the bytes back and says where the row's cells lie in them.
    fileprivate mutating func finish(into bytes: inout [UInt8]) -> RenderedLine {
        enter(Self.notesStage)
        line.end = Int32(self.bytes.count)
        swap(&self.bytes, &bytes)
        return line
    }

    mutating func append(_ text: StyledText, to cell: RowCell) {
        for span in text.spans { append(span, to: cell) }
    }

    mutating func appendPrefix(_ prefixes: ItemStyle.RowPrefixes, status: TaskStatus, priority: Priority, depth: Int) -> Int {
        prefixes.forEachSpan(status: status, priority: priority, depth: depth) { text, style, width in
            write(style, to: .prefix, width: width) { $0.append(contentsOf: text) }
        }
    }

    private mutating func append(_ span: StyledText.Span, to cell: RowCell) {
        write(span.style, to: cell, width: span.width) { $0.append(contentsOf: span.text.utf8) }
    }

    mutating func append(_ text: String, _ style: TextStyle, to cell: RowCell) {
        guard !text.isEmpty else { return }
        // Printable ASCII (nearly every date and list name) is its own
        // visible text, a column a byte: one pass over it, not three. Read
        // where it lies: a copy of the text (a list's name, on each of its
        // rows) retained and released it.
        let wasASCII = text.utf8.withContiguousStorageIfAvailable { ascii in
            guard ByteText.isPrintableASCII(ascii) else { return false }
            append(ascii: ascii, style, to: cell)
            return true
        }
        if wasASCII == true { return }
        let visible = TerminalText.safe(text)
        write(style, to: cell, width: DisplayWidth.of(visible)) { $0.append(contentsOf: visible.utf8) }
    }

    mutating func append(_ text: EncodedText, _ style: TextStyle, to cell: RowCell) {
        let source = text.bytes
        // Printable ASCII (most titles) is its own visible text, a column a
        // byte; the cache says so of most titles (`isPlainASCII`).
        guard text.isPlainASCII || ByteText.isPrintableASCII(source) else { return append(text.string, style, to: cell) }
        append(ascii: source, style, to: cell)
    }

    mutating func append(ascii text: UnsafeBufferPointer<UInt8>, _ style: TextStyle, to cell: RowCell) {
        guard !text.isEmpty else { return }
        write(style, to: cell, width: text.count) { $0.append(contentsOf: text) }
    }

    mutating func appendTags(of item: EncodedListedItem, _ style: TextStyle) {
        // Tags of printable ASCII (nearly all) are written from the cache's
        // bytes, a column a byte, with no string made for each tag.
        item.withTags { tags in
            var length = 0
            var isPrintableASCII = true
            for tag in tags {
                length += tag.bytes.count + (length == 0 ? 1 : 2) // "#tag", then " #tag"
                isPrintableASCII = isPrintableASCII && ByteText.isPrintableASCII(tag.bytes)
            }
            guard length > 0 else { return }
            guard isPrintableASCII else { return append(ItemStyle.tagsText(tags.map(\.string)), style, to: .tags) }
            write(style, to: .tags, width: length) { bytes in
                for (index, tag) in tags.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: " ")) }
                    bytes.append(UInt8(ascii: "#"))
                    bytes.append(contentsOf: tag.bytes)
                }
            }
        }
    }

    mutating func appendNote(_ note: StyledText, indent: Int) {
        enter(Self.notesStage)
        line.notesIndent = Int32(indent)
        note.render(depth, into: &bytes)
        bytes.append(0x0A)
        line.notesWidth = max(line.notesWidth, Int32(note.width))
    }

    /// Writes visible text (`body` appends it), `width` columns wide, in
    /// `style` to `cell`; in a cell being cut, only what fits before the
    /// ellipsis.
    private mutating func write(_ style: TextStyle, to cell: RowCell, width: Int, _ body: (inout [UInt8]) -> Void) {
        enter(cell.rawValue)
        switch cellCut {
        case .whole: writeSpan(style, to: cell, width: width, body)
        case .keeping(let left): writeCut(style, to: cell, width: width, keeping: left, body)
        case .ended: return
        }
    }

    /// Writes text that is `width` columns wide to a cell being cut, `left`
    /// columns left for it: the text whole when it fits, else its first
    /// `left` columns and the ellipsis in its style without a link, as
    /// `StyledText.truncated(to:)` cuts a span (text of one byte a column
    /// only: other text may join across spans or be wider).
    private mutating func writeCut(_ style: TextStyle, to cell: RowCell, width: Int, keeping left: Int, _ body: (inout [UInt8]) -> Void) {
        let kept = min(width, left)
        var isPrintableASCII = true
        func keepingPrintableASCII(_ bytes: inout [UInt8]) {
            let start = bytes.count
            body(&bytes)
            isPrintableASCII = Self.isPrintableASCII(bytes, from: start, width: width)
            bytes.removeSubrange(min(bytes.count, start + kept)...)
        }
        if width <= left || kept > 0 {
            writeSpan(style, to: cell, width: kept, keepingPrintableASCII)
        } else {
            var scratch: [UInt8] = []
            keepingPrintableASCII(&scratch)
        }
        cutIsExact = cutIsExact && isPrintableASCII
        guard width > left else {
            cellCut = .keeping(left - width)
            return
        }
        cellCut = .ended
        var ellipsisStyle = style
        ellipsisStyle.link = nil
        writeSpan(ellipsisStyle, to: cell, width: 1) { $0.append(contentsOf: "…".utf8) }
    }

    /// Whether the bytes from `start` on are printable ASCII, `width` of them: text a cut can count a column a byte.
    private static func isPrintableASCII(_ bytes: [UInt8], from start: Int, width: Int) -> Bool {
        width == bytes.count - start && bytes.withUnsafeBufferPointer { ByteText.isPrintableASCII(UnsafeBufferPointer(rebasing: $0[start...])) }
    }

    private mutating func writeSpan(_ style: TextStyle, to cell: RowCell, width: Int, _ body: (inout [UInt8]) -> Void) {
        if !inSpan || spanStyle != style {
            endSpan()
            spanEnd = StyledText.open(style, depth, into: &bytes)
            spanStyle = style
            inSpan = true
        }
        let start = bytes.count
        body(&bytes)
        let text = start..<bytes.count
        switch cell {
        case .prefix: main.add(text, of: bytes, style, width: width)
        case .title:
            main.add(text, of: bytes, style, width: width)
            title.add(text, of: bytes, style, width: width)
        default: other.add(text, of: bytes, style, width: width)
        }
    }

    private mutating func endSpan() {
        guard inSpan else { return }
        spanEnd.append(to: &bytes)
        spanEnd = .none
        inSpan = false
    }

    /// Ends the cells before `next` (a `RowCell`'s raw value or
    /// `notesStage`): the prefix runs on into the title, in one span when
    /// their styles are the same, as they are printed.
    private mutating func enter(_ next: Int) {
        while cell < next {
            if cell != RowCell.prefix.rawValue { endSpan() }
            let here = Int32(bytes.count)
            switch RowCell(rawValue: cell)! {
            case .prefix:
                prefixWidth = main.width
                line.titleStart = here
            case .title:
                line.mainEnd = here
                line.prefixWidth = Int32(prefixWidth)
                line.mainWidth = Int32(prefixWidth + title.width)
                line.mainCellWidth = Int32(main.width)
            case .due: (line.dueEnd, line.dueWidth) = (here, Int32(other.width))
            case .tags: (line.tagsEnd, line.tagsWidth) = (here, Int32(other.width))
            case .list: (line.listEnd, line.listWidth) = (here, Int32(other.width))
            }
            other = Measure()
            cell += 1
            if let limits = cutLimits, let next = RowCell(rawValue: cell) {
                // A limit of 0 leaves nothing, not even the ellipsis.
                cellCut = limits.limit(of: next).map { $0 == 0 ? .ended : .keeping($0 - 1) } ?? .whole
            }
        }
    }

    /// A width measured as `StyledText` measures its text: span by span,
    /// a span that runs on in the same style measured again unless what
    /// it adds starts with ASCII (which cannot join the character before).
    private struct Measure {
        private(set) var width = 0
        /// Whether a span was measured, and its style, width and start.
        private var hasSpan = false
        private var style = TextStyle.plain
        private var spanWidth = 0
        private var spanStart = 0

        /// Adds the text in `range` of `bytes`, `measured` columns wide, in `style`.
        mutating func add(_ range: Range<Int>, of bytes: [UInt8], _ style: TextStyle, width measured: Int) {
            if hasSpan, self.style == style {
                // Nothing written (a piece of no width where a cut leaves
                // no column) adds nothing.
                guard !range.isEmpty else { return }
                let merged =
                    bytes[range.lowerBound] < 0x80
                    ? spanWidth + measured : DisplayWidth.of(String(decoding: bytes[spanStart..<range.upperBound], as: UTF8.self))
                width += merged - spanWidth
                spanWidth = merged
            } else {
                spanWidth = measured
                width += spanWidth
                spanStart = range.lowerBound
                self.style = style
                hasSpan = true
            }
        }
    }
}

/// Lines of a listing built in chunks of `ItemTable.chunkSize` on every
/// core, in the order given, a batch of chunks at a time, with the parse
/// cache's pages given back after each batch: each chunk's printed bytes,
/// and each of its lines as built (where its bytes lie).
private struct BuiltLines {
    struct Chunk {
        var bytes: [UInt8] = []
        var kept: [RenderedLine] = []
    }
    private(set) var chunks: [Chunk] = []
    /// For each line of the listing, its chunk and its place in the chunk.
    private var chunkOfLine: [Int32]
    private var placeOfLine: [Int32]

    /// Builds every line of `source`, in the cache's order.
    init(of source: ListingSource, build: (Int, inout [UInt8]) -> RenderedLine) {
        chunkOfLine = Array(repeating: 0, count: source.count)
        placeOfLine = Array(repeating: 0, count: source.count)
        source.inCacheOrder { chunkLines in
            var chunk = Chunk()
            chunk.kept.reserveCapacity(chunkLines.count)
            chunk.bytes.reserveCapacity(chunkLines.count * Self.bytesPerLineReserved)
            source.forEachPrefetching(chunkLines) { index in chunk.kept.append(build(index, &chunk.bytes)) }
            return (chunk, chunkLines)
        } collect: { built in
            for (chunk, chunkLines) in built {
                for (place, index) in chunkLines.enumerated() {
                    chunkOfLine[index] = Int32(chunks.count)
                    placeOfLine[index] = Int32(place)
                }
                chunks.append(chunk)
            }
        }
    }

    /// The bytes reserved for each line of a chunk before it is built:
    /// more than most rows print (85 bytes on average in the benchmark's
    /// query, 140 at most), so that a chunk's bytes are seldom grown
    /// (copied into fresh memory, twice as large) as its rows are written.
    /// Not much more: a chunk of a few hundred lines comes from a heap
    /// that is paged 2 MB at a time (`HeapPages`), where reserved bytes are
    /// zeroed whether they are written or not. With 512 a line, the text
    /// query at 5,000 notes took 600 more page faults and 2-3% longer.
    static var bytesPerLineReserved: Int { 128 }

    /// Calls `body` with each of `lines` in turn, the bytes of its chunk,
    /// in place, and the line as built.
    func forEachKept(_ lines: Range<Int>, _ body: (Int, UnsafeBufferPointer<UInt8>, RenderedLine) -> Void) {
        Self.forEach(lines, in: chunks, at: { (Int(chunkOfLine[$0]), Int(placeOfLine[$0])) }, body)
    }

    /// Calls `body` with each of `lines` in turn, the bytes of the chunk
    /// it was built in (`place` says which of `chunks`, and where in it),
    /// in place, and the line as built. A chunk's bytes are taken once for
    /// each run of lines built in the same chunk: taken for each line, they
    /// were retained and released for each line, on both cores at once.
    static func forEach(
        _ lines: Range<Int>, in chunks: [Chunk], at place: (Int) -> (chunk: Int, place: Int),
        _ body: (Int, UnsafeBufferPointer<UInt8>, RenderedLine) -> Void
    ) {
        var line = lines.lowerBound
        while line < lines.upperBound {
            let chunk = place(line).chunk
            chunks[chunk].bytes.withUnsafeBufferPointer { bytes in
                while line < lines.upperBound {
                    let at = place(line)
                    guard at.chunk == chunk else { return }
                    body(line, bytes, chunks[chunk].kept[at.place])
                    line += 1
                }
            }
        }
    }
}

/// The lines of a listing, each built when asked for, so that a listing
/// of any size is never held as styled text.
struct ListingSource {
    let count: Int
    let line: (Int) -> ListingLine
    /// Builds line `index` into `cells` when it is an item's row (and says
    /// so): the rows a listing keeps are written straight into bytes, not
    /// built as styled text first. Nil when every line comes from `line`.
    let writeRow: ((Int, inout RowBytes) -> Bool)?
    /// The items the listing's rows show.
    private let items: [EncodedListedItem]
    /// Where the item whose row a line is lies in `items`, nil for any
    /// other line: rows are built in the order their items lie in the
    /// parse cache. (A place, not the item: the orderings below read each
    /// item's place in the cache where it lies in `items`, with no copy,
    /// which would retain and release its list, on one core.)
    private let itemPlace: (Int) -> Int?
    /// Where the bytes of each list the items are of lie
    /// (`EncodedDocument.cachePlace`), by the list's rank, with the list
    /// it was read from: each list is looked at once here, not once for
    /// each of its rows as the rows are ordered (a cache miss each, the
    /// lists lying far apart in memory). An item of another list of the
    /// same rank (items of several folders) is looked at itself.
    private let listPlaces: [(list: ObjectIdentifier?, place: Int, mapped: Int)]
    /// Whether the list of some rank's first row lies in a mapping that
    /// gives its pages back (`inCacheOrder` looks at the other lists).
    private let givesPagesBack: Bool

    init(
        count: Int, items: [EncodedListedItem] = [], itemPlace: @escaping (Int) -> Int? = { _ in nil },
        line: @escaping (Int) -> ListingLine, writeRow: ((Int, inout RowBytes) -> Bool)? = nil
    ) {
        self.count = count
        self.items = items
        self.itemPlace = itemPlace
        self.line = line
        self.writeRow = writeRow
        var places = [(list: ObjectIdentifier?, place: Int, mapped: Int)](
            repeating: (nil, 0, 0), count: (items.lazy.map(\.listRank).max() ?? -1) + 1)
        var givesPagesBack = false
        items.withUnsafeBufferPointer { items in
            for place in items.indices where places[items[place].listRank].list == nil {
                // Lists asked for ahead: each is read here first, a cache miss in turn.
                if place + 64 < items.count { EncodedListedItem.prefetchList(of: items, at: place + 64) }
                let document = items[place].document
                places[items[place].listRank] = (ObjectIdentifier(document), document.cachePlace, document.mappedPosition)
                givesPagesBack = givesPagesBack || document.mapping?.givesPagesBack == true
            }
        }
        listPlaces = places
        self.givesPagesBack = givesPagesBack
    }

    init(_ lines: [ListingLine]) {
        self.init(count: lines.count) { lines[$0] }
    }

    /// The item whose row line `line` is, nil for any other line.
    func item(_ line: Int) -> EncodedListedItem? { itemPlace(line).map { items[$0] } }

    /// Where the record of line `line`'s item lies in the parse cache, nil
    /// for a line of no item.
    func cacheOrder(_ line: Int) -> EncodedListedItem.CacheOrder? { rowPlace(line)?.order }

    /// Where line `line`'s item lies: its record's place in the cache, and
    /// where its list lies in the cache's mapping (0 for a list not read
    /// from the cache); nil for a line of no item.
    private func rowPlace(_ line: Int) -> (order: EncodedListedItem.CacheOrder, mapped: Int)? {
        guard let place = itemPlace(line) else { return nil }
        guard let known = listOfItem(at: place).known else { return (items[place].cacheOrder, items[place].document.mappedPosition) }
        return (EncodedListedItem.CacheOrder(listPlace: known.place, index: items[place].index), known.mapped)
    }

    /// The list of the item at `place` in `items`: who it is, and where it
    /// lies (`listPlaces`) when it is the list of its rank (nil for another
    /// list of that rank). Read where the item lies: a copy of it would
    /// retain and release its list, for every row, on one core.
    private func listOfItem(at place: Int) -> (identity: ObjectIdentifier, known: (place: Int, mapped: Int)?) {
        let identity = ObjectIdentifier(items[place].document)
        let ranked = listPlaces[items[place].listRank]
        return (identity, ranked.list == identity ? (ranked.place, ranked.mapped) : nil)
    }

    /// Calls `body` with each of `lines` in turn, having asked the processor
    /// for what building a row reads first: the list object of the item
    /// twelve lines ahead, its record eight ahead, and its title four ahead
    /// (its record asked for by then). Rows built in the cache's order still
    /// lie apart (a list's matching items among the others, its records
    /// apart from its texts, each list an object of its own), where the
    /// processor cannot guess; unasked, each row waited for them in turn,
    /// after the filter's pass had let them go from the caches. The items
    /// are read where they lie (a copy of one retains its list).
    func forEachPrefetching<Lines: RandomAccessCollection<Int>>(_ lines: Lines, _ body: (Int) -> Void) where Lines.Index == Int {
        let end = lines.endIndex
        items.withUnsafeBufferPointer { items in
            for position in lines.indices {
                if position + 12 < end, let place = itemPlace(lines[position + 12]) { EncodedListedItem.prefetchList(of: items, at: place) }
                if position + 8 < end, let place = itemPlace(lines[position + 8]) { EncodedListedItem.prefetchRecord(of: items, at: place) }
                if position + 4 < end, let place = itemPlace(lines[position + 4]) { EncodedListedItem.prefetchTitle(of: items, at: place) }
                body(lines[position])
            }
        }
    }

    /// Adds the lists of the rows among `lines` to `pages`.
    private func includeLists(of lines: some Sequence<Int>, in pages: inout CachePages) {
        pages.include(listsOf: items, at: lines.compactMap(itemPlace))
    }

    /// Gives back the parse cache's pages of the lists of the rows among `lines`.
    func releasePages(of lines: some Sequence<Int>) {
        var pages = CachePages()
        includeLists(of: lines, in: &pages)
        pages.release()
    }

    /// Runs `build` on every line in the
    /// order they are best built in: the lines of no item first, in order,
    /// then the rows in the order their items' records lie in the parse
    /// cache (`EncodedListedItem.cacheOrder`; an item listed twice, by
    /// line): a list at a time, the lists in the order they lie in the
    /// cache, each list's rows by their items' places in it. The lines are
    /// cut into batches of `ItemTable.chunksPerBatch` chunks of
    /// `ItemTable.chunkSize`, or fewer when their rows' lists span more
    /// than `ItemTable.batchSpan` of the cache; the chunks go to `build` on
    /// every core, taken in order with no wait between batches
    /// (`Parallel.inOrder`), and each batch's results go to `collect` in
    /// order, one batch at a time, once all of its chunks are built. The
    /// cache's pages are given back as `WrittenCachePages` gives them back
    /// (after each batch: a full one holds more than 4,096 lines, one cut
    /// short spans 8 MB). (`span` is `ItemTable.batchSpan`; tests make it
    /// small.)
    ///
    /// Each row is chained to the next row of its list (4 bytes a line),
    /// so no order of all the rows is sorted. (A merge of the runs in which
    /// the rows ascend in the cache was a seventh of the CPU of a listing
    /// sorted by title, whose runs are a row or two long.)
    func inCacheOrder<Result>(
        spanningAtMost span: Int = ItemTable.batchSpan,
        _ build: (ArraySlice<Int>) -> Result, collect: ([Result]) -> Void
    ) {
        let (order, batchEnds, otherListsGivePagesBack) = cacheOrder(spanningAtMost: span)
        // Which pages each chunk read is noted only when some are given back.
        let notesPages = givesPagesBack || otherListsGivePagesBack
        // Each batch cut into chunks: where each chunk ends in `order`, and
        // whether it ends its batch.
        var chunks: [(end: Int, endsBatch: Bool)] = []
        var batchStart = 0
        for batchEnd in batchEnds {
            for end in stride(from: batchStart + ItemTable.chunkSize, to: batchEnd, by: ItemTable.chunkSize) {
                chunks.append((end, false))
            }
            chunks.append((batchEnd, true))
            batchStart = batchEnd
        }
        var pages = WrittenCachePages()
        var batch: [Result] = []
        var batchLines = 0
        Parallel.inOrder(chunks.count, inFlight: 2 * ItemTable.chunksPerBatch) { chunk in
            let start = chunk == 0 ? 0 : chunks[chunk - 1].end
            let lines = order[start..<chunks[chunk].end].map { Int($0) }[...]
            // Each chunk also says which lists it read, on its own core.
            var read = CachePages()
            if notesPages { includeLists(of: lines, in: &read) }
            return (result: build(lines), read: read, count: lines.count)
        } take: { chunk, built in
            batch.append(built.result)
            pages.include(built.read)
            batchLines += built.count
            guard chunks[chunk].endsBatch else { return }
            pages.written(batchLines, isLast: chunk == chunks.count - 1)
            collect(batch)
            batch.removeAll(keepingCapacity: true)
            batchLines = 0
        }
    }

    /// Every line of the listing in the order `inCacheOrder` builds them
    /// in, where each of its batches ends in that order, and whether a
    /// list not the first of its rank gives its pages back.
    private func cacheOrder(spanningAtMost span: Int) -> (order: [Int32], batchEnds: [Int], otherListsGivePagesBack: Bool) {
        let batchSize = ItemTable.chunkSize * ItemTable.chunksPerBatch
        var order: [Int32] = []
        order.reserveCapacity(count)
        var batchEnds: [Int] = []
        /// Where the batch's first row's list lies in the cache's mapping (0: none yet).
        var batchStart = 0
        func endBatch() {
            batchStart = 0
            batchEnds.append(order.count)
        }
        func add(_ line: Int) {
            order.append(Int32(line))
            if order.count - (batchEnds.last ?? 0) == batchSize { endBatch() }
        }
        // The lines of no item go first; each row joins its list's chain.
        /// The lists the rows are of: where each lies in the cache and in
        /// the mapping, and the lines of its first and last rows.
        var lists: [(place: Int, mapped: Int, first: Int32, last: Int32)] = []
        /// The list (in `lists`) of each rank's list, and of any other list.
        var listOfRank = [Int32](repeating: -1, count: listPlaces.count)
        var otherLists: [ObjectIdentifier: Int32] = [:]
        var otherListsGivePagesBack = false
        /// The line of the next row of the same list, by line (-1: none).
        var nextOfList = [Int32](repeating: -1, count: count)
        for line in 0..<count {
            guard let place = itemPlace(line) else {
                add(line)
                continue
            }
            let rank = items[place].listRank
            let (identity, known) = listOfItem(at: place)
            let list = known != nil ? listOfRank[rank] : otherLists[identity] ?? -1
            guard list >= 0 else {
                let new = Int32(lists.count)
                if let known {
                    listOfRank[rank] = new
                    lists.append((known.place, known.mapped, Int32(line), Int32(line)))
                } else {
                    otherLists[identity] = new
                    let document = items[place].document
                    otherListsGivePagesBack = otherListsGivePagesBack || document.mapping?.givesPagesBack == true
                    lists.append((document.cachePlace, document.mappedPosition, Int32(line), Int32(line)))
                }
                continue
            }
            nextOfList[Int(lists[Int(list)].last)] = Int32(line)
            lists[Int(list)].last = Int32(line)
        }
        var rows: [(index: Int, line: Int)] = []
        for list in lists.indices.sorted(by: { lists[$0].place < lists[$1].place }) {
            rows.removeAll(keepingCapacity: true)
            var line = Int(lists[list].first)
            while line >= 0 {
                rows.append((items[itemPlace(line)!].index, line))
                line = Int(nextOfList[line])
            }
            // Chained in line order: sorted by place only when out of it (ties keep their lines' order).
            if rows.indices.dropFirst().contains(where: { rows[$0].index < rows[$0 - 1].index }) {
                rows.sort { $0.index != $1.index ? $0.index < $1.index : $0.line < $1.line }
            }
            // Rows come in the cache's order: the batch spans from its first row's list to this one.
            let mapped = lists[list].mapped
            for row in rows {
                if mapped != 0 {
                    if batchStart == 0 {
                        batchStart = mapped
                    } else if mapped - batchStart > span {
                        if order.count > (batchEnds.last ?? 0) { endBatch() }
                        batchStart = mapped
                    }
                }
                add(row.line)
            }
        }
        if order.count > (batchEnds.last ?? 0) { batchEnds.append(order.count) }
        return (order, batchEnds, otherListsGivePagesBack)
    }

    /// The lines cut into runs, in order, to be built and written one
    /// after another: each of at most `lines` lines, and of rows whose
    /// lists span at most `bytes` of the parse cache. Rows in manual order
    /// lie close together; rows by day do not (each day's rows run through
    /// the whole cache), and a run of a thousand of them would map most of
    /// it while it is built.
    func runs(ofAtMost lines: Int, spanningAtMost bytes: Int) -> [Range<Int>] {
        CachePages.runs(of: count, atMost: lines, spanningAtMost: bytes) { item($0)?.document }
    }

    /// True when the listing's rows lie in the parse cache's order but for
    /// a few places where they jump back (fewer than one row in 64): a
    /// listing in manual order, whose lists' payloads were all written in
    /// list order or some of them again elsewhere after an edit. Rows
    /// sorted by anything else jump at most rows.
    var rowsMostlyInCacheOrder: Bool {
        var (rows, jumps) = (0, 0)
        var previous: EncodedListedItem.CacheOrder?
        for order in (0..<count).lazy.compactMap(cacheOrder) {
            if let previous, order < previous { jumps += 1 }
            previous = order
            rows += 1
        }
        return jumps * 64 < max(1, rows)
    }
}

/// Cuts a printed cell of a row to a number of columns from its bytes, as
/// `RowBytes` cuts a cell it builds (`writeCut`): the text up to the column
/// before the limit, then `…` in the style of the span it ends without a
/// link, then what ends that span; the rest of the cell is left out.
///
/// A printed cell is spans of text, each opened by a link
/// (`ESC ] 8 ; ; URL ESC \`) and SGR codes (`ESC [ … m`) and ended by
/// `ESC [ 0 m` and `ESC ] 8 ; ; ESC \` (`StyledText.open`, `SpanEnd`), so
/// the style in force at each byte is read from the bytes. Written by hand:
/// it reads only what `StyledText` writes, and is checked against cutting
/// styled text at every width (`RenderingTests`).
private enum CutFromBytes {
    /// Appends the bytes of `cell` in `bytes` cut to `limit` columns
    /// counted from `countFrom` (the title's start, in the main cell: the
    /// prefix before it is kept whole) to `output`; false, with `output`
    /// left for the caller to restore, when the cell cannot be cut from its
    /// bytes: text up to the cut that is not printable ASCII (its columns
    /// are not its bytes), a limit below 2, a cut where two spans meet (the
    /// ellipsis would then join the span before it, which only styles can
    /// tell), or bytes that are not what `StyledText` writes.
    static func append(
        _ bytes: UnsafeBufferPointer<UInt8>, cell: Range<Int>, countingFrom countFrom: Int, limit: Int, to output: inout [UInt8]
    ) -> Bool {
        guard limit >= 2 else { return false }
        var left = limit - 1
        // The span the bytes read so far are in: its link, and its SGR codes.
        var spanHasLink = false
        var spanCodes: Range<Int>? = nil
        /// Whether the last bytes read opened a link: a span's codes follow its link.
        var linkJustOpened = false
        var index = cell.lowerBound
        while index < cell.upperBound {
            if bytes[index] == 0x1B {
                guard let sequence = escapeSequence(in: bytes, at: index, before: cell.upperBound) else { return false }
                switch sequence.kind {
                case .link(let isEmpty):
                    // A link of no address is written as a link's end is:
                    // it ends the link open, else it opens one.
                    if isEmpty && spanHasLink {
                        spanHasLink = false
                    } else {
                        guard !spanHasLink else { return false }
                        spanHasLink = true
                        linkJustOpened = true
                    }
                    spanCodes = nil
                    index = sequence.range.upperBound
                    continue
                case .codes:
                    guard linkJustOpened || !spanHasLink else { return false }
                    spanCodes = sequence.range
                case .reset:
                    spanCodes = nil
                }
                linkJustOpened = false
                index = sequence.range.upperBound
                continue
            }
            linkJustOpened = false
            var textEnd = index
            while textEnd < cell.upperBound, bytes[textEnd] != 0x1B { textEnd += 1 }
            // (Text before `countFrom`, the prefix's, is kept whole.)
            let counted = min(max(index, countFrom), textEnd)..<textEnd
            if !counted.isEmpty {
                guard ByteText.isPrintableASCII(UnsafeBufferPointer(rebasing: bytes[counted])) else { return false }
                if counted.count > left {
                    guard left > 0 else { return false }
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[cell.lowerBound..<counted.lowerBound + left]))
                    appendEllipsis(spanHasLink: spanHasLink, spanCodes: spanCodes.map { UnsafeBufferPointer(rebasing: bytes[$0]) }, to: &output)
                    return true
                }
                left -= counted.count
            }
            index = textEnd
        }
        // A cell to cut is wider than its limit: its bytes end before its text does.
        return false
    }

    /// Appends `…` in the style of the span it ends, less its link, and
    /// what ends the spans, as `RowBytes.writeSpan` writes them.
    private static func appendEllipsis(spanHasLink: Bool, spanCodes: UnsafeBufferPointer<UInt8>?, to output: inout [UInt8]) {
        if spanHasLink {
            // The ellipsis has no link: the span ends, and its codes alone open the ellipsis's.
            StyledText.SpanEnd(resetsStyle: spanCodes != nil, endsLink: true).append(to: &output)
            if let spanCodes { output.append(contentsOf: spanCodes) }
        }
        output.append(contentsOf: "…".utf8)
        StyledText.SpanEnd(resetsStyle: spanCodes != nil, endsLink: false).append(to: &output)
    }

    private enum SequenceKind {
        /// `ESC ] 8 ; ; URL ESC \`: a link's start, or with no address its end.
        case link(isEmpty: Bool)
        /// SGR codes other than a reset.
        case codes
        /// `ESC [ 0 m`.
        case reset
    }

    /// The escape sequence at `start`, as `StyledText` writes them; nil for
    /// anything else.
    private static func escapeSequence(
        in bytes: UnsafeBufferPointer<UInt8>, at start: Int, before end: Int
    ) -> (kind: SequenceKind, range: Range<Int>)? {
        guard start + 1 < end else { return nil }
        switch bytes[start + 1] {
        case UInt8(ascii: "["):
            var index = start + 2
            while index < end, bytes[index] == UInt8(ascii: ";") || (bytes[index] >= 0x30 && bytes[index] <= 0x39) { index += 1 }
            guard index < end, bytes[index] == UInt8(ascii: "m"), index > start + 2 else { return nil }
            let isReset = index == start + 3 && bytes[start + 2] == UInt8(ascii: "0")
            return (isReset ? .reset : .codes, start..<index + 1)
        case UInt8(ascii: "]"):
            // `ESC ] 8 ; ;`, then the link up to `ESC \\` (none: the end of a link).
            let linkStart = start + 5
            guard linkStart <= end, bytes[start + 2] == UInt8(ascii: "8"), bytes[start + 3] == UInt8(ascii: ";"),
                bytes[start + 4] == UInt8(ascii: ";")
            else { return nil }
            var index = linkStart
            while index + 1 < end, !(bytes[index] == 0x1B && bytes[index + 1] == UInt8(ascii: "\\")) {
                guard bytes[index] >= 0x20 else { return nil }
                index += 1
            }
            guard index + 1 < end else { return nil }
            return (.link(isEmpty: index == linkStart), start..<index + 2)
        default:
            return nil
        }
    }
}
