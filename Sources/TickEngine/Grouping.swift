import Foundation
import TickModel
import TickRecords

/// A named run of items: one group of grouped output. Its items are a
/// slice of `ItemGroups.items`, which holds every group's items (no array
/// per group): index them from `items.startIndex`.
public struct ItemGroup: Sendable {
    public var name: String
    public var items: ArraySlice<EncodedListedItem>
}

/// Items in named groups, the groups in order: every group's items lie in
/// one array (`items`), group after group, and each group is a slice of it.
/// No group is empty, but the one group of an ungrouped listing.
public struct ItemGroups: RandomAccessCollection, Sendable {
    /// Every group's items, group after group.
    public let items: [EncodedListedItem]
    private let names: [String]
    /// Where each group's items start in `items` (ascending, the first 0).
    private let starts: [Int]

    init(items: [EncodedListedItem], names: [String], starts: [Int]) {
        (self.items, self.names, self.starts) = (items, names, starts)
    }

    /// All of `items` as one group without a name: an ungrouped listing.
    public init(ungrouped items: [EncodedListedItem]) {
        self.init(items: items, names: [""], starts: [0])
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { names.count }

    public subscript(group: Int) -> ItemGroup {
        ItemGroup(name: names[group], items: items[range(of: group)])
    }

    /// Where the group at `group` lies in `items`.
    public func range(of group: Int) -> Range<Int> {
        starts[group]..<(group + 1 < starts.count ? starts[group + 1] : items.count)
    }

    /// The index of the group whose items hold `items[position]`.
    public func group(containing position: Int) -> Int { starts.run(containing: position) }
}

/// Splits items into groups. Groups come in the key's own order, empty
/// groups are left out, and within a group items keep the order they came in.
public enum Grouping {
    public static func group(_ items: [EncodedListedItem], by key: GroupKey, today: TaskDate) -> ItemGroups {
        // Each item's groups are found in the order the items lie in the
        // parse cache, a run at a time, the run's pages given back after
        // it: items in another order (by due date) would map most of the
        // cache. Then the items are put in their groups in the order they
        // came in, all groups in one array (a folder grouped by section
        // has a group for every few items: an array each cost more than
        // the items).
        // A group is named as the first of its items in the given order
        // writes it (`#Work` or `#work`): `namedAt` is that item's place.
        var groups: [(name: String, namedAt: Int, rank: GroupRank)] = []
        var groupOfRank: [GroupRank: Int32] = [:] // two lists may share a name, never a rank
        var firstGroup = [Int32](repeating: -1, count: items.count)
        var otherGroups: [(position: Int, group: Int32)] = [] // an item's second group and on (tags)
        var sizes: [Int32] = []
        let endOfWeek = today.adding(7 - today.isoWeekday, .day)
        var found: [Membership] = []
        var joined: [Int32] = []
        func place(_ item: EncodedListedItem, at position: Int) {
            found.removeAll(keepingCapacity: true)
            memberships(of: item, key: key, today: today, endOfWeek: endOfWeek, into: &found)
            joined.removeAll(keepingCapacity: true)
            for membership in found {
                let group: Int32
                if let existing = groupOfRank[membership.rank] {
                    group = existing
                    if position < groups[Int(group)].namedAt {
                        (groups[Int(group)].name, groups[Int(group)].namedAt) = (name(of: membership, item, key: key), position)
                    }
                } else {
                    group = Int32(groups.count)
                    groups.append((name(of: membership, item, key: key), position, membership.rank))
                    sizes.append(0)
                    groupOfRank[membership.rank] = group
                }
                guard !joined.contains(group) else { continue }
                joined.append(group)
                sizes[Int(group)] += 1
                if joined.count == 1 { firstGroup[position] = group } else { otherGroups.append((position, group)) }
            }
        }
        // The places of the items in the cache's order; nil when they came
        // in it (no array of 8 bytes an item).
        let positions = items.isInCacheOrder ? nil : items.indices.sorted { items[$0].cacheOrder < items[$1].cacheOrder }
        var next = 0
        (0..<items.count).lazy.map { items[positions?[$0] ?? $0] }.forEachReleasingCachePages { item in
            place(item, at: positions?[next] ?? next)
            next += 1
        }
        groupOfRank = [:]
        // Ranks tell groups apart: no two are equal.
        let order = groups.indices.sorted { groups[$0].rank < groups[$1].rank }
        var starts = [Int32](repeating: 0, count: groups.count)
        var total: Int32 = 0
        for group in order {
            starts[group] = total
            total += sizes[group]
        }
        // Where each membership goes among all the groups' items, in the
        // order the items came in.
        var filled = starts
        var slots = [Int32](repeating: 0, count: Int(total))
        otherGroups.sort { $0.position < $1.position }
        var nextOther = otherGroups.startIndex
        for position in items.indices {
            if firstGroup[position] >= 0 {
                let group = Int(firstGroup[position])
                slots[Int(filled[group])] = Int32(position)
                filled[group] += 1
            }
            while nextOther < otherGroups.endIndex, otherGroups[nextOther].position == position {
                let group = Int(otherGroups[nextOther].group)
                slots[Int(filled[group])] = Int32(position)
                filled[group] += 1
                nextOther += 1
            }
        }
        return ItemGroups(
            items: slots.map { items[Int($0)] }, names: order.map { groups[$0].name }, starts: order.map { Int(starts[$0]) })
    }

    /// The due buckets in display order.
    public static let dueBuckets = ["Overdue", "Earlier", "Today", "Tomorrow", "This week", "Later", "No date"]

    /// The due bucket (its place in `dueBuckets`) of an item on `today`,
    /// whose week ends on `endOfWeek`.
    private static func dueBucket(of item: EncodedListedItem, today: TaskDate, endOfWeek: TaskDate) -> Int {
        guard let due = item.date(.due) else { return 6 }
        let days = today.days(until: due.dayOnly)
        if days < 0 { return item.status.isOpen ? 0 : 1 }
        if days == 0 { return 2 }
        if days == 1 { return 3 }
        return due.compareDay(endOfWeek) <= 0 ? 4 : 5
    }

    /// Where a group stands among the key's groups: groups are ordered by
    /// rank, and the items of one rank are one group. Numbers first, then
    /// a text where a text orders the groups (a tag, a folder): a rank is
    /// found for each item, so it is made of strings only where it must be.
    private struct GroupRank: Hashable, Comparable {
        // 32-bit numbers: a folder grouped by section has a rank for every
        // few items, each one a dictionary key.
        let first: Int32
        let second: Int32
        let text: String

        init(first: Int, second: Int = 0, text: String = "") {
            (self.first, self.second, self.text) = (Int32(first), Int32(second), text)
        }

        static func < (lhs: GroupRank, rhs: GroupRank) -> Bool {
            if lhs.first != rhs.first { return lhs.first < rhs.first }
            if lhs.second != rhs.second { return lhs.second < rhs.second }
            return lhs.text < rhs.text
        }
    }

    /// One group an item belongs to: its rank, and for a tag group the tag
    /// as the item writes it (which names the group).
    private struct Membership {
        var rank: GroupRank
        var tag: String? = nil
    }

    /// Appends the groups one item belongs to.
    private static func memberships(
        of item: EncodedListedItem, key: GroupKey, today: TaskDate, endOfWeek: TaskDate, into found: inout [Membership]
    ) {
        switch key {
        case .list:
            found.append(Membership(rank: GroupRank(first: item.listRank))) // ranks are unique per list
        case .section:
            let section = item.sectionTitle == nil ? nil : item.sectionIndex
            found.append(Membership(rank: GroupRank(first: item.listRank, second: section.map { $0 + 1 } ?? 0)))
        case .priority:
            found.append(Membership(rank: GroupRank(first: Priority.urgent.rawValue - item.priority.rawValue)))
        case .due:
            found.append(Membership(rank: GroupRank(first: dueBucket(of: item, today: today, endOfWeek: endOfWeek))))
        case .tag:
            var hasTag = false
            item.forEachTag { tag in
                let text = tag.string
                found.append(Membership(rank: GroupRank(first: 0, text: text.lowercased()), tag: text)) // #Work and #work are one group
                hasTag = true
            }
            if !hasTag { found.append(Membership(rank: GroupRank(first: 1))) }
        case .status:
            let order: [TaskStatus] = [.open, .inProgress, .done, .cancelled]
            found.append(Membership(rank: GroupRank(first: order.firstIndex(of: item.status)!)))
        case .folder:
            let parts = item.listPath.split(separator: "/")
            let folder = parts.count > 1 ? parts.dropLast().joined(separator: "/") : "."
            found.append(Membership(rank: GroupRank(first: folder == "." ? 0 : 1, text: folder)))
        case .day:
            // TaskDate orders as its ISO text does (four-digit years).
            guard let due = item.date(.due) else { return found.append(Membership(rank: GroupRank(first: 1))) }
            let day = due.dayOnly
            found.append(Membership(rank: GroupRank(first: 0, second: day.year * 10_000 + day.month * 100 + day.day)))
        }
    }

    /// The name of the group `membership` puts `item` in, as the item writes it.
    private static func name(of membership: Membership, _ item: EncodedListedItem, key: GroupKey) -> String {
        switch key {
        case .list: return item.listName
        case .section:
            guard item.sectionIndex != nil, let title = item.sectionTitle else { return item.listName }
            return "\(item.listName) › \(title.string)"
        case .priority: return item.priority.name
        case .due: return dueBuckets[Int(membership.rank.first)]
        case .tag: return membership.tag.map { "#" + $0 } ?? "No tag"
        case .status: return item.status.rawValue
        case .folder: return membership.rank.text
        case .day: return item.date(.due)?.dayOnly.isoString ?? "No date"
        }
    }
}
