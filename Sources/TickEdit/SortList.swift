import TickEngine
import TickModel
import TickRecords

/// Reorders sibling items, whole blocks at a time (`tick sort --write`).
///
/// Guarantees: only runs of sibling items that form one Markdown list (same
/// parent, same kind of marker, same block quote, nothing but blank lines
/// between them) are reordered, each item keeping its notes and subtasks and
/// the subtasks being sorted the same way; the blank lines between items,
/// the line endings at each place and, in ordered lists, the numbers at each
/// place stay where they are. Nothing outside those runs moves.
public enum SortList {
    /// The splices that sort every list of `document` by `keys` (then manual
    /// order); empty when it is already in that order.
    public static func splices(_ document: Document, by keys: [SortKey], reverse: Bool = false, today: TaskDate) -> [Splice] {
        // The items are compared as the read model holds them, so that a
        // list sorts in the file as `--sort` orders it in a listing.
        let sorter = Sorter(document: document, encoded: EncodedDocument(encoding: document), keys: keys, reverse: reverse, today: today)
        let topLevel = document.items.filter { $0.parent == nil }.map(\.index)
        var splices: [Splice] = []
        for group in sorter.groups(topLevel) {
            let span = sorter.span(of: group)
            let text = group.count > 1 ? sorter.arranged(group) : sorter.rendered(document.items[group[0]])
            if Array(document.source.bytes[span]) != text { splices.append(Splice(span, text)) }
        }
        return splices
    }

    private struct Sorter {
        let document: Document
        let encoded: EncodedDocument?
        let keys: [SortKey]
        let reverse: Bool
        let today: TaskDate
        var bytes: [UInt8] { document.source.bytes }

        /// Splits siblings (in file order) into runs that form one Markdown list.
        func groups(_ siblings: [Int]) -> [[Int]] {
            var groups: [[Int]] = []
            for index in siblings {
                if let previous = groups.last?.last, belongTogether(previous, index) {
                    groups[groups.count - 1].append(index)
                } else {
                    groups.append([index])
                }
            }
            return groups
        }

        func belongTogether(_ first: Int, _ second: Int) -> Bool {
            let a = document.items[first]
            let b = document.items[second]
            guard a.quoteDepth == b.quoteDepth, a.section == b.section else { return false }
            let markerA = bytes[a.markerRange]
            let markerB = bytes[b.markerRange]
            guard markerA.count > 1 ? (markerB.count > 1 && markerA.last == markerB.last) : markerA == markerB else { return false }
            let gap = a.blockRange.upperBound..<start(b)
            guard !gap.isEmpty else { return true }
            let source = document.source
            for line in source.line(containing: gap.lowerBound)...source.line(containing: gap.upperBound - 1)
            where !EditStyle.isBlankOrQuoteOnly(line, in: source) { return false }
            return true
        }

        /// From the first block's start to the end of the last block's text
        /// (its final line ending excluded).
        func span(of group: [Int]) -> Range<Int> {
            let last = document.items[group.last!]
            return start(document.items[group.first!])..<contentEnd(last)
        }

        func start(_ item: TaskItem) -> Int { EditStyle.blockStart(item, in: document.source) }

        func contentEnd(_ item: TaskItem) -> Int {
            document.source.range(ofLine: item.lastLine).upperBound
        }

        func order(_ group: [Int]) -> [Int] {
            guard let encoded else { return group }
            let listed = group.map { EncodedListedItem(document: encoded, index: $0, listRank: 0) }
            return SortKey.sort(listed, by: keys, reverse: reverse, today: today).map(\.index)
        }

        /// The group's span with its blocks in sorted order.
        func arranged(_ group: [Int]) -> [UInt8] {
            let sorted = order(group)
            var output: [UInt8] = []
            for (position, slot) in group.enumerated() {
                let slotItem = document.items[slot]
                let placed = document.items[sorted[position]]
                var text = rendered(placed)
                // Ordered lists keep each place's number.
                let slotMarker = Array(bytes[slotItem.markerRange])
                if slotMarker.count > 1 {
                    let markerStart = placed.markerRange.lowerBound - start(placed)
                    text.replaceSubrange(markerStart..<markerStart + placed.markerRange.count, with: slotMarker)
                }
                output += text
                if position + 1 < group.count {
                    // This place's line ending and the blank lines after it.
                    output += bytes[contentEnd(slotItem)..<start(document.items[group[position + 1]])]
                }
            }
            return output
        }

        /// An item's block without its final line ending, its subtasks sorted.
        func rendered(_ item: TaskItem) -> [UInt8] {
            var output: [UInt8] = []
            var cursor = start(item)
            for group in groups(item.children) {
                let span = self.span(of: group)
                output += bytes[cursor..<span.lowerBound]
                output += group.count > 1 ? arranged(group) : rendered(document.items[group[0]])
                cursor = span.upperBound
            }
            output += bytes[cursor..<contentEnd(item)]
            return output
        }
    }
}
