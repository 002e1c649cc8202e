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

    private init(keys: Set<Key>) { self.keys = keys }

    public init(_ items: [EncodedListedItem]) { self = Self.sets(of: [items])[0] }

    /// A set for each group of items, read in one pass over all the groups'
    /// items: runs of them on every core, each run giving its pages back
    /// (short runs: each core holds the pages of the run it reads). A
    /// folder grouped by list has tens of thousands of groups: reading each
    /// on its own gave back a few kilobytes at a time, while the pages
    /// mapped around them stayed, most of the cache in the end.
    public static func sets(of groups: [[EncodedListedItem]]) -> [ItemSet] {
        var starts: [Int] = []
        var total = 0
        for group in groups {
            starts.append(total)
            total += group.count
        }
        // Only an item with subtasks can enclose another: the others are
        // never asked about, and a listing of a million items holds few.
        let found = Parallel.map(chunksOf: 16_384, in: total) { run in
            var group = starts.lastIndex { $0 <= run.lowerBound } ?? 0
            var keys: [(group: Int, key: Key)] = []
            var pages = CachePages()
            for position in run {
                while position - starts[group] >= groups[group].count { group += 1 }
                let item = groups[group][position - starts[group]]
                pages.include(item.document)
                if item.hasSubtasks { keys.append((group, Key(list: ObjectIdentifier(item.document), index: item.index))) }
            }
            pages.release()
            return keys
        }
        var keysOfGroup = [[Key]](repeating: [], count: groups.count)
        for (group, key) in found.joined() { keysOfGroup[group].append(key) }
        return keysOfGroup.map { ItemSet(keys: Set($0)) }
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
