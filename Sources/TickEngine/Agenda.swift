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
    public enum Reason: String, Sendable, Equatable, CaseIterable {
        case overdue, due, scheduled, start
        /// Scheduled before today and still open (shown on today).
        case scheduledEarlier = "scheduled-earlier"
        /// Due after the days shown, within the warning days (shown on today).
        case dueSoon = "due-soon"

        fileprivate var bit: UInt8 {
            switch self {
            case .overdue: 1
            case .due: 2
            case .scheduled: 4
            case .start: 8
            case .scheduledEarlier: 16
            case .dueSoon: 32
            }
        }
    }

    /// The reasons an item is on a day: a set held in one byte (an array
    /// for each of hundreds of thousands of entries was a heap block each),
    /// listed in the order `Reason` declares them, which is the order
    /// `days` finds them in.
    public struct Reasons: Sequence, Equatable, Sendable {
        private var bits: UInt8 = 0

        public init(_ reasons: [Reason] = []) {
            for reason in reasons { insert(reason) }
        }

        /// The set of `reason` alone (no array made for it: `days` makes
        /// one for each of hundreds of thousands of entries).
        public init(_ reason: Reason) { bits = reason.bit }

        public mutating func insert(_ reason: Reason) { bits |= reason.bit }

        public func contains(_ reason: Reason) -> Bool { bits & reason.bit != 0 }

        public func makeIterator() -> some IteratorProtocol<Reason> {
            Reason.allCases.lazy.filter { contains($0) }.makeIterator()
        }
    }

    public struct Entry {
        public var record: EncodedListedItem
        public var reasons: Reasons
    }

    public struct Day {
        /// Nil for the overdue section.
        public var date: TaskDate?
        public var entries: [Entry]
    }

    /// Whether `item` can be on an agenda at all: it is open (or in
    /// progress) and has a due, scheduled or start date. A command gathers
    /// only these (on every core) rather than every item of the folder.
    public static func mayShow(_ item: EncodedListedItem) -> Bool {
        item.status.isOpen && (item.date(.due) != nil || item.date(.scheduled) != nil || item.date(.start) != nil)
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
        // Each date's first place among the days. (Before 1583 Foundation's
        // calendar can give one date twice, as year 0 turns into year 1:
        // such days share their entries.)
        let dayOfDate = Dictionary(dates.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let todayPlace = dayOfDate[today]
        var overdue: [Int] = []
        // Each day's items with their reasons, from one pass over the items
        // (in manual order, which each day keeps).
        var byDay = [[(item: Int, reasons: Reasons)]](repeating: [], count: dates.count)
        func add(_ index: Int, _ reason: Reason, on day: Int) {
            if byDay[day].last?.item == index {
                byDay[day][byDay[day].count - 1].reasons.insert(reason)
            } else {
                byDay[day].append((index, Reasons(reason)))
            }
        }
        func add(_ index: Int, _ reason: Reason, _ date: TaskDate?) {
            if let date = date?.dayOnly, date >= today, date <= lastShown, let day = dayOfDate[date] { add(index, reason, on: day) }
        }
        var index = -1
        items.forEachReleasingCachePages { item in
            index += 1
            guard item.status.isOpen else { return }
            let due = item.date(.due)
            let scheduled = item.date(.scheduled)
            let isOverdue = due.map { $0.compareDay(today) < 0 } ?? false
            if isOverdue { overdue.append(index) }
            add(index, .due, due)
            add(index, .scheduled, scheduled)
            add(index, .start, item.date(.start))
            // On today, when it is among the days (it is not where the
            // calendar skips it: in 1582's reform, in year 0).
            guard let todayPlace else { return }
            if !isOverdue, let scheduled, scheduled.compareDay(today) < 0 { add(index, .scheduledEarlier, on: todayPlace) }
            if let due, due.compareDay(lastShown) > 0, today.days(until: due.dayOnly) <= warningDays {
                add(index, .dueSoon, on: todayPlace)
            }
        }
        var result: [Day] = []
        if !overdue.isEmpty { result.append(Day(date: nil, entries: overdue.map { Entry(record: items[$0], reasons: Reasons(.overdue)) })) }
        for date in dates {
            result.append(Day(date: date, entries: byDay[dayOfDate[date]!].map { Entry(record: items[$0.item], reasons: $0.reasons) }))
        }
        return result
    }
}
