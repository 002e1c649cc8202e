import TickModel
import TickRecords

/// `tick agenda`: the coming days, each with what is due, scheduled or
/// starting on it, like Emacs Org's agenda.
///
/// Guarantees: only open and in-progress items appear. The first section,
/// "Overdue", holds every item due before today. Then each day from today
/// holds the items due, scheduled or starting that day (one entry per item,
/// with every reason). Today also holds the items scheduled before today
/// that are still open (not already overdue), and, as Org's deadline
/// warnings do, the items due after the last day shown but within
/// `warningDays` of today. Items keep manual order within a section.
public enum Agenda {
    /// Why an item is on a day.
    public enum Reason: String, Sendable, Equatable {
        case overdue, due, scheduled, start
        /// Scheduled before today and still open (shown on today).
        case scheduledEarlier = "scheduled-earlier"
        /// Due after the days shown, within the warning days (shown on today).
        case dueSoon = "due-soon"
    }

    public struct Entry {
        public var record: EncodedListedItem
        public var reasons: [Reason]
    }

    public struct Day {
        /// Nil for the overdue section.
        public var date: TaskDate?
        public var entries: [Entry]
    }

    /// The overdue section (only when something is overdue) and `count` days from `today`.
    ///
    /// One pass over `items`, which gives the parse cache's pages back as
    /// it goes (`forEachReleasingCachePages`): a folder's items lie all
    /// over the cache, and reading them all kept all of it mapped.
    public static func days(
        _ items: [EncodedListedItem], today: TaskDate, count: Int,
        warningDays: Int = 14
    ) -> [Day] {
        let today = today.dayOnly
        let dates = (0..<max(count, 1)).map { today.adding($0, .day) }
        let lastShown = dates.last!
        var overdue: [Int] = []
        // Each item's reasons by day, from one pass over the items (in
        // manual order, which each day keeps).
        var byDay: [TaskDate: [(item: Int, reasons: [Reason])]] = [:]
        func add(_ index: Int, _ reason: Reason, on day: TaskDate) {
            // Changed where it lies in the dictionary: a copy taken out and
            // put back copied the whole day's array on every append.
            Self.add(index, reason, to: &byDay[day, default: []])
        }
        var index = -1
        items.forEachReleasingCachePages { item in
            index += 1
            guard item.status.isOpen else { return }
            let due = item.date(.due)
            let isOverdue = due.map { $0.compareDay(today) < 0 } ?? false
            if isOverdue { overdue.append(index) }
            for (field, reason) in [(MetadataField.due, Reason.due), (.scheduled, .scheduled), (.start, .start)] {
                if let date = item.date(field)?.dayOnly, date >= today, date <= lastShown { add(index, reason, on: date) }
            }
            if !isOverdue, let scheduled = item.date(.scheduled), scheduled.compareDay(today) < 0 { add(index, .scheduledEarlier, on: today) }
            if let due, due.compareDay(lastShown) > 0, today.days(until: due.dayOnly) <= warningDays {
                add(index, .dueSoon, on: today)
            }
        }
        var result: [Day] = []
        if !overdue.isEmpty { result.append(Day(date: nil, entries: overdue.map { Entry(record: items[$0], reasons: [.overdue]) })) }
        for day in dates {
            result.append(Day(date: day, entries: (byDay[day] ?? []).map { Entry(record: items[$0.item], reasons: $0.reasons) }))
        }
        return result
    }

    /// Adds `reason` to the item at `index`: to its entry when it is the
    /// last one (an item's reasons are added one after another), else as a
    /// new entry.
    private static func add(_ index: Int, _ reason: Reason, to entries: inout [(item: Int, reasons: [Reason])]) {
        if entries.last?.item == index { entries[entries.count - 1].reasons.append(reason) } else { entries.append((index, [reason])) }
    }
}
