import TickRecords
import TickSystem

/// A set of items of a folder, for asking how many of an item's enclosing
/// items are in it: a result's subtasks are indented under the parents
/// listed with them, and `--where` edits only the topmost of nested matches.
public struct ItemSet {
    private struct Key: Hashable {
        let list: ObjectIdentifier
        let index: Int
    }

    private let keys: Set<Key>

    public init(_ items: [EncodedListedItem]) {
        // Only an item with subtasks can enclose another: the others are
        // never asked about, and a listing of a million items holds few.
        // Runs of items are read on every core, each giving its pages back
        // (short runs: each core holds the pages of the run it reads).
        let runs = Parallel.map(chunksOf: 16_384, in: items.count) { range in
            let run = items[range]
            defer { run.releaseCachePages() }
            return run.compactMap { $0.hasSubtasks ? Key(list: ObjectIdentifier($0.document), index: $0.index) : nil }
        }
        keys = Set(runs.joined())
    }

    /// How many of the items that enclose `item` (its parent, the parent's
    /// parent, …) are in the set.
    public func ancestorCount(of item: EncodedListedItem) -> Int {
        let list = ObjectIdentifier(item.document)
        var count = 0
        var parent = item.parentIndex
        while let index = parent {
            if keys.contains(Key(list: list, index: index)) { count += 1 }
            parent = item.document.parentIndex(of: index)
        }
        return count
    }
}
