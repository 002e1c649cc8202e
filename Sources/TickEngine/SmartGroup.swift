import TickModel
import TickRecords

/// The smart groups of the home screen (SPEC §4), with the membership and
/// order the SPEC gives.
///
/// | group | members | order |
/// | --- | --- | --- |
/// | today | open or in progress, due on or before today | overdue first, then manual |
/// | scheduled | open or in progress, with a due date | due date, then manual; grouped by day |
/// | all | open or in progress | manual |
/// | overdue | open or in progress, due before today | manual |
/// | completed | done (not cancelled) | newest done date first, undated last, then manual |
///
/// Dates are compared as days: an item due today at 09:00 is due today, not
/// overdue. Cancelled items belong to no smart group.
public enum SmartGroup: String, Sendable, CaseIterable {
    case today, scheduled, all, overdue, completed

    /// The name shown on the home screen.
    public var title: String {
        switch self {
        case .today: "Today"
        case .scheduled: "Scheduled"
        case .all: "All"
        case .overdue: "Overdue"
        case .completed: "Completed"
        }
    }

    /// True when `item` belongs to this group on `today`.
    public func contains(_ item: EncodedListedItem, today: TaskDate) -> Bool {
        contains(status: item.status, due: item.date(.due), today: today)
    }

    private func contains(status: TaskStatus, due: TaskDate?, today: TaskDate) -> Bool {
        count(in: ListTally(status: status, due: due, today: today)) == 1
    }

    /// How many of the items `tally` counts belong to this group: the
    /// group's one definition, for an item and for whole lists alike.
    public func count(in tally: ListTally) -> Int {
        switch self {
        case .today: tally.openDueByToday
        case .scheduled: tally.openDue
        case .all: tally.open
        case .overdue: tally.openOverdue
        case .completed: tally.done
        }
    }

    /// The members of this group among `items`, in the group's own order.
    /// `items` may come in any order; ties always fall back to manual order.
    public func members(of items: [EncodedListedItem], today: TaskDate) -> [EncodedListedItem] {
        // Each member's keys are read once, and sorted as plain numbers.
        var keyed: [(key: UInt64, rank: Int, offset: Int, index: Int)] = []
        var index = 0
        items.forEachReleasingCachePages { item in
            if let key = orderKey(item, today: today) { keyed.append((key, item.listRank, item.fileOffset, index)) }
            index += 1
        }
        keyed.sort { lhs, rhs in
            if lhs.key != rhs.key { return lhs.key < rhs.key }
            // Manual order breaks ties.
            if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
            return lhs.offset < rhs.offset
        }
        return keyed.map { items[$0.index] }
    }

    /// True for the groups whose order is manual order (`orderKey` is the
    /// same for every member): their members need no key to be sorted by.
    var isInManualOrder: Bool { self == .all || self == .overdue }

    /// The group's own order for `item`, as a number (smaller first; manual
    /// order breaks ties), from its due date (its done date for
    /// `completed`); nil when the item is not a member.
    func orderKey(_ item: EncodedListedItem, today: TaskDate) -> UInt64? {
        let due = item.date(.due)
        guard contains(status: item.status, due: due, today: today) else { return nil }
        switch self {
        case .today:
            // Overdue first.
            return due.map { $0.compareDay(today) < 0 } == true ? 0 : 1
        case .scheduled:
            return SortKey.orderKey(of: due)
        case .all, .overdue:
            return 0 // `isInManualOrder`
        case .completed:
            // Newest done day first; undated ones last.
            guard let done = item.date(.done) else { return .max }
            return UInt64(UInt32.max - done.packed.day)
        }
    }

    /// How the group is grouped when the user asks for nothing else:
    /// `scheduled` by day, the others not at all.
    public var defaultGrouping: GroupKey? { self == .scheduled ? .day : nil }

    /// The four groups counted on the home screen.
    public static let homeGroups: [SmartGroup] = [.today, .scheduled, .all, .overdue]
}
