import Foundation

/// Dates as people type them: ISO `YYYY-MM-DD`, `today`, `tomorrow`,
/// `yesterday`, weekday names (the next such day after today), `+3d` `-1w`
/// `+2m` `+1y`, `in 3 days`, `next week` (next Monday), `eow`, `eom`.
public enum DateExpression {
    /// Resolves `text` against `today`; nil when it is not a date, or is a
    /// date after `TaskDate.lastWritable` (see `problem(with:today:)`).
    public static func resolve(_ text: String, today: TaskDate) -> TaskDate? {
        guard case .date(let date) = resolution(text, today: today), date.isWritable else { return nil }
        return date
    }

    /// What is wrong with `text`, which `resolve` did not read: one line
    /// for an error message, quoting `shown` (by default `text`).
    public static func problem(with text: String, today: TaskDate, shown: String? = nil) -> String {
        let shown = shown ?? text
        switch resolution(text, today: today) {
        case .date, .tooFar:
            return "'\(shown)' is too far away; tick writes dates up to \(TaskDate.lastWritable.dayOnly.isoString)"
        case .none:
            return "'\(shown)' is not a date; write YYYY-MM-DD, today, tomorrow, a weekday, +3d, -1w, in 3 days, next week, eow or eom"
        }
    }

    /// The largest count of a relative date (`+99999d`, `in 99999 days`).
    static let maximumOffset = 99_999

    private enum Resolution { case date(TaskDate), tooFar, none }

    private static func resolution(_ text: String, today: TaskDate) -> Resolution {
        guard let date = resolveAny(text, today: today) else { return .none }
        return date
    }

    /// `text` as a date, however far away; `.tooFar` for an offset above
    /// `maximumOffset`.
    private static func resolveAny(_ text: String, today: TaskDate) -> Resolution? {
        let input = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let date = TaskDate(iso: input) { return .date(date) }
        switch input {
        case "today", "now": return .date(today)
        case "tomorrow", "tmr": return .date(today.adding(1, .day))
        case "yesterday": return .date(today.adding(-1, .day))
        case "next week": return .date(nextWeekday(1, after: today))
        case "next month": return .date(TaskDate(year: today.year, month: today.month, day: 1).adding(1, .month))
        case "eow", "end of week": return .date(today.adding(7 - today.isoWeekday, .day))
        case "eom", "end of month":
            return .date(TaskDate(year: today.year, month: today.month, day: TaskDate.daysIn(month: today.month, year: today.year)))
        default: break
        }
        if let weekday = weekdayNumber(input) { return .date(nextWeekday(weekday, after: today)) }
        // +3d, -1w, +2m, +1y (a bare number means days)
        if let sign = input.first, sign == "+" || sign == "-" {
            var body = input.dropFirst()
            var unit: Calendar.Component = .day
            var factor = 1
            if let last = body.last, last.isLetter {
                switch last {
                case "d": unit = .day
                case "w": unit = .day; factor = 7
                case "m": unit = .month
                case "y": unit = .year
                default: return nil
                }
                body = body.dropLast()
            }
            guard !body.isEmpty, body.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            guard let count = Int(body), count <= maximumOffset else { return .tooFar }
            let date = today.adding((sign == "-" ? -count : count) * factor, unit)
            // Before year 1 the calendar counts years backwards (BC).
            guard sign == "-" ? date <= today : date >= today else { return .tooFar }
            return .date(date)
        }
        // in 3 days / in 2 weeks / in 1 month / in 1 year
        let words = input.split(separator: " ")
        if words.count == 3, words[0] == "in", !words[1].isEmpty, words[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            let unit: (Calendar.Component, Int)
            switch words[2] {
            case "day", "days": unit = (.day, 1)
            case "week", "weeks": unit = (.day, 7)
            case "month", "months": unit = (.month, 1)
            case "year", "years": unit = (.year, 1)
            default: return nil
            }
            guard let count = Int(words[1]), count <= maximumOffset else { return .tooFar }
            return .date(today.adding(count * unit.1, unit.0))
        }
        return nil
    }

    /// 1 = Monday ... 7 = Sunday, from a full or three-letter English name.
    public static func weekdayNumber(_ word: String) -> Int? {
        let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        let lowered = word.lowercased()
        if let full = names.firstIndex(of: lowered) { return full + 1 }
        if lowered.count >= 3, let prefix = names.firstIndex(where: { $0.hasPrefix(lowered) }) { return prefix + 1 }
        return nil
    }

    /// The next `weekday` strictly after `date`.
    public static func nextWeekday(_ weekday: Int, after date: TaskDate) -> TaskDate {
        var offset = (weekday - date.isoWeekday + 7) % 7
        if offset == 0 { offset = 7 }
        return date.adding(offset, .day)
    }
}
