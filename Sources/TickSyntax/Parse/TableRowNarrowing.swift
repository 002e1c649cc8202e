import TickSystem

extension CmarkInput {
    /// How many cells a row keeps at least before its extra ones are blanked.
    static let narrowRowCells = 48

    /// Blanks the cells of wide table rows in cmark-gfm's copy of a file,
    /// keeping every table that copy holds (and every block around it).
    ///
    /// cmark-gfm 0.29 keeps a row's cells in a linked list that it walks to
    /// the end for every cell it appends, so a row of n cells costs n²/2
    /// steps: 20 rows of 40,000 cells took a minute. tick takes nothing
    /// from tables but where they start and end, so in the copy each wide
    /// line keeps its first cells and the rest of it, up to its last
    /// unescaped `|`, becomes spaces (`|` and cell text alike; a space can
    /// only lengthen the cell before it), or letters when a cell blanked was
    /// not a delimiter cell (`:--`), so that a row that was no delimiter row
    /// does not become one. The line keeps its length, its
    /// first and last `|` and everything before its first `|`, so block
    /// starts, blank lines and columns stay as they were, and a row removed
    /// of r of its cell separators has exactly r cells fewer.
    ///
    /// The one place where a cell count changes block structure is a
    /// delimiter row, which makes a table only when it has as many cells
    /// as the line before it. So a line made of delimiter characters is
    /// linked to the line above, and linked lines are blanked so that
    /// "same count" and "different count" are kept for each link: lines
    /// whose separator counts differ by at most 2 (their cell counts, which
    /// also depend on leading and trailing pipes, may be equal) lose the same
    /// number of separators; lines whose counts differ by more keep counts
    /// that differ by more than 2. Rows not linked (body rows, paragraph
    /// text) only need one cell. `CmarkInputTests` compares cmark-gfm's
    /// blocks, tables and rows with and without this step on random input.
    ///
    /// What stays superlinear: a run of linked lines whose counts change by
    /// at most 2 from line to line shares one cut, so its widest line keeps
    /// its width above the narrowest; to reach n cells such a run needs
    /// about n/2 lines of growing width, n²/4 bytes.
    static func narrowWideTableRows(in bytes: inout [UInt8], lineStarts: [Int], keeping base: Int = narrowRowCells) {
        precondition(base >= 2, "a narrowed row keeps its first and last separator")
        let lineCount = lineStarts.count
        guard lineCount > 0 else { return }
        bytes.withUnsafeMutableBufferPointer { buffer in
            let count = buffer.count
            func lineEnd(_ line: Int) -> Int {
                var end = line + 1 < lineCount ? lineStarts[line + 1] : count
                while end > lineStarts[line], buffer[end - 1] == 0x0A || buffer[end - 1] == 0x0D { end -= 1 }
                return end
            }
            /// Unescaped `|` of a line (cmark-gfm reads a `|` after any `\` as text).
            func separators(_ line: Int, _ body: (Int) -> Void) {
                let end = lineEnd(line)
                guard let base = buffer.baseAddress else { return }
                var index = lineStarts[line]
                while index < end, let found = Posix.findByte(UInt8(ascii: "|"), base + index, end - index) {
                    let offset = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                    if offset == lineStarts[line] || buffer[offset - 1] != UInt8(ascii: "\\") { body(offset) }
                    index = offset + 1
                }
            }
            /// A `-` and otherwise only spaces, tabs and the bytes of delimiter
            /// rows and their containers (`|:-`, `>`) or of a list marker: a
            /// line that can be taken for a delimiter row (a superset is
            /// safe: links only constrain).
            func isDelimiterLike(_ line: Int) -> Bool {
                let end = lineEnd(line)
                var sawDash = false
                for index in lineStarts[line]..<end {
                    switch buffer[index] {
                    case UInt8(ascii: "-"): sawDash = true
                    case 0x20, 0x09, UInt8(ascii: "|"), UInt8(ascii: ":"), UInt8(ascii: ">"), UInt8(ascii: "*"),
                        UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: ")"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                        continue
                    default: return false
                    }
                }
                return sawDash
            }

            /// `[ \t]*:?-+:?[ \t]*`: a cell of a delimiter row.
            func isDelimiterCell(_ range: Range<Int>) -> Bool {
                var index = range.lowerBound
                func skip(_ byte: UInt8) {
                    while index < range.upperBound, buffer[index] == byte || (byte == 0x20 && buffer[index] == 0x09) { index += 1 }
                }
                skip(0x20)
                if index < range.upperBound, buffer[index] == UInt8(ascii: ":") { index += 1 }
                let dashes = index
                skip(UInt8(ascii: "-"))
                guard index > dashes else { return false }
                if index < range.upperBound, buffer[index] == UInt8(ascii: ":") { index += 1 }
                skip(0x20)
                return index == range.upperBound
            }

            var pipes = [Int](repeating: 0, count: lineCount)
            var anyWide = false
            for line in 0..<lineCount {
                var found = 0
                separators(line) { _ in found += 1 }
                pipes[line] = found
                if found > base + 12 { anyWide = true }
            }
            guard anyWide else { return }

            // Groups: runs of linked lines whose counts differ by at most 2.
            struct Group { var first: Int, last: Int, fewest: Int }
            var groups: [Group] = []
            var linkedToPrevious = [Bool](repeating: false, count: lineCount)
            for line in 0..<lineCount {
                linkedToPrevious[line] = line > 0 && isDelimiterLike(line)
                if linkedToPrevious[line], abs(pipes[line] - pipes[line - 1]) <= 2 {
                    groups[groups.count - 1].last = line
                    groups[groups.count - 1].fewest = min(groups[groups.count - 1].fewest, pipes[line])
                } else {
                    groups.append(Group(first: line, last: line, fewest: pipes[line]))
                }
            }

            // Separators each line loses; a group's lines lose the same number.
            var removed = [Int](repeating: 0, count: lineCount)
            for (index, group) in groups.enumerated() where group.fewest > base + 12 {
                // The narrowest line keeps base + 3k separators, k in 0...4: a
                // link to a line whose count is fixed rules out at most two
                // of these five (they are 3 apart), so one always remains.
                let leftFixed: Int? = linkedToPrevious[group.first] ? pipes[group.first - 1] - removed[group.first - 1] : nil
                var rightFixed: Int? = nil
                if group.last + 1 < lineCount, linkedToPrevious[group.last + 1], index + 1 < groups.count,
                    groups[index + 1].fewest <= base + 12
                {
                    rightFixed = pipes[group.last + 1]
                }
                for k in 0...4 {
                    let cut = group.fewest - (base + 3 * k)
                    if let left = leftFixed, abs(left - (pipes[group.first] - cut)) <= 2 { continue }
                    if let right = rightFixed, abs(right - (pipes[group.last] - cut)) <= 2 { continue }
                    for line in group.first...group.last { removed[line] = cut }
                    break
                }
            }

            for line in 0..<lineCount where removed[line] > 0 {
                // Blank from the separator that starts the last `removed`
                // interior cells up to (not including) the last separator.
                let keep = pipes[line] - removed[line] // separators kept, at least 2
                var seen = 0
                var blankFrom = 0
                var last = 0
                separators(line) { offset in
                    seen += 1
                    if seen == keep { blankFrom = offset }
                    last = offset
                }
                // Spaces when every cell blanked is a delimiter cell, else
                // letters: either way the row is a delimiter row after
                // exactly when it was one before.
                var fill: UInt8 = 0x20
                var cellStart = blankFrom + 1
                for index in blankFrom + 1...last where index == last || buffer[index] == UInt8(ascii: "|") && buffer[index - 1] != UInt8(ascii: "\\")
                {
                    if !isDelimiterCell(cellStart..<index) {
                        fill = UInt8(ascii: "a")
                        break
                    }
                    cellStart = index + 1
                }
                for index in blankFrom..<last { buffer[index] = fill }
            }
        }
    }
}
