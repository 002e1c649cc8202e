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
    /// items: runs of them on every core (`CachePages.runs`: short where the
    /// items lie far apart in the cache, as a small group's do), each run
    /// giving its pages back. A folder grouped by list has tens of
    /// thousands of groups: reading each on its own gave back a few
    /// kilobytes at a time, while the pages mapped around them stayed, most
    /// of the cache in the end.
    public static func sets(of groups: [[EncodedListedItem]]) -> [ItemSet] {
        var starts: [Int] = []
        var total = 0
        for group in groups {
            starts.append(total)
            total += group.count
        }
        /// The group of the item at `position` among all the groups' items.
        func group(at position: Int) -> Int {
            var (low, high) = (0, starts.count - 1)
            while low < high {
                let middle = (low + high + 1) / 2
                if starts[middle] <= position { low = middle } else { high = middle - 1 }
            }
            return low
        }
        let runs = CachePages.runs(of: total, atMost: 16_384, spanningAtMost: 8 << 20) { position in
            let group = group(at: position)
            return groups[group][position - starts[group]].document
        }
        // Only an item with subtasks can enclose another: the others are
        // never asked about, and a listing of a million items holds few.
        let found = Parallel.map(runs.count) { run in
            var group = group(at: runs[run].lowerBound)
            var keys: [(group: Int, key: Key)] = []
            var pages = CachePages()
            for position in runs[run] {
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
