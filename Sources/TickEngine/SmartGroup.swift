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
        // Each member's keys are read once, not at every comparison.
        var keyed = items.compactMapReleasingCachePages { item -> (item: EncodedListedItem, date: TaskDate?, rank: Int, offset: Int)? in
            let due = item.date(.due)
            guard contains(status: item.status, due: due, today: today) else { return nil }
            return (item, self == .completed ? item.date(.done) : due, item.listRank, item.fileOffset)
        }
        keyed.sort { lhs, rhs in
            let order = compare(lhs.date, rhs.date, today: today)
            if order != 0 { return order < 0 }
            // Manual order breaks ties.
            if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
            return lhs.offset < rhs.offset
        }
        return keyed.map(\.item)
    }

    /// The group's own order before manual order breaks ties, from each
    /// item's due date (its done date for `completed`).
    private func compare(_ lhs: TaskDate?, _ rhs: TaskDate?, today: TaskDate) -> Int {
        switch self {
        case .today:
            let left = lhs.map { $0.compareDay(today) < 0 } ?? false
            let right = rhs.map { $0.compareDay(today) < 0 } ?? false
            return left == right ? 0 : (left ? -1 : 1)
        case .scheduled:
            return SortKey.compareDates(lhs, rhs)
        case .all, .overdue:
            return 0
        case .completed:
            // Newest done date first; undated ones last.
            switch (lhs, rhs) {
            case (nil, nil): return 0
            case (nil, _): return 1
            case (_, nil): return -1
            case (let left?, let right?): return -left.compareDay(right)
            }
        }
    }

    /// How the group is grouped when the user asks for nothing else:
    /// `scheduled` by day, the others not at all.
    public var defaultGrouping: GroupKey? { self == .scheduled ? .day : nil }

    /// The four groups counted on the home screen.
    public static let homeGroups: [SmartGroup] = [.today, .scheduled, .all, .overdue]
}
