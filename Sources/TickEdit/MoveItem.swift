import TickModel
import TickSyntax

/// Moves an item, with its notes and subtasks, to where `add` would put a new
/// item (`tick mv`).
///
/// Guarantees: the block is removed as `RemoveItem` removes it and inserted
/// as `InsertItem` inserts, re-indented as a whole to its new depth (block
/// quote markers and indentation of the old place taken off, those of the new
/// place put on) and given the bullet or number of its new neighbours. Its
/// text and tokens are kept as written, whatever the dialect around it.
public enum MoveItem {
    /// The result of a move inside one file.
    public struct SameFile: Sendable {
        public var splices: [Splice]
        public var createdSection: String?
        /// Where the moved item's first line starts in the edited bytes.
        public var itemOffset: Int
    }

    /// Moves item `index` within `document` to `placement`; nil when the
    /// item is already where it would go.
    public static func move(_ index: Int, in document: Document, to placement: InsertItem.Placement) -> SameFile? {
        let item = document.items[index]
        let block = ItemBlock(of: item, in: document)
        let removals = RemoveItem.splices([index], in: document)
        guard let (splices, created, offset) = removeThenInsert(removals, blocks: [block], in: document, at: placement) else { return nil }
        if let result = try? Splice.apply(splices, to: document.source.bytes), result == document.source.bytes { return nil }
        return SameFile(splices: splices, createdSection: created, itemOffset: offset)
    }

    /// Applies `removals` (`RemoveItem.splices`: deletions, or an empty line
    /// where taking the lines out would join their neighbours), finds
    /// `placement` in what is left, and expresses the insertion there as a
    /// splice against the original bytes too. The result's bytes are those
    /// of inserting into what the removals leave, so the insertion's
    /// `itemOffset` (returned third) holds in them.
    static func removeThenInsert(
        _ removals: [Splice], blocks: [ItemBlock], in document: Document,
        at placement: InsertItem.Placement
    ) -> ([Splice], String?, Int)? {
        let bytes = document.source.bytes
        guard let remaining = try? Splice.apply(removals, to: bytes) else { return nil }
        let afterRemoval = DocumentParser.parse(remaining, path: document.path)
        let insertion = InsertItem.insert(
            blocks, into: afterRemoval, at: placement,
            lineEnding: Array(document.source.lineEnding.utf8))
        // Map the insertion offset back to the original bytes: before a
        // removal it is shifted by the removals before it; inside or at the
        // edge of what a removal leaves, it joins that removal's replacement.
        let offset = insertion.splice.range.lowerBound
        var splices = removals.sorted { $0.range.lowerBound < $1.range.lowerBound }
        var shift = 0 // offset in `remaining` minus offset in `bytes`
        for index in splices.indices {
            let startInRemaining = splices[index].range.lowerBound + shift
            let endInRemaining = startInRemaining + splices[index].replacement.count
            if offset < startInRemaining { break }
            if offset <= endInRemaining {
                let kept = splices[index].replacement
                let cut = offset - startInRemaining
                splices[index].replacement = Array(kept[..<cut]) + insertion.splice.replacement + Array(kept[cut...])
                return (splices, insertion.createdSection, insertion.itemOffset)
            }
            shift += splices[index].replacement.count - splices[index].range.count
        }
        splices.append(Splice.insert(insertion.splice.replacement, at: offset - shift))
        return (splices, insertion.createdSection, insertion.itemOffset)
    }

    /// Moves item `index` of `source` to `placement` in another list,
    /// `destination`: the deletion in the one and the insertion in the other
    /// (`itemOffset`: where the item starts in the edited destination).
    public static func move(_ index: Int, from source: Document, to destination: Document, at placement: InsertItem.Placement)
        -> (source: [Splice], destination: [Splice], createdSection: String?, itemOffset: Int)
    {
        let block = ItemBlock(of: source.items[index], in: source)
        let insertion = InsertItem.insert([block], into: destination, at: placement)
        return (RemoveItem.splices([index], in: source), [insertion.splice], insertion.createdSection, insertion.itemOffset)
    }
}
