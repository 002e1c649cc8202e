import TickModel
import TickSyntax

/// Moves finished items out of the way (`tick archive`).
///
/// Guarantees: every top-level item that is done or cancelled and not
/// already under a `Done` heading moves, with its notes and subtasks and in
/// file order, to the end of the list's `## Done` section (created at the end
/// of the file when missing), or to the end of another list. Open items and
/// everything else stay byte for byte.
public enum Archive {
    /// The items `archive` moves: top-level, done or cancelled, not in a
    /// section called Done.
    public static func candidates(in document: Document) -> [Int] {
        document.items.filter { item in
            item.depth == 0 && (item.status == .done || item.status == .cancelled)
                && !(item.section.map { document.sections[$0].title.lowercased() == doneSection.lowercased() } ?? false)
        }.map(\.index)
    }

    /// The heading archived items go under.
    public static let doneSection = "Done"

    /// Moves the candidates to the `## Done` section of the same list; nil
    /// when there is nothing to move.
    public static func splices(in document: Document) -> (splices: [Splice], moved: [Int], createdSection: Bool)? {
        let moved = candidates(in: document)
        guard !moved.isEmpty else { return nil }
        let blocks = moved.map { ItemBlock(of: document.items[$0], in: document) }
        let removals = RemoveItem.splices(moved, in: document)
        guard
            let (splices, created, _) = MoveItem.removeThenInsert(
                removals, blocks: blocks, in: document,
                at: .section(doneSection))
        else { return nil }
        return (splices, moved, created != nil)
    }

    /// Moves the candidates to the end of `destination`, another list, or into
    /// a new file's text when `destination` is nil (`title` names it).
    public static func splices(from document: Document, to destination: Document?, newFileTitle title: String)
        -> (source: [Splice], destination: [Splice], newFile: [UInt8]?, moved: [Int])?
    {
        let moved = candidates(in: document)
        guard !moved.isEmpty else { return nil }
        let blocks = moved.map { ItemBlock(of: document.items[$0], in: document) }
        let source = RemoveItem.splices(moved, in: document)
        if let destination {
            let insertion = InsertItem.insert(blocks, into: destination, at: .endOfList)
            return (source, [insertion.splice], nil, moved)
        }
        let ending = Array(document.source.lineEnding.utf8)
        let empty = DocumentParser.parse(Array("# \(title)".utf8) + ending, path: "")
        let insertion = InsertItem.insert(blocks, into: empty, at: .endOfList)
        let text = try? Splice.apply([insertion.splice], to: empty.source.bytes)
        return (source, [], text, moved)
    }
}
