import TickRecords
import TickSystem

/// A set of items of a folder, for asking how many of an item's enclosing
/// items are in it: a result's subtasks are indented under the parents
/// listed with them, and `--where` edits only the topmost of nested matches.
public struct ItemSet {
    /// An item with subtasks in one of the sets made together: the sets
    /// of a listing's groups share one hash set (a listing grouped by
    /// section has a set for every few items).
    private struct Key: Hashable {
        let list: ObjectIdentifier
        let index: Int32
        let group: Int32
    }

    private let keys: Set<Key>
    private let group: Int32

    private init(keys: Set<Key>, group: Int32) {
        self.keys = keys
        self.group = group
    }

    public init(_ items: [EncodedListedItem]) { self = Self.sets(of: ItemGroups(ungrouped: items))[0] }

    /// A set for each group of items, read in one pass over all the groups'
    /// items: runs of them on every core (`CachePages.runs`: short where the
    /// items lie far apart in the cache, as a small group's do), each run
    /// giving its pages back. A folder grouped by list has tens of
    /// thousands of groups: reading each on its own gave back a few
    /// kilobytes at a time, while the pages mapped around them stayed, most
    /// of the cache in the end.
    public static func sets(of groups: ItemGroups) -> [ItemSet] {
        let items = groups.items
        let runs = CachePages.runs(of: items.count, atMost: 16_384, spanningAtMost: 8 << 20) { items[$0].document }
        // Only an item with subtasks can enclose another: the others are
        // never asked about, and a listing of a million items holds few.
        let found = Parallel.map(runs.count) { run in
            var group = groups.group(containing: runs[run].lowerBound)
            var keys: [Key] = []
            var pages = CachePages()
            for position in runs[run] {
                while position >= groups.range(of: group).upperBound { group += 1 }
                let item = items[position]
                pages.include(item.document)
                if item.hasSubtasks { keys.append(Key(list: ObjectIdentifier(item.document), index: Int32(item.index), group: Int32(group))) }
            }
            pages.release()
            return keys
        }
        var keys = Set<Key>(minimumCapacity: found.reduce(0) { $0 + $1.count })
        for run in found { keys.formUnion(run) }
        return groups.indices.map { ItemSet(keys: keys, group: Int32($0)) }
    }

    /// How many of the items that enclose `item` (its parent, the parent's
    /// parent, …) are in the set.
    public func ancestorCount(of item: EncodedListedItem) -> Int {
        let list = ObjectIdentifier(item.document)
        var count = 0
        var parent = item.parentIndex
        while let index = parent {
            if keys.contains(Key(list: list, index: Int32(index), group: group)) { count += 1 }
            parent = item.document.parentIndex(of: index)
        }
        return count
    }
}
