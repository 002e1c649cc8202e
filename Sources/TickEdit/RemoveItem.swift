import TickModel
import TickSyntax

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
                if chosen.contains(at) {
                    covered = true
                    break
                }
                ancestor = document.items[at].parent
            }
            if !covered { ranges.append(deletion(of: document.items[index], in: document)) }
        }
        return mergedDeletions(ranges)
    }

    /// The splices that remove the items at `indices`. Usually these are the
    /// `deletions`; but when taking the lines out would let Markdown join
    /// what was above them with what was below (an item numbered `2.` right
    /// under a paragraph is not an item, since only `1.` may interrupt a
    /// paragraph, and a `---` line that comes to the top would open front
    /// matter), each deletion leaves one empty line instead, so that every
    /// other item stays an item.
    public static func splices(_ indices: [Int], in document: Document) -> [Splice] {
        let ranges = deletions(indices, in: document)
        let plain = ranges.map(Splice.delete)
        let bytes = document.source.bytes
        guard !ranges.isEmpty, let after = try? Splice.apply(plain, to: bytes),
            !keepsOtherItems(after, removing: indices, from: document)
        else { return plain }
        let ending = Array(document.source.lineEnding.utf8)
        let spaced = ranges.map { range in
            // Not at the end, where nothing follows to join. At the top it
            // counts too: a `---` line there would open front matter.
            range.upperBound < bytes.count ? Splice(range, ending) : Splice.delete(range)
        }
        if let separated = try? Splice.apply(spaced, to: bytes), keepsOtherItems(separated, removing: indices, from: document) {
            return spaced
        }
        return plain
    }

    /// True when `bytes` hold exactly the items of `document` other than
    /// those at `indices` and their subtasks, in order, with their status and text.
    static func keepsOtherItems(_ bytes: [UInt8], removing indices: [Int], from document: Document) -> Bool {
        var removed = Set(indices)
        for item in document.items where item.parent.map({ removed.contains($0) }) ?? false { removed.insert(item.index) }
        let expected = document.items.filter { !removed.contains($0.index) }
        let left = DocumentParser.parse(bytes, path: document.path).items
        return left.count == expected.count && zip(left, expected).allSatisfy { $0.status == $1.status && $0.text == $1.text }
    }

    /// What goes with `item` when its block is removed: its lines of notes
    /// (non-blank lines of the block that are neither its title line nor in
    /// a subtask's block) and its subtasks, at every depth.
    public static func carried(_ item: TaskItem, in document: Document) -> (noteLines: Int, subtasks: Int) {
        var subtasks = 0
        var subtaskLines = Set<Int>()
        var pending = item.children
        while let index = pending.popLast() {
            let subtask = document.items[index]
            subtasks += 1
            subtaskLines.formUnion(subtask.line...max(subtask.line, subtask.lastLine))
            pending += subtask.children
        }
        guard item.lastLine > item.line else { return (0, subtasks) }
        let notes = (item.line + 1...item.lastLine).filter { !subtaskLines.contains($0) && !EditStyle.isBlankOrQuoteOnly($0, in: document.source) }
        return (notes.count, subtasks)
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
        let beforeIsHeading =
            firstLine == 1
            || document.sections.contains {
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
