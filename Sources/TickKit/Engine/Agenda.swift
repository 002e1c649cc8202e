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

    public struct Entry<Record: ItemRecord> {
        public var record: Record
        public var reasons: [Reason]
    }

    public struct Day<Record: ItemRecord> {
        /// Nil for the overdue section.
        public var date: TaskDate?
        public var entries: [Entry<Record>]
    }

    /// The overdue section (only when something is overdue) and `count` days from `today`.
    public static func days<Record: ItemRecord>(_ items: [Record], today: TaskDate, count: Int,
                                                warningDays: Int = 14) -> [Day<Record>] {
        let today = today.dayOnly
        let open = items.filter { $0.status.isOpen }
        let dates = (0..<max(count, 1)).map { today.adding($0, .day) }
        func same(_ date: TaskDate?, _ day: TaskDate) -> Bool { date.map { $0.compareDay(day) == 0 } ?? false }
        let overdue = open.filter { $0.date(.due).map { $0.compareDay(today) < 0 } ?? false }
        var result: [Day<Record>] = []
        if !overdue.isEmpty { result.append(Day(date: nil, entries: overdue.map { Entry(record: $0, reasons: [.overdue]) })) }
        let lastShown = dates.last!
        for day in dates {
            var entries: [Entry<Record>] = []
            for item in open {
                var reasons: [Reason] = []
                if same(item.date(.due), day) { reasons.append(.due) }
                if same(item.date(.scheduled), day) { reasons.append(.scheduled) }
                if same(item.date(.start), day) { reasons.append(.start) }
                if day == today {
                    let isOverdue = item.date(.due).map { $0.compareDay(today) < 0 } ?? false
                    if !isOverdue, let scheduled = item.date(.scheduled), scheduled.compareDay(today) < 0 { reasons.append(.scheduledEarlier) }
                    if let due = item.date(.due), due.compareDay(lastShown) > 0, today.days(until: due.dayOnly) <= warningDays {
                        reasons.append(.dueSoon)
                    }
                }
                if !reasons.isEmpty { entries.append(Entry(record: item, reasons: reasons)) }
            }
            result.append(Day(date: day, entries: entries))
        }
        return result
    }
}
