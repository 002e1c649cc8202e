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
        withWords(date, today: today, isOpen: isOpen) { (String(decoding: $0, as: UTF8.self), $1) }
    }

    /// Calls `body` with the words `describe` gives for `date` (after
    /// `word` and a space, when `word` is not empty: `done yesterday`),
    /// printable ASCII, and their tone. Written into memory on the stack,
    /// with no string made: a listing describes a date on every row.
    static func withWords<Result>(
        _ date: TaskDate, today: TaskDate, isOpen: Bool = true, after word: StaticString = "",
        _ body: (UnsafeBufferPointer<UInt8>, Tone) -> Result
    ) -> Result {
        // Room for the longest: `cancelled 2147483647 days overdue 23:59`.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            var count = 0
            func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                precondition(count + bytes.count <= buffer.count, "RelativeDate: words longer than their room")
                _ = UnsafeMutableBufferPointer(rebasing: buffer[count...]).initialize(fromContentsOf: bytes)
                count += bytes.count
            }
            func put(_ text: StaticString) { put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)) }
            func put(_ text: String) {
                var text = text
                text.withUTF8 { put($0) }
            }
            // In decimal, with zeros before it to make `minimum` digits.
            func put(number: Int, digits minimum: Int = 1) {
                let digits = DecimalDigits.count(number.magnitude)
                for _ in digits..<max(digits, minimum) { put("0") }
                precondition(count + digits <= buffer.count, "RelativeDate: words longer than their room")
                DecimalDigits.write(number.magnitude, to: buffer.baseAddress! + count, count: digits)
                count += digits
            }
            if word.utf8CodeUnitCount > 0 {
                put(word)
                put(" ")
            }
            let days = today.days(until: date.dayOnly)
            let tone: Tone
            switch days {
            case ..<0:
                let count = -days
                if isOpen {
                    if count == 1 {
                        put("1 day overdue")
                    } else {
                        put(number: count)
                        put(" days overdue")
                    }
                    tone = .overdue
                } else {
                    if count == 1 {
                        put("yesterday")
                    } else {
                        put(number: count)
                        put(" days ago")
                    }
                    tone = .past
                }
            case 0:
                put("today")
                tone = .today
            case 1:
                put("tomorrow")
                tone = .soon
            case 2...6:
                put(date.weekdayAbbreviation)
                tone = .soon
            case 7..<60:
                put("in ")
                put(number: days)
                put(" days")
                tone = .later
            default:
                put(date.dayOnly.isoString)
                tone = .later
            }
            if let minutes = date.minuteOfDay {
                put(" ")
                put(number: minutes / 60, digits: 2)
                put(":")
                put(number: minutes % 60, digits: 2)
            }
            return body(UnsafeBufferPointer(rebasing: buffer[..<count]), tone)
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
        return (text, style(of: tone))
    }

    /// How words of `tone` are shown.
    static func style(of tone: Tone) -> TextStyle {
        switch tone {
        case .overdue: TextStyle(bold: true, color: .red)
        case .today: TextStyle(bold: true, color: .orange)
        case .soon, .later: .plain
        case .past: .dimmed
        }
    }

    /// A day heading: "Sat 2026-11-21 · today".
    static func heading(_ day: TaskDate, today: TaskDate) -> String {
        let words = describe(day.dayOnly, today: today).text
        let base = "\(day.weekdayAbbreviation) \(day.dayOnly.isoString)"
        return words == day.weekdayAbbreviation || words == day.dayOnly.isoString ? base : "\(base) · \(words)"
    }
}
