import Foundation
import TickModel
import TickRecords

/// A named run of items: one group of grouped output.
public struct ItemGroup: Sendable {
    public var name: String
    public var items: [EncodedListedItem]

    public init(name: String, items: [EncodedListedItem]) {
        self.name = name
        self.items = items
    }
}

/// Splits items into groups. Groups come in the key's own order, empty
/// groups are left out, and within a group items keep the order they came in.
public enum Grouping {
    public static func group(_ items: [EncodedListedItem], by key: GroupKey, today: TaskDate) -> [ItemGroup] {
        // Each item's groups are found in the order the items lie in the
        // parse cache, a run at a time, the run's pages given back after
        // it: items in another order (by due date) would map most of the
        // cache. Then the items are put in their groups in the order they
        // came in.
        // A group is named as the first of its items in the given order
        // writes it (`#Work` or `#work`): `namedAt` is that item's place.
        var groups: [(name: String, namedAt: Int, rank: [String], items: [EncodedListedItem])] = []
        var groupOfIdentity: [String: Int32] = [:] // groups by identity (two lists may share a name)
        var firstGroup = [Int32](repeating: -1, count: items.count)
        var otherGroups: [(position: Int, group: Int32)] = [] // an item's second group and on (tags)
        let positions = items.isInCacheOrder ? Array(items.indices) : items.indices.sorted { items[$0].cacheOrder < items[$1].cacheOrder }
        for runStart in stride(from: 0, to: positions.count, by: 65_536) {
            var pages = CachePages()
            for position in positions[runStart..<min(positions.count, runStart + 65_536)] {
                let item = items[position]
                pages.include(item.document)
                var joined: [Int32] = []
                for membership in memberships(of: item, key: key, today: today) {
                    let identity = membership.rank.joined(separator: "\u{0}")
                    let group =
                        groupOfIdentity[identity]
                        ?? {
                            groups.append((membership.name, position, membership.rank, []))
                            groupOfIdentity[identity] = Int32(groups.count - 1)
                            return Int32(groups.count - 1)
                        }()
                    if position < groups[Int(group)].namedAt { (groups[Int(group)].name, groups[Int(group)].namedAt) = (membership.name, position) }
                    guard !joined.contains(group) else { continue }
                    joined.append(group)
                    if joined.count == 1 { firstGroup[position] = group } else { otherGroups.append((position, group)) }
                }
            }
            pages.release()
        }
        otherGroups.sort { $0.position < $1.position }
        var nextOther = otherGroups.startIndex
        for (position, item) in items.enumerated() {
            if firstGroup[position] >= 0 { groups[Int(firstGroup[position])].items.append(item) }
            while nextOther < otherGroups.endIndex, otherGroups[nextOther].position == position {
                groups[Int(otherGroups[nextOther].group)].items.append(item)
                nextOther += 1
            }
        }
        // Ranks tell groups apart: no two are equal.
        return groups.sorted { $0.rank.lexicographicallyPrecedes($1.rank) }.map { ItemGroup(name: $0.name, items: $0.items) }
    }

    /// The due buckets in display order.
    public static let dueBuckets = ["Overdue", "Earlier", "Today", "Tomorrow", "This week", "Later", "No date"]

    /// The due bucket of an item on `today`.
    public static func dueBucket(of item: EncodedListedItem, today: TaskDate) -> String {
        guard let due = item.date(.due) else { return "No date" }
        let days = today.days(until: due.dayOnly)
        if days < 0 { return item.status.isOpen ? "Overdue" : "Earlier" }
        if days == 0 { return "Today" }
        if days == 1 { return "Tomorrow" }
        let endOfWeek = today.adding(7 - today.isoWeekday, .day)
        if due.compareDay(endOfWeek) <= 0 { return "This week" }
        return "Later"
    }

    /// Fixed-width text that sorts numbers (none negative) in order (eight digits, as
    /// `%08d` writes them, without a format string per item).
    private static func padded(_ number: Int) -> String {
        let digits = String(number)
        return digits.count >= 8 ? digits : String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// The groups one item belongs to: each group's name and its rank, which
    /// orders the groups and tells them apart.
    private static func memberships(of item: EncodedListedItem, key: GroupKey, today: TaskDate) -> [(name: String, rank: [String])] {
        switch key {
        case .list:
            return [(item.listName, [padded(item.listRank)])] // ranks are unique per list
        case .section:
            let list = padded(item.listRank)
            guard let section = item.sectionIndex, let title = item.sectionTitle else { return [(item.listName, [list, padded(0)])] }
            return [("\(item.listName) › \(title.string)", [list, padded(section + 1)])]
        case .priority:
            let priority = item.priority
            return [(priority.name, [padded(Priority.urgent.rawValue - priority.rawValue)])]
        case .due:
            let bucket = dueBucket(of: item, today: today)
            return [(bucket, [padded(dueBuckets.firstIndex(of: bucket)!)])]
        case .tag:
            let tags = item.tags.map(\.string)
            if tags.isEmpty { return [("No tag", ["1"])] }
            return tags.map { ("#" + $0, ["0", $0.lowercased()]) } // #Work and #work are one group
        case .status:
            let order: [TaskStatus] = [.open, .inProgress, .done, .cancelled]
            return [(item.status.rawValue, [padded(order.firstIndex(of: item.status)!)])]
        case .folder:
            let parts = item.listPath.split(separator: "/")
            let folder = parts.count > 1 ? parts.dropLast().joined(separator: "/") : "."
            return [(folder, [folder == "." ? "0" : "1", folder])]
        case .day:
            guard let due = item.date(.due) else { return [("No date", ["1"])] }
            return [(due.dayOnly.isoString, ["0", due.dayOnly.isoString])]
        }
    }
}
