import Foundation
import TickModel
import TickSystem

/// Dates as people type them, the one reader of typed dates (queries,
/// `--due`, date tokens typed into `add` and `edit`): ISO `YYYY-MM-DD` with
/// an optional `THH:MM`, `today`, `tomorrow`, `yesterday`, weekday names and
/// `next <weekday>` (the next such day after today), `+3d` `-1w` `+2m`
/// `+1y`, `in 3 days`, `next week` (next Monday), `next month` (its first
/// day), `eow`, `eom`, and month-name dates (`dec 5`, `5 dec`, `december
/// 5`, `dec 5 2027`). docs/QUERY.md lists them for users.
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
            return
                "'\(shown)' is not a date; write YYYY-MM-DD, today, tomorrow, friday, next friday, +3d, in 3 days, next week, eom or dec 5 (see docs/QUERY.md)"
        }
    }

    /// The largest count of a relative date (`+99999d`, `in 99999 days`).
    static let maximumOffset = 99_999

    private enum Resolution {
        case date(TaskDate)
        case tooFar, none
    }

    private static func resolution(_ text: String, today: TaskDate) -> Resolution {
        guard let date = resolveAny(text, today: today) else { return .none }
        return date
    }

    /// `text` as a date, however far away; `.tooFar` for an offset above
    /// `maximumOffset`.
    private static func resolveAny(_ text: String, today: TaskDate) -> Resolution? {
        let trimmed = text.trimmingWhiteSpace()
        if let date = TaskDate(iso: trimmed.uppercased()) { return .date(date) } // 2026-12-05, 2026-12-05T14:30
        let input = trimmed.lowercased()
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
                case "w":
                    unit = .day
                    factor = 7
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
        let words = input.replacingOccurrences(of: ",", with: " ").split(separator: " ")
        // next friday: the next such day after today, as `friday`
        if words.count == 2, words[0] == "next", let weekday = weekdayNumber(String(words[1])) {
            return .date(nextWeekday(weekday, after: today))
        }
        if let date = monthDayDate(words, today: today) { return .date(date) }
        // in 3 days / in 2 weeks / in 1 month / in 1 year
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

    /// `dec 5`, `5 dec`, `december 5th`, with an optional four-digit year
    /// after them (`dec 5 2027`); without a year, the first such day that is
    /// not before `today` (the year rolls forward when the date has passed).
    static func monthDayDate(_ words: [Substring], today: TaskDate) -> TaskDate? {
        guard words.count == 2 || words.count == 3 else { return nil }
        let month: Int
        let dayWord: Substring
        if let number = monthNumber(words[0]) {
            (month, dayWord) = (number, words[1])
        } else if let number = monthNumber(words[1]) {
            (month, dayWord) = (number, words[0])
        } else {
            return nil
        }
        var digits = dayWord
        for suffix in ["st", "nd", "rd", "th"] where digits.hasSuffix(suffix) { digits = digits.dropLast(2) }
        guard (1...2).contains(digits.count), digits.allSatisfy(\.isASCII), let day = Int(digits), day >= 1 else { return nil }
        if words.count == 3 {
            guard words[2].count == 4, words[2].allSatisfy(\.isASCII), let year = Int(words[2]),
                day <= TaskDate.daysIn(month: month, year: year)
            else { return nil }
            return TaskDate(year: year, month: month, day: day)
        }
        // Eight years always hold a February 29.
        for year in today.year...today.year + 8 where day <= TaskDate.daysIn(month: month, year: year) {
            let date = TaskDate(year: year, month: month, day: day)
            if date >= today { return date }
        }
        return nil
    }

    /// 1 ... 12 from an English month name or its abbreviation (`sept` too).
    static func monthNumber(_ word: Substring) -> Int? {
        let names = [
            "january", "february", "march", "april", "may", "june", "july", "august", "september",
            "october", "november", "december",
        ]
        if let full = names.firstIndex(where: { $0 == word }) { return full + 1 }
        if word == "sept" { return 9 }
        if word.count == 3, let prefix = names.firstIndex(where: { $0.hasPrefix(word) }) { return prefix + 1 }
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
