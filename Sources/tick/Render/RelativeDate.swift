import TickModel

/// A due date in words, relative to today: "today", "tomorrow", "Fri",
/// "in 12 days", "3 days overdue".
enum RelativeDate {
    /// How a relative date is colored.
    enum Tone { case overdue, today, soon, later, past }

    /// The words for `date` seen from `today`. For an item still to do a past
    /// date is "N days overdue"; for a finished one it is "N days ago".
    ///
    /// - 0 days: `today`; 1: `tomorrow`; 2 to 6: the weekday (`Fri`);
    ///   7 to 59: `in N days`; further: the ISO date.
    static func describe(_ date: TaskDate, today: TaskDate, isOpen: Bool = true) -> (text: String, tone: Tone) {
        let days = today.days(until: date.dayOnly)
        // A listing describes a date on every row: a count and its words
        // are written into the text's bytes at once (`counted`), not
        // joined from two strings.
        var text: String
        var tone: Tone
        switch days {
        case ..<0:
            let count = -days
            if isOpen {
                text = count == 1 ? "1 day overdue" : counted("", count, " days overdue")
                tone = .overdue
            } else {
                text = count == 1 ? "yesterday" : counted("", count, " days ago")
                tone = .past
            }
        case 0:
            text = "today"
            tone = .today
        case 1:
            text = "tomorrow"
            tone = .soon
        case 2...6:
            text = date.weekdayAbbreviation
            tone = .soon
        case 7..<60:
            text = counted("in ", days, " days")
            tone = .later
        default:
            text = date.dayOnly.isoString
            tone = .later
        }
        if let minutes = date.minuteOfDay {
            text += " " + String(format: "%02d:%02d", minutes / 60, minutes % 60)
        }
        return (text, tone)
    }

    /// `before`, `count` in decimal (not negative) and `after`, as one
    /// string made once.
    private static func counted(_ before: StaticString, _ count: Int, _ after: StaticString) -> String {
        let digits = DecimalDigits.count(count.magnitude)
        let length = before.utf8CodeUnitCount + digits + after.utf8CodeUnitCount
        return String(unsafeUninitializedCapacity: length) { bytes in
            let base = bytes.baseAddress!
            base.initialize(from: before.utf8Start, count: before.utf8CodeUnitCount)
            DecimalDigits.write(count.magnitude, to: base + before.utf8CodeUnitCount, count: digits)
            (base + before.utf8CodeUnitCount + digits).initialize(from: after.utf8Start, count: after.utf8CodeUnitCount)
            return length
        }
    }

    /// The words for a due date, styled: red when overdue, bold when today.
    static func styled(_ date: TaskDate, today: TaskDate, isOpen: Bool = true) -> StyledText {
        let (text, style) = textAndStyle(date, today: today, isOpen: isOpen)
        return StyledText(text, style)
    }

    /// The text `styled` shows, and its style.
    static func textAndStyle(_ date: TaskDate, today: TaskDate, isOpen: Bool = true) -> (text: String, style: TextStyle) {
        let (text, tone) = describe(date, today: today, isOpen: isOpen)
        switch tone {
        case .overdue: return (text, TextStyle(bold: true, color: .red))
        case .today: return (text, TextStyle(bold: true, color: .orange))
        case .soon, .later: return (text, .plain)
        case .past: return (text, .dimmed)
        }
    }

    /// A day heading: "Sat 2026-11-21 · today".
    static func heading(_ day: TaskDate, today: TaskDate) -> String {
        let words = describe(day.dayOnly, today: today).text
        let base = "\(day.weekdayAbbreviation) \(day.dayOnly.isoString)"
        return words == day.weekdayAbbreviation || words == day.dayOnly.isoString ? base : "\(base) · \(words)"
    }
}
