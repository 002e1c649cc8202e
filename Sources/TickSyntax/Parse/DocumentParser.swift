import TickModel
import TickSystem

/// Parses the bytes of one file into a `Document` (SPEC §2–§3).
///
/// cmark-gfm finds the blocks (which lines are list items, paragraphs and
/// headings); the box, runs and tokens are read from the title line's own
/// bytes. Parsing never fails: any bytes give a document, and what is wrong
/// becomes a diagnostic.
public enum DocumentParser {
    /// Parses `bytes`, the contents of the file at `path` (relative to the
    /// notes folder; used for addresses and the default list name).
    public static func parse(_ bytes: [UInt8], path: String) -> Document {
        parse(bytes, path: path, neutralizeInlines: true)
    }

    /// `neutralizeInlines: false` gives cmark-gfm the bytes as they are; the
    /// tests use it to show that the faster input gives the same blocks.
    static func parse(_ bytes: [UInt8], path: String, neutralizeInlines: Bool, chunkThreshold: Int = LargeFiles.threshold) -> Document {
        let source = SourceText(bytes)
        var diagnostics: [Diagnostic] = []
        func diagnose(_ offset: Int, _ message: String) {
            let line = source.line(containing: offset)
            diagnostics.append(Diagnostic(line: line, column: offset - source.lineStarts[line - 1] + 1, message: message))
        }

        // What cmark-gfm sees: same length as the file, so columns are offsets.
        let check = UTF8Check.scan(bytes)
        let isValidUTF8 = check.firstInvalidOffset == nil
        if let bad = check.firstInvalidOffset {
            diagnose(bad, "file is not valid UTF-8; tick reads it but will not change it (re-save it as UTF-8)")
        }
        let cmarkInput = check.sanitized ?? bytes
        for line in ConflictMarkers.lines(in: source) {
            diagnostics.append(Diagnostic(line: line, column: 1, message: ConflictMarkers.diagnostic))
        }

        // Front matter: cut out of cmark's view (blanked, lines kept).
        var frontMatter: FrontMatter? = nil
        var frontMatterEnd = 0
        if let (found, _) = FrontMatterParser.find(in: source) {
            var parsed = found
            let yaml = source.string(found.yamlRange)
            switch FrontMatterParser.parse(yaml) {
            case .success(let values): parsed.values = values
            case .failure(let problem):
                let line = min(source.lineCount, 1 + max(problem.line ?? 1, 1)) // Yams counts from 1
                diagnostics.append(
                    Diagnostic(
                        line: line, column: 1,
                        message: "malformed front matter: \(problem.message); the list's title, color and icon there are ignored"))
            }
            frontMatterEnd = found.range.upperBound
            frontMatter = parsed
        }

        /// cmark's copy of the file's length: front matter blanked, inline markup neutralised.
        func fullCopy() -> [UInt8] {
            var copy = cmarkInput
            for index in 0..<frontMatterEnd where copy[index] != 0x0A && copy[index] != 0x0D {
                copy[index] = 0x20
            }
            if neutralizeInlines { CmarkInput.neutralizeInlineMarkup(in: &copy, lines: source) }
            return copy
        }

        let outline: BlockOutline
        if !neutralizeInlines {
            outline = fullCopy().withUnsafeBufferPointer { LargeFiles.outline(of: $0, lines: source, threshold: chunkThreshold) }
        } else if bytes.count > chunkThreshold {
            // Where to cut a large file is decided on the full-length copy.
            let full = fullCopy()
            var short = cmarkInput.withUnsafeBufferPointer {
                CmarkInput.shortCopy(of: $0, blankingUpTo: frontMatterEnd, lines: source)
            }
            CmarkInput.narrowWideTableRows(in: &short.bytes, lineStarts: short.lineStarts)
            outline = full.withUnsafeBufferPointer { whole in
                short.bytes.withUnsafeBufferPointer { shortBytes in
                    LargeFiles.outline(
                        of: whole, lines: source, threshold: chunkThreshold,
                        shortened: (shortBytes, short.lineStarts))
                }
            }
        } else {
            // The short copy straight from the bytes, with no full-length copy.
            var short = cmarkInput.withUnsafeBufferPointer {
                CmarkInput.shortCopy(of: $0, blankingUpTo: frontMatterEnd, lines: source)
            }
            CmarkInput.narrowWideTableRows(in: &short.bytes, lineStarts: short.lineStarts)
            outline = short.bytes.withUnsafeBufferPointer { CmarkBlockParser.outline(of: $0) }
        }

        return bytes.withUnsafeBufferPointer { buffer in
            var builder = Builder(source: source, buffer: buffer, path: path)
            builder.isValidUTF8 = isValidUTF8
            builder.diagnostics = diagnostics
            builder.readHeadings(outline.headings)
            builder.readItems(outline.items)
            return builder.document(frontMatter: frontMatter, isValidUTF8: isValidUTF8)
        }
    }

    public static func parse(_ text: String, path: String) -> Document {
        parse(Array(text.utf8), path: path)
    }

}

/// The state of one parse, after cmark-gfm has found the blocks.
private struct Builder {
    let source: SourceText
    let buffer: UnsafeBufferPointer<UInt8>
    let path: String
    var diagnostics: [Diagnostic] = []
    var isValidUTF8 = true
    var sections: [Section] = []
    /// Level-1 headings: (line, display title, color, icon).
    var topHeadings: [(line: Int, title: String, color: String?, icon: String?)] = []
    var items: [TaskItem] = []

    init(source: SourceText, buffer: UnsafeBufferPointer<UInt8>, path: String) {
        self.source = source
        self.buffer = buffer
        self.path = path
    }

    mutating func diagnose(_ offset: Int, _ message: String) {
        let line = source.line(containing: offset)
        diagnostics.append(Diagnostic(line: line, column: offset - source.lineStarts[line - 1] + 1, message: message))
    }

    private func isSpace(_ index: Int) -> Bool { buffer[index] == 0x20 || buffer[index] == 0x09 }

    /// `range` without leading and trailing spaces and tabs.
    private func trimmed(_ range: Range<Int>) -> Range<Int> {
        var start = range.lowerBound
        var end = range.upperBound
        while start < end, isSpace(start) { start += 1 }
        while end > start, isSpace(end - 1) { end -= 1 }
        return start..<end
    }

    private mutating func summarizeTitle(_ range: Range<Int>) -> TitleParser.Summary {
        let summary = TitleParser.summarize(buffer, title: range, isValidUTF8: isValidUTF8)
        for (offset, message) in summary.diagnostics { diagnose(offset, message) }
        return summary
    }

    // MARK: Headings

    mutating func readHeadings(_ headings: [BlockOutline.Heading]) {
        sections.reserveCapacity(headings.count)
        for heading in headings where heading.startLine >= 1 && heading.startLine <= source.lineCount {
            let lineRange = source.range(ofLine: heading.startLine)
            let start = min(lineRange.upperBound, lineRange.lowerBound + heading.startColumn - 1)
            var text = trimmed(start..<lineRange.upperBound)
            if heading.isATX || (!text.isEmpty && buffer[text.lowerBound] == UInt8(ascii: "#")) {
                // ATX: drop the opening hashes and an optional closing sequence
                // (hashes preceded by a space, or nothing but hashes).
                var open = text.lowerBound
                while open < text.upperBound, buffer[open] == UInt8(ascii: "#") { open += 1 }
                let content = trimmed(open..<text.upperBound)
                var close = content.upperBound
                while close > content.lowerBound, buffer[close - 1] == UInt8(ascii: "#") { close -= 1 }
                if close == content.lowerBound {
                    text = content.lowerBound..<content.lowerBound
                } else if close < content.upperBound, isSpace(close - 1) {
                    text = trimmed(content.lowerBound..<close)
                } else {
                    text = content
                }
            }
            let summary = summarizeTitle(text)
            let color = summary.metadata.color
            let icon = summary.metadata.icon
            let title = summary.title
            let range = source.lineStarts[heading.startLine - 1]..<source.rangeWithEnding(ofLine: max(heading.startLine, heading.endLine)).upperBound
            if heading.level == 1 {
                topHeadings.append((heading.startLine, title, color, icon))
            } else {
                sections.append(Section(level: heading.level, title: title, line: heading.startLine, range: range, color: color, icon: icon))
            }
        }
    }

    /// The section an item on `line` belongs to: the nearest heading above,
    /// unless a level-1 heading came after it.
    private func section(forLine line: Int) -> Int? {
        var low = 0
        var high = sections.count
        while low < high {
            let mid = (low + high) / 2
            if sections[mid].line < line { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let candidate = low - 1
        if topHeadings.contains(where: { $0.line > sections[candidate].line && $0.line < line }) { return nil }
        return candidate
    }

    // MARK: Items

    mutating func readItems(_ listItems: [BlockOutline.ListItem]) {
        /// outline index -> index in `items`, for list items that are tasks.
        var taskIndex = [Int?](repeating: nil, count: listItems.count)
        // At most one item per list item: no regrowth (and no transient
        // copy of a 200,000-item array) while appending.
        items.reserveCapacity(listItems.count)
        for (outlineIndex, listItem) in listItems.enumerated() {
            // cmark-gfm gives no position (line 0) to the empty paragraph
            // its table extension leaves when a paragraph becomes a table.
            guard let paragraphLine = listItem.paragraphLine, let paragraphColumn = listItem.paragraphColumn,
                paragraphLine >= 1, paragraphColumn >= 1, paragraphLine <= source.lineCount,
                listItem.startLine >= 1, listItem.startLine <= source.lineCount, listItem.startColumn >= 1
            else { continue }
            let line = source.range(ofLine: paragraphLine)
            let box = line.lowerBound + paragraphColumn - 1
            guard box + 3 < line.upperBound,
                buffer[box] == UInt8(ascii: "["), buffer[box + 2] == UInt8(ascii: "]"),
                let status = TaskStatus(boxByte: buffer[box + 1]), isSpace(box + 3)
            else { continue }

            // The enclosing task, skipping plain list items in between.
            var enclosing = listItem.enclosingItem
            while let outer = enclosing, taskIndex[outer] == nil { enclosing = listItems[outer].enclosingItem }
            let parent = enclosing.flatMap { taskIndex[$0] }

            let markerStart = source.lineStarts[listItem.startLine - 1] + listItem.startColumn - 1
            var markerEnd = markerStart
            if listItem.isOrdered {
                while markerEnd < buffer.count, buffer[markerEnd] >= 0x30, buffer[markerEnd] <= 0x39 { markerEnd += 1 }
            }
            markerEnd = min(markerEnd + 1, buffer.count)

            var lastLine = max(paragraphLine, min(listItem.endLine, source.lineCount))
            while lastLine > paragraphLine, isBlankInQuote(lastLine, quoteDepth: listItem.quoteDepth) { lastLine -= 1 }

            let title = trimmed(box + 3..<line.upperBound)
            let summary = summarizeTitle(title)
            let index = items.count
            items.append(
                TaskItem(
                    index: index, line: paragraphLine, lastLine: lastLine, status: status,
                    markerRange: markerStart..<markerEnd, boxRange: box..<box + 3, titleRange: title,
                    blockRange: source.lineStarts[listItem.startLine - 1]..<source.rangeWithEnding(ofLine: lastLine).upperBound,
                    depth: parent.map { items[$0].depth + 1 } ?? 0, parent: parent, children: [],
                    section: section(forLine: paragraphLine), quoteDepth: listItem.quoteDepth,
                    metadata: summary.metadata, title: summary.title,
                    text: source.string(title), textIsPlain: summary.isPlain, notes: nil, noteLines: [],
                    invalidTitleBytes: isValidUTF8 || UTF8Check.isValid(Array(buffer[title])) ? nil : Array(buffer[title])))
            if let parent { items[parent].children.append(index) }
            taskIndex[outlineIndex] = index
        }
        for index in items.indices { readNotes(of: index) }
    }

    /// True when the line holds only white space (and, inside block quotes, `>` markers).
    private func isBlankInQuote(_ line: Int, quoteDepth: Int) -> Bool {
        source.range(ofLine: line).allSatisfy {
            isSpace($0) || (quoteDepth > 0 && buffer[$0] == UInt8(ascii: ">"))
        }
    }

    /// Notes: the item's lines after the title line that are not inside a
    /// subtask, with the quote markers and content indentation removed.
    private mutating func readNotes(of index: Int) {
        // Only the fields needed: copying the whole item costs a retain and
        // a release of each of its strings and arrays.
        let line = items[index].line
        let lastLine = items[index].lastLine
        let quoteDepth = items[index].quoteDepth
        guard lastLine > line else { return }
        // The lines inside a subtask, marked in a flag per line of the item
        // (a Set of line numbers cost a hash per line).
        var excluded = [Bool](repeating: false, count: lastLine - line)
        for child in items[index].children {
            let first = max(items[child].line, line + 1)
            let last = min(items[child].lastLine, lastLine)
            if first <= last { for excludedLine in first...last { excluded[excludedLine - line - 1] = true } }
        }
        var lines: [Int] = []
        lines.reserveCapacity(lastLine - line)
        for candidate in line + 1...lastLine where !excluded[candidate - line - 1] { lines.append(candidate) }
        var firstKept = 0
        var lastKept = lines.count
        while firstKept < lastKept, isBlankInQuote(lines[firstKept], quoteDepth: quoteDepth) { firstKept += 1 }
        while lastKept > firstKept, isBlankInQuote(lines[lastKept - 1], quoteDepth: quoteDepth) { lastKept -= 1 }
        guard firstKept < lastKept else { return }
        if firstKept > 0 || lastKept < lines.count { lines = Array(lines[firstKept..<lastKept]) }

        let titleLine = source.range(ofLine: line)
        let afterQuotes = skipQuoteMarkers(titleLine, depth: quoteDepth)
        let contentIndent = visualWidth(afterQuotes..<items[index].boxRange.lowerBound)
        var texts: [Range<Int>] = []
        texts.reserveCapacity(lines.count)
        for line in lines {
            let range = source.range(ofLine: line)
            var start = skipQuoteMarkers(range, depth: quoteDepth)
            var column = 0
            while start < range.upperBound, isSpace(start), column < contentIndent {
                column += buffer[start] == 0x09 ? 4 - column % 4 : 1
                start += 1
            }
            texts.append(start..<range.upperBound)
        }
        if isValidUTF8 {
            // The lines' bytes joined by LF, written once into the string
            // (decoding each line to a String and joining them copied twice).
            let length = texts.reduce(texts.count - 1) { $0 + $1.count }
            items[index].notes = String(unsafeUninitializedCapacity: length) { out in
                var written = 0
                for (number, text) in texts.enumerated() {
                    if number > 0 {
                        out[written] = 0x0A
                        written += 1
                    }
                    for offset in text {
                        out[written] = buffer[offset]
                        written += 1
                    }
                }
                return written
            }
        } else {
            items[index].notes = texts.map { source.string($0) }.joined(separator: "\n")
        }
        items[index].noteLines = lines
    }

    /// The offset after up to `depth` block-quote markers (`>` and one space).
    private func skipQuoteMarkers(_ range: Range<Int>, depth: Int) -> Int {
        var position = range.lowerBound
        for _ in 0..<depth {
            var probe = position
            var spaces = 0
            while probe < range.upperBound, buffer[probe] == 0x20, spaces < 3 {
                probe += 1
                spaces += 1
            }
            guard probe < range.upperBound, buffer[probe] == UInt8(ascii: ">") else { break }
            probe += 1
            if probe < range.upperBound, buffer[probe] == 0x20 { probe += 1 }
            position = probe
        }
        return position
    }

    private func visualWidth(_ range: Range<Int>) -> Int {
        var column = 0
        for index in range {
            if buffer[index] == 0x09 { column += 4 - column % 4 } else if buffer[index] & 0xC0 != 0x80 { column += 1 }
        }
        return column
    }

    // MARK: The list

    func document(frontMatter: FrontMatter?, isValidUTF8: Bool) -> Document {
        // The last component of the path. For an ASCII path (the usual case),
        // split by bytes: the same components as splitting the String by
        // Character, without grapheme breaking.
        let stem: String
        if path.utf8.allSatisfy({ $0 < 0x80 }) {
            stem = path.utf8.split(separator: UInt8(ascii: "/")).last.map { String(decoding: $0, as: UTF8.self) } ?? path
        } else {
            stem = path.split(separator: "/").last.map(String.init) ?? path
        }
        let fileName = Document.withoutExtension(stem)
        let heading = topHeadings.first
        let frontTitle = frontMatter?.value("title")?.stringValue
        let name = [frontTitle, heading?.title].compactMap { $0 }.first(where: { !$0.isEmpty }) ?? fileName
        var color = frontMatter?.value("color")?.stringValue ?? heading?.color
        if let value = color, !ListColor.isValid(value) { color = nil }
        let icon = frontMatter?.value("icon")?.stringValue ?? heading?.icon
        var order: Int? = nil
        if case .int(let number)? = frontMatter?.value("order") { order = number }
        return Document(
            path: path, source: source, frontMatter: frontMatter, name: name,
            explicitColor: color, explicitIcon: icon, order: order, sections: sections,
            items: items, diagnostics: diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) },
            isValidUTF8: isValidUTF8)
    }
}

/// Makes cmark-gfm's private copy of a file cheap to parse.
///
/// tick takes only block positions from cmark-gfm, and CommonMark decides
/// block structure before it parses inlines. Yet cmark-gfm spends much of
/// its time on inlines, and its 0.29 inline parser is superlinear on long
/// lines that mix emphasis, links and code spans (10 MB of them did not
/// finish in minutes). So in cmark's copy, bytes that can only open inline
/// constructs (`*` `_` `` ` `` `~` `!` `&` `[`, and `\` unless before `|`)
/// become a letter once a line's first letter or digit has been seen: a
/// line's block role is decided by what comes before that. Lines that hold
/// a fence (three backticks or tildes) or start with `<` (HTML blocks) before
/// their first letter are left alone, and so are lines with no letter at all
/// (thematic breaks, setext underlines, table delimiter rows). The copy keeps
/// the file's length, so positions stay the file's offsets; a test compares
/// the blocks found with and without this step on every fixture.
enum CmarkInput {

    /// True when bytes `start..<end` hold only spaces, tabs and a line ending.
    static func isBlank(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        for index in start..<end {
            let byte = buffer[index]
            if byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { return false }
        }
        return true
    }

    static func containsBracketColon(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var index = start
        while index < end, let found = Posix.findByte(UInt8(ascii: "]"), base + index, end - index) {
            let offset = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            if offset + 1 < end, base[offset + 1] == UInt8(ascii: ":") { return true }
            index = offset + 1
        }
        return false
    }

    /// cmark-gfm's copy of the file (the first `frontMatterEnd` bytes
    /// blanked, `neutralizeInlineMarkup` applied) with most lines cut short,
    /// and where each of its lines starts.
    ///
    /// cmark-gfm spends most of its time on bytes that cannot change the
    /// block structure: it scans every byte for line ends, copies each
    /// paragraph line and then parses its inlines. A line's block role is
    /// decided before its first letter (no block starts with a letter, or
    /// with a non-ASCII character), so a line is cut after its first letter
    /// or non-ASCII character, which is whole (the columns cmark-gfm reports,
    /// of markers, paragraphs and headings, all lie before it), and its line
    /// ending is kept: every line keeps its number. A line is kept whole when
    /// what follows the cut can matter for blocks:
    /// - the part before the cut holds `<` (an HTML block may start there)
    ///   or a run of three backticks or tildes (a fence and its info string);
    /// - the rest holds `|` (the cells of a table's header row) or `>` (the
    ///   end conditions of HTML blocks 1–5 all contain `>`);
    /// - it is in a stretch of lines, up to the next blank line, that starts
    ///   with a line holding `[` before the cut and that holds `]:`
    ///   somewhere: a paragraph that starts with `[` may open with link
    ///   reference definitions, which cmark-gfm removes from the paragraph
    ///   (and may remove the paragraph). A paragraph ends at a blank line,
    ///   and without `]:` no definition can be read in either copy.
    /// Outside such stretches a `[` before the first letter can only open
    /// inlines (a link, or a task's box, which cmark-gfm would try to look
    /// up as a reference): the line is cut after its first `[`, which
    /// becomes the letter `a`.
    /// Whether a line is blank, and a table row's cell count, are unchanged
    /// by the cut (a cut line keeps a letter and has no `|`). Tests compare
    /// the blocks found with and without this step (and with the file's own
    /// bytes) on every fixture.
    ///
    /// It is made in one pass from `bytes`, without the full-length copy:
    /// only the bytes kept are neutralised. The decisions are the same as on
    /// that copy, because neutralising never changes `]`, `:`, `|`, `>`,
    /// `<`, white space or line endings, and turns the bytes it changes into
    /// a letter (`a`). `CmarkInputTests` compares it with a plain two-step
    /// version of these rules on every fixture and on random input.
    static func shortCopy(of bytes: UnsafeBufferPointer<UInt8>, blankingUpTo frontMatterEnd: Int, lines source: SourceText) -> (
        bytes: [UInt8], lineStarts: [Int]
    ) {
        let count = bytes.count
        let lineCount = source.lineCount
        var starts = [Int](repeating: 0, count: lineCount)
        let short = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            guard let base = bytes.baseAddress, let outBase = out.baseAddress else {
                initialized = 0
                return
            }
            actionTable.withUnsafeBufferPointer { actions in
                source.lineStarts.withUnsafeBufferPointer { lineStarts in
                    /// The byte at `index` as the neutralised copy has it (outside front matter).
                    func neutralized(_ index: Int) -> UInt8 {
                        let byte = bytes[index]
                        switch actions[Int(byte)] {
                        case Action.neutralize: return UInt8(ascii: "a")
                        case Action.backslash:
                            return index + 1 < count && bytes[index + 1] == UInt8(ascii: "|") ? byte : UInt8(ascii: "a")
                        default: return byte
                        }
                    }
                    var written = 0
                    var wholeUntilLine = 0
                    var bracketCheckedUntil = 0
                    for line in 0..<lineCount {
                        let start = lineStarts[line]
                        let next = line + 1 < lineCount ? lineStarts[line + 1] : count
                        var end = next
                        if end > start, bytes[end - 1] == 0x0A { end -= 1 }
                        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
                        starts[line] = written

                        if start < frontMatterEnd {
                            // Blanked: spaces, then the line ending. (Such a line has no letter: kept whole.)
                            Posix.fillBytes(outBase + written, 0x20, end - start)
                            written += end - start
                            Posix.copyBytes(to: outBase + written, from: base + end, next - end)
                            written += next - end
                            continue
                        }

                        var index = start
                        if line == 0, count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
                        var sawBracket = false
                        var sawAngle = false
                        var firstBracket = 0
                        var run: UInt8 = 0
                        var runLength = 0
                        var sawFence = false
                        func track(_ byte: UInt8, at index: Int) {
                            if byte == UInt8(ascii: "["), !sawBracket {
                                sawBracket = true
                                firstBracket = index
                            }
                            if byte == UInt8(ascii: "<") { sawAngle = true }
                            if byte == UInt8(ascii: "`") || byte == UInt8(ascii: "~") {
                                runLength = byte == run ? runLength + 1 : 1
                                run = byte
                                if runLength >= 3 { sawFence = true }
                            } else {
                                runLength = 0
                            }
                        }
                        // The prefix `neutralizeInlineMarkup` leaves alone: up to the
                        // first letter, digit or non-ASCII byte.
                        while index < end {
                            let byte = bytes[index]
                            if byte >= 0x80 || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39) { break }
                            track(byte, at: index)
                            index += 1
                        }
                        let prefixEnd = index
                        let leaveAlone = sawAngle || sawFence
                        // Then, on the neutralised bytes, up to the first letter or non-ASCII byte.
                        var lead: UInt8 = 0
                        while index < end {
                            lead = leaveAlone ? bytes[index] : neutralized(index)
                            if lead >= 0x80 || (lead | 0x20 >= 0x61 && lead | 0x20 <= 0x7A) { break }
                            track(lead, at: index)
                            index += 1
                        }

                        if sawBracket, line >= bracketCheckedUntil {
                            var blank = line + 1
                            while blank < lineCount, !isBlank(bytes, lineStarts[blank], blank + 1 < lineCount ? lineStarts[blank + 1] : count) {
                                blank += 1
                            }
                            bracketCheckedUntil = blank
                            if containsBracketColon(base, start, blank < lineCount ? lineStarts[blank] : count) {
                                wholeUntilLine = blank
                            }
                        }
                        var keep = end
                        var bracketToLetter = false
                        if (index < end || sawBracket) && !sawAngle && !sawFence && line >= wholeUntilLine {
                            let cut = sawBracket ? firstBracket + 1 : min(end, index + (lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2))
                            let rest = end - cut
                            if rest <= 0
                                || (Posix.findByte(UInt8(ascii: "|"), base + cut, rest) == nil
                                    && Posix.findByte(UInt8(ascii: ">"), base + cut, rest) == nil)
                            {
                                keep = cut
                                bracketToLetter = sawBracket
                            }
                        }

                        Posix.copyBytes(to: outBase + written, from: base + start, keep - start)
                        if !leaveAlone {
                            for position in prefixEnd..<max(prefixEnd, keep) {
                                outBase[written + position - start] = neutralized(position)
                            }
                        }
                        if bracketToLetter { outBase[written + firstBracket - start] = UInt8(ascii: "a") }
                        written += keep - start
                        Posix.copyBytes(to: outBase + written, from: base + end, next - end)
                        written += next - end
                    }
                    initialized = written
                }
            }
        }
        return (short, starts)
    }

    /// What the rest of a line (after its prefix) does with each byte.
    private enum Action {
        static let keep: UInt8 = 0, lineEnd: UInt8 = 1, neutralize: UInt8 = 2, backslash: UInt8 = 3
    }

    private static let actionTable: [UInt8] = (0..<256).map { byte in
        switch UInt8(byte) {
        case 0x0A, 0x0D: Action.lineEnd
        case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "~"),
            UInt8(ascii: "!"), UInt8(ascii: "&"), UInt8(ascii: "["):
            Action.neutralize
        case UInt8(ascii: "\\"): Action.backslash
        default: Action.keep
        }
    }

    static func neutralizeInlineMarkup(in bytes: inout [UInt8], lines source: SourceText) {
        actionTable.withUnsafeBufferPointer { actions in
            bytes.withUnsafeMutableBufferPointer { buffer in
                let count = buffer.count
                var lineStart = 0
                while lineStart < count {
                    var index = lineStart
                    // A byte-order mark is not content: cmark-gfm skips it.
                    if lineStart == 0, count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { index = 3 }
                    var run: UInt8 = 0
                    var runLength = 0
                    var leaveAlone = false
                    // The prefix: everything before the first letter, digit or non-ASCII byte.
                    while index < count {
                        let byte = buffer[index]
                        if byte == 0x0A || byte == 0x0D { break }
                        if byte >= 0x80 || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39) { break }
                        if byte == UInt8(ascii: "<") { leaveAlone = true }
                        if byte == UInt8(ascii: "`") || byte == UInt8(ascii: "~") {
                            runLength = byte == run ? runLength + 1 : 1
                            run = byte
                            if runLength >= 3 { leaveAlone = true }
                        } else {
                            runLength = 0
                        }
                        index += 1
                    }
                    // The rest of the line: one table lookup per byte (most
                    // bytes need nothing), a third of the instructions of a
                    // comparison with each special byte in turn.
                    while index < count {
                        let action = actions[Int(buffer[index])]
                        if action == Action.keep {
                            index += 1
                            continue
                        }
                        if action == Action.lineEnd { break }
                        if !leaveAlone {
                            if action == Action.neutralize {
                                buffer[index] = UInt8(ascii: "a")
                            } else if index + 1 >= count || buffer[index + 1] != UInt8(ascii: "|") { // a backslash
                                buffer[index] = UInt8(ascii: "a")
                            }
                        }
                        index += 1
                    }
                    // Past the line ending.
                    if index < count, buffer[index] == 0x0D { index += 1 }
                    if index < count, buffer[index] == 0x0A { index += 1 }
                    lineStart = index == lineStart ? index + 1 : index
                }
            }
        }
    }
}

/// Parses large files in pieces, so that cmark-gfm's tree never holds more
/// than about a megabyte of Markdown at once.
///
/// cmark-gfm keeps a node (and its buffers) per block: a 10 MB list of
/// 200,000 items costs it over 200 MB. So a file over `threshold` is cut
/// before lines where every container is certainly closed, and each piece is
/// parsed alone: a level-1 to 6 ATX heading or a task item at column 0. Such
/// a line closes every open block (a heading or list item interrupts a
/// paragraph and is never a lazy continuation), except a top-level fenced
/// code block or an HTML block; so no cut is made while a top-level fence is
/// open, nor after a line that starts with `<` (HTML) since the last cut.
/// Link reference definitions are document-wide, but they affect only
/// inlines, which tick does not take from cmark-gfm.
enum LargeFiles {
    static let threshold = 1 << 20

    /// `bytes` is cmark's copy of the file, of the file's length; where to
    /// cut is decided on it. `shortened`, when given, is `CmarkInput.shortCopy`
    /// of it (the same lines, and the same block structure): then that is
    /// what cmark-gfm parses.
    static func outline(
        of bytes: UnsafeBufferPointer<UInt8>, lines source: SourceText, threshold: Int = threshold,
        shortened: (bytes: UnsafeBufferPointer<UInt8>, lineStarts: [Int])? = nil
    ) -> BlockOutline {
        let parsed = shortened?.bytes ?? bytes
        guard bytes.count > threshold else { return CmarkBlockParser.outline(of: parsed) }
        let cuts = cutLines(bytes, source, threshold: threshold)
        guard !cuts.isEmpty else { return CmarkBlockParser.outline(of: parsed) }
        let lineStarts = shortened?.lineStarts ?? source.lineStarts
        var outline = BlockOutline()
        var startLine = 1
        for endLine in cuts + [source.lineCount + 1] {
            let range = lineStarts[startLine - 1]..<(endLine <= source.lineCount ? lineStarts[endLine - 1] : parsed.count)
            let piece = CmarkBlockParser.outline(of: UnsafeBufferPointer(rebasing: parsed[range]))
            let lineOffset = startLine - 1
            let itemOffset = outline.items.count
            for var item in piece.items {
                item.startLine += lineOffset
                item.endLine += lineOffset
                item.paragraphLine = item.paragraphLine.map { $0 + lineOffset }
                item.enclosingItem = item.enclosingItem.map { $0 + itemOffset }
                outline.items.append(item)
            }
            for var heading in piece.headings {
                heading.startLine += lineOffset
                heading.endLine += lineOffset
                outline.headings.append(heading)
            }
            startLine = endLine
        }
        return outline
    }

    /// The lines before which the file is cut: safe lines at least
    /// `threshold / 2` bytes after the previous cut.
    static func cutLines(_ bytes: UnsafeBufferPointer<UInt8>, _ source: SourceText, threshold: Int) -> [Int] {
        var cuts: [Int] = []
        var lastCutOffset = 0
        var openFence: (character: UInt8, length: Int)? = nil
        var sawHTML = false
        for line in 1...source.lineCount {
            let range = source.range(ofLine: line)
            var index = range.lowerBound
            if line == 1, source.hasByteOrderMark { index += 3 }
            var indent = 0
            while index < range.upperBound, bytes[index] == 0x20, indent < 4 {
                index += 1
                indent += 1
            }
            guard index < range.upperBound, indent < 4 else { continue }
            let first = bytes[index]
            if first == UInt8(ascii: "`") || first == UInt8(ascii: "~") {
                var run = 0
                while index + run < range.upperBound, bytes[index + run] == first { run += 1 }
                if run >= 3 {
                    if let fence = openFence {
                        let rest = (index + run..<range.upperBound).allSatisfy { bytes[$0] == 0x20 || bytes[$0] == 0x09 }
                        if fence.character == first, run >= fence.length, rest { openFence = nil }
                    } else {
                        openFence = (first, run)
                    }
                }
                continue
            }
            if openFence != nil { continue }
            if first == UInt8(ascii: "<") {
                sawHTML = true
                continue
            }
            guard indent == 0, !sawHTML, range.lowerBound - lastCutOffset >= threshold / 2, line > 1 else { continue }
            if isATXHeading(bytes, index, range.upperBound) || isTaskItem(bytes, index, range.upperBound) {
                cuts.append(line)
                lastCutOffset = range.lowerBound
                sawHTML = false
            }
        }
        return cuts
    }

    private static func isATXHeading(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var index = start
        while index < end, bytes[index] == UInt8(ascii: "#") { index += 1 }
        let level = index - start
        return level >= 1 && level <= 6 && (index == end || bytes[index] == 0x20 || bytes[index] == 0x09)
    }

    private static func isTaskItem(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard start + 6 <= end else { return false }
        let marker = bytes[start]
        return (marker == UInt8(ascii: "-") || marker == UInt8(ascii: "*") || marker == UInt8(ascii: "+"))
            && bytes[start + 1] == 0x20 && bytes[start + 2] == UInt8(ascii: "[") && bytes[start + 4] == UInt8(ascii: "]")
            && bytes[start + 5] == 0x20
    }
}
