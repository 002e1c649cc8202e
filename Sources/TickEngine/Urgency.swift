import TickModel
import TickRecords

/// How urgent an item is, as Obsidian Tasks scores it (its "Urgency" page):
/// the sum of a due part, a priority part, a scheduled part and a start
/// part, each rounded to five decimals as Obsidian shows them.
///
/// - due: 12 when due 7 or more days ago, 2.4 when due in 14 or more days,
///   linear in between (8.8 today, 0.45714 a day); 0 without a due date;
/// - priority: urgent (Obsidian's highest) 9, high 6, medium 3.9, normal
///   (none) 1.95, low 0, lowest −1.8;
/// - scheduled: 5 when today or earlier, else 0;
/// - start: −3 when tomorrow or later, else 0.
///
/// The status does not count (Obsidian's neither): sort by status first to
/// keep done items apart.
public struct Urgency: Sendable, Equatable {
    public var due: Double
    public var priority: Double
    public var scheduled: Double
    public var start: Double

    public var total: Double { Self.rounded(due + priority + scheduled + start) }

    public init(due: Double, priority: Double, scheduled: Double, start: Double) {
        self.due = due
        self.priority = priority
        self.scheduled = scheduled
        self.start = start
    }

    public init(_ record: EncodedListedItem, today: TaskDate) {
        self.init(
            priority: record.priority, due: record.date(.due), scheduled: record.date(.scheduled), start: record.date(.start),
            today: today)
    }

    /// The urgency of an item with these dates and this priority (for a
    /// writer that has read the dates already).
    public init(priority: Priority, due: TaskDate?, scheduled: TaskDate?, start: TaskDate?, today: TaskDate) {
        let day = today.dayOnly
        if let due {
            let overdue = Double(due.dayOnly.days(until: day)) // positive when past
            let clamped = min(max(overdue, -14), 7)
            self.due = Self.rounded(12 * ((clamped + 14) * 0.8 / 21 + 0.2))
        } else {
            self.due = 0
        }
        switch priority {
        case .urgent: self.priority = 9
        case .high: self.priority = 6
        case .medium: self.priority = 3.9
        case .normal: self.priority = 1.95
        case .low: self.priority = 0
        case .lowest: self.priority = -1.8
        }
        self.scheduled = scheduled.map { $0.dayOnly <= day ? 5 : 0 } ?? 0
        self.start = start.map { $0.dayOnly > day ? -3 : 0 } ?? 0
    }

    static func rounded(_ value: Double) -> Double { (value * 100_000).rounded() / 100_000 }

    /// `12.7 = due 8.8 + priority 3.9 + scheduled 0 + start 0`
    public var explanation: String {
        func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
        return "\(number(total)) = due \(number(due)) + priority \(number(priority)) + scheduled \(number(scheduled)) + start \(number(start))"
    }
}
