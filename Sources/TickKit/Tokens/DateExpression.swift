import Foundation

/// Dates as people type them: ISO `YYYY-MM-DD`, `today`, `tomorrow`,
/// `yesterday`, weekday names (the next such day after today), `+3d` `-1w`
/// `+2m` `+1y`, `in 3 days`, `next week` (next Monday), `eow`, `eom`.
public enum DateExpression {
    /// Resolves `text` against `today`; nil when it is not a date.
    public static func resolve(_ text: String, today: TaskDate) -> TaskDate? {
        let input = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let date = TaskDate(iso: input) { return date }
        switch input {
        case "today", "now": return today
        case "tomorrow", "tmr": return today.adding(1, .day)
        case "yesterday": return today.adding(-1, .day)
        case "next week": return nextWeekday(1, after: today)
        case "next month": return TaskDate(year: today.year, month: today.month, day: 1).adding(1, .month)
        case "eow", "end of week": return today.adding(7 - today.isoWeekday, .day)
        case "eom", "end of month":
            return TaskDate(year: today.year, month: today.month, day: TaskDate.daysIn(month: today.month, year: today.year))
        default: break
        }
        if let weekday = weekdayNumber(input) { return nextWeekday(weekday, after: today) }
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
            guard let count = Int(body), (0..<100_000).contains(count), body.first?.isNumber == true else { return nil }
            return today.adding((sign == "-" ? -count : count) * factor, unit)
        }
        // in 3 days / in 2 weeks / in 1 month / in 1 year
        let words = input.split(separator: " ")
        if words.count == 3, words[0] == "in", let count = Int(words[1]), (0..<100_000).contains(count) {
            switch words[2] {
            case "day", "days": return today.adding(count, .day)
            case "week", "weeks": return today.adding(count * 7, .day)
            case "month", "months": return today.adding(count, .month)
            case "year", "years": return today.adding(count, .year)
            default: return nil
            }
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
