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
    }

    /// Moves item `index` within `document` to `placement`; nil when the
    /// item is already where it would go.
    public static func move(_ index: Int, in document: Document, to placement: InsertItem.Placement) -> SameFile? {
        let item = document.items[index]
        let block = ItemBlock(of: item, in: document)
        let deletions = RemoveItem.deletions([index], in: document)
        guard let (splices, created) = removeThenInsert(deletions, blocks: [block], in: document, at: placement) else { return nil }
        if let result = try? Splice.apply(splices, to: document.source.bytes), result == document.source.bytes { return nil }
        return SameFile(splices: splices, createdSection: created)
    }

    /// Applies `deletions`, finds `placement` in what is left, and expresses
    /// the insertion there as a splice against the original bytes too.
    static func removeThenInsert(_ deletions: [Range<Int>], blocks: [ItemBlock], in document: Document,
                                 at placement: InsertItem.Placement) -> ([Splice], String?)? {
        let bytes = document.source.bytes
        guard let remaining = try? Splice.apply(deletions.map(Splice.delete), to: bytes) else { return nil }
        let afterRemoval = DocumentParser.parse(remaining, path: document.path)
        let insertion = InsertItem.insert(blocks, into: afterRemoval, at: placement)
        // Map the insertion offset back to the original bytes.
        var removedBefore = 0
        var original = insertion.splice.range.lowerBound
        var mapped = false
        for deletion in deletions.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let startInRemaining = deletion.lowerBound - removedBefore
            if insertion.splice.range.lowerBound <= startInRemaining {
                original = insertion.splice.range.lowerBound + removedBefore
                mapped = true
                break
            }
            removedBefore += deletion.count
        }
        if !mapped { original = insertion.splice.range.lowerBound + removedBefore }
        var splices = deletions.map(Splice.delete)
        if let touching = splices.firstIndex(where: { $0.range.lowerBound == original }) {
            splices[touching].replacement = insertion.splice.replacement
        } else {
            splices.append(Splice.insert(insertion.splice.replacement, at: original))
        }
        return (splices, insertion.createdSection)
    }

    /// Moves item `index` of `source` to `placement` in another list,
    /// `destination`: the deletion in the one and the insertion in the other.
    public static func move(_ index: Int, from source: Document, to destination: Document,
                            at placement: InsertItem.Placement) -> (source: [Splice], destination: [Splice], createdSection: String?) {
        let block = ItemBlock(of: source.items[index], in: source)
        let insertion = InsertItem.insert([block], into: destination, at: placement)
        return (RemoveItem.splices([index], in: source), [insertion.splice], insertion.createdSection)
    }
}
