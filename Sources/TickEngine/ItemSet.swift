import TickRecords

/// A set of items of one folder's lists (each list with its own rank, as
/// the lists of an `EncodedWorkspace` have), for asking how many of an
/// item's enclosing items are in it: a result's subtasks are indented under
/// the parents listed with them, and `--where` edits only the topmost of
/// nested matches.
///
/// Guarantees: an answer reads no item's record but the enclosing items' of
/// the item asked about. The set holds each item as its list's rank and
/// its place in the list, in ascending order, and finds an item by binary
/// search: items in manual order are in that order already, and any other
/// order is sorted once.
public struct ItemSet {
    /// The keys (`key(rank:index:)`) of the items of every set made
    /// together, each set's keys ascending in its own range.
    private let keys: [UInt64]
    private let range: Range<Int>

    private init(keys: [UInt64], range: Range<Int>) {
        self.keys = keys
        self.range = range
    }

    public init(_ items: [EncodedListedItem]) { self = Self.sets(of: ItemGroups(ungrouped: items))[0] }

    /// A set for each group of items. The keys are made from the result
    /// items alone (no cache page is read): a listing of a million items in
    /// manual order reads its records once, when its rows are built.
    public static func sets(of groups: ItemGroups) -> [ItemSet] {
        var keys = groups.items.map { key(rank: $0.listRank, index: $0.index) }
        for group in groups.indices {
            let range = groups.range(of: group)
            if !keys[range].isAscending { keys[range].sort() }
        }
        return groups.indices.map { [keys] in ItemSet(keys: keys, range: groups.range(of: $0)) }
    }

    /// How many of the items that enclose `item` (its parent, the parent's
    /// parent, …) are in the set.
    public func ancestorCount(of item: EncodedListedItem) -> Int {
        var count = 0
        var parent = item.parentIndex
        while let index = parent {
            if contains(Self.key(rank: item.listRank, index: index)) { count += 1 }
            parent = item.document.parentIndex(of: index)
        }
        return count
    }

    private func contains(_ key: UInt64) -> Bool {
        var (low, high) = (range.lowerBound, range.upperBound)
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < range.upperBound && keys[low] == key
    }

    /// An item's list rank and place, ordered as manual order orders them.
    private static func key(rank: Int, index: Int) -> UInt64 {
        UInt64(UInt32(truncatingIfNeeded: rank)) << 32 | UInt64(UInt32(truncatingIfNeeded: index))
    }
}

extension ArraySlice<UInt64> {
    fileprivate var isAscending: Bool { indices.dropFirst().allSatisfy { self[$0 - 1] <= self[$0] } }
}
