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
    public static func days(
        _ items: [EncodedListedItem], today: TaskDate, count: Int,
        warningDays: Int = 14
    ) -> [Day] {
        let today = today.dayOnly
        let open = items.filter { $0.status.isOpen }
        let dates = (0..<max(count, 1)).map { today.adding($0, .day) }
        let overdue = open.filter { $0.date(.due).map { $0.compareDay(today) < 0 } ?? false }
        var result: [Day] = []
        if !overdue.isEmpty { result.append(Day(date: nil, entries: overdue.map { Entry(record: $0, reasons: [.overdue]) })) }
        let lastShown = dates.last!
        // Each item's reasons by day, from one pass over the items (in
        // manual order, which each day keeps).
        var byDay: [TaskDate: [(item: Int, reasons: [Reason])]] = [:]
        func add(_ index: Int, _ reason: Reason, on day: TaskDate) {
            var entries = byDay[day, default: []]
            if entries.last?.item == index { entries[entries.count - 1].reasons.append(reason) } else { entries.append((index, [reason])) }
            byDay[day] = entries
        }
        for (index, item) in open.enumerated() {
            for (field, reason) in [(MetadataField.due, Reason.due), (.scheduled, .scheduled), (.start, .start)] {
                if let date = item.date(field)?.dayOnly, date >= today, date <= lastShown { add(index, reason, on: date) }
            }
            let isOverdue = item.date(.due).map { $0.compareDay(today) < 0 } ?? false
            if !isOverdue, let scheduled = item.date(.scheduled), scheduled.compareDay(today) < 0 { add(index, .scheduledEarlier, on: today) }
            if let due = item.date(.due), due.compareDay(lastShown) > 0, today.days(until: due.dayOnly) <= warningDays {
                add(index, .dueSoon, on: today)
            }
        }
        for day in dates {
            result.append(Day(date: day, entries: (byDay[day] ?? []).map { Entry(record: open[$0.item], reasons: $0.reasons) }))
        }
        return result
    }
}
