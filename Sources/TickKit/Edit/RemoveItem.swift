/// Removes items with their notes and subtasks (`tick rm`, and the first
/// half of `mv` and `archive`).
///
/// Guarantees: each deletion covers whole lines of one item's block; when the
/// block stood between two blank lines (or a blank line and the end of the
/// file, or a heading and a blank line), one of those blank lines goes too,
/// so no double gap is left; a file without a final line ending keeps having
/// none. Nothing else changes.
public enum RemoveItem {
    /// The deletions that remove the items at `indices` (an item inside
    /// another one removed is covered by its ancestor), merged and sorted.
    public static func deletions(_ indices: [Int], in document: Document) -> [Range<Int>] {
        let chosen = Set(indices)
        var ranges: [Range<Int>] = []
        for index in chosen.sorted() {
            var ancestor = document.items[index].parent
            var covered = false
            while let at = ancestor {
                if chosen.contains(at) { covered = true; break }
                ancestor = document.items[at].parent
            }
            if !covered { ranges.append(deletion(of: document.items[index], in: document)) }
        }
        return mergedDeletions(ranges)
    }

    public static func splices(_ indices: [Int], in document: Document) -> [Splice] {
        deletions(indices, in: document).map(Splice.delete)
    }

    static func deletion(of item: TaskItem, in document: Document) -> Range<Int> {
        let source = document.source
        let firstLine = source.line(containing: item.markerRange.lowerBound)
        let lastLine = item.lastLine
        var start = EditStyle.lineStart(firstLine, in: source)
        var end = source.rangeWithEnding(ofLine: lastLine).upperBound
        let beforeIsBlank = firstLine > 1 && EditStyle.isBlankOrQuoteOnly(firstLine - 1, in: source)
        let hasAfter = lastLine < source.lineCount
        let afterIsBlank = hasAfter && EditStyle.isBlankOrQuoteOnly(lastLine + 1, in: source)
        // Right under a heading (or at the top), a blank line after the block
        // would be left dangling there: it goes with the block.
        let beforeIsHeading = firstLine == 1 || document.sections.contains {
            source.line(containing: max($0.range.lowerBound, $0.range.upperBound - 1)) == firstLine - 1
        }
        if (beforeIsBlank || beforeIsHeading) && afterIsBlank {
            end = source.rangeWithEnding(ofLine: lastLine + 1).upperBound
        } else if beforeIsBlank && !hasAfter {
            start = EditStyle.lineStart(firstLine - 1, in: source)
        }
        // The block ends the file without a line ending: take the line ending
        // before it instead, so the file still ends without one.
        if end == source.bytes.count, source.ending(ofLine: source.lineCount).isEmpty, start > EditStyle.lineStart(1, in: source) {
            start = source.range(ofLine: source.line(containing: start - 1)).upperBound
        }
        return start..<end
    }
}
