import Foundation

/// A recurrence rule: how far the next occurrence's due date moves.
///
/// Reads the tick dialect (`day`, `week`, `2w`, `monday`, `month`, `year`,
/// `weekday`) and the English of Obsidian Tasks and Dataview (`every 2
/// weeks`, `every month`, `every monday`); `when done` is accepted and ignored.
public struct RecurrenceRule: Sendable, Hashable {
    public enum Unit: Sendable, Hashable { case day, week, month, year, weekday, weekdayNamed(Int) }
    public var count: Int
    public var unit: Unit

    /// The largest interval a rule may have (`every:1000d`, `every 1000
    /// years`): larger counts come from typos or hostile files, and date
    /// arithmetic on them would overflow.
    public static let maximumCount = 1000

    /// Reads a rule; nil when it is not one, or when its count is above
    /// `maximumCount`.
    public init?(_ text: String) {
        guard let (count, unit) = Self.parse(text), count <= Self.maximumCount else { return nil }
        self.count = count
        self.unit = unit
    }

    /// True when `text` is a rule but for its count, which is above
    /// `maximumCount` (`every:9223372036854775807w`).
    public static func exceedsMaximum(_ text: String) -> Bool {
        guard let (count, _) = parse(text) else { return false }
        return count > maximumCount
    }

    /// The count and unit of a rule, whatever the count's size (a count
    /// too large for `Int` reads as `Int.max`).
    private static func parse(_ text: String) -> (Int, Unit)? {
        var words = text.lowercased().replacingOccurrences(of: ",", with: " ")
            .split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if words.first == "every" { words.removeFirst() }
        if words.suffix(2) == ["when", "done"] { words.removeLast(2) }
        guard !words.isEmpty, words.count <= 2 else { return nil }
        var count = 1
        var unitWord = words.last!
        if words.count == 2 {
            guard let number = positiveNumber(words[0]) else { return nil }
            count = number
        } else if let last = unitWord.last, "dwmy".contains(last), let number = positiveNumber(unitWord.dropLast()) {
            count = number
            unitWord = String(last)
        }
        let unit: Unit
        switch unitWord {
        case "d", "day", "days", "daily": unit = .day
        case "w", "week", "weeks", "weekly": unit = .week
        case "m", "month", "months", "monthly": unit = .month
        case "y", "year", "years", "yearly", "annually": unit = .year
        case "weekday", "weekdays": unit = .weekday
        default:
            guard let weekday = DateExpression.weekdayNumber(unitWord) else { return nil }
            unit = .weekdayNamed(weekday)
        }
        return (count, unit)
    }

    /// A count of ASCII digits above zero; `Int.max` when it overflows.
    private static func positiveNumber<S: StringProtocol>(_ digits: S) -> Int? {
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let number = Int(digits) ?? Int.max
        return number > 0 ? number : nil
    }

    /// The next due date after `date`. Month ends clamp (Jan 31 + 1 month is
    /// the last day of February).
    public func next(after date: TaskDate) -> TaskDate {
        switch unit {
        case .day: return date.adding(count, .day)
        case .week: return date.adding(7 * count, .day)
        case .month: return date.adding(count, .month)
        case .year: return date.adding(count, .year)
        case .weekday:
            var next = date.adding(1, .day)
            while next.isoWeekday > 5 { next = next.adding(1, .day) }
            return next
        case .weekdayNamed(let weekday):
            var next = date.adding(1, .day)
            while next.isoWeekday != weekday { next = next.adding(1, .day) }
            return next.adding(7 * (count - 1), .day)
        }
    }
}
