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
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { room in
            var words = Words(room: room)
            if word.utf8CodeUnitCount > 0 {
                words.put(word)
                words.put(" ")
            }
            let days = today.days(until: date.dayOnly)
            let tone: Tone
            switch days {
            case -1:
                words.put(isOpen ? "1 day overdue" : "yesterday")
                tone = isOpen ? .overdue : .past
            case ..<0:
                words.put(number: -days)
                words.put(isOpen ? " days overdue" : " days ago")
                tone = isOpen ? .overdue : .past
            case 0:
                words.put("today")
                tone = .today
            case 1:
                words.put("tomorrow")
                tone = .soon
            case 2...6:
                words.put(date.weekdayAbbreviation)
                tone = .soon
            case 7..<60:
                words.put("in ")
                words.put(number: days)
                words.put(" days")
                tone = .later
            default:
                words.put(date.dayOnly.isoString)
                tone = .later
            }
            if let minutes = date.minuteOfDay {
                words.put(" ")
                words.put(number: minutes / 60, digits: 2)
                words.put(":")
                words.put(number: minutes % 60, digits: 2)
            }
            return body(words.written, tone)
        }
    }

    /// Words written into a fixed room (`withWords`). A value with its own
    /// count, not a count the functions that write share: a captured
    /// variable is checked for exclusive access at each use, at run time.
    private struct Words {
        let room: UnsafeMutableBufferPointer<UInt8>
        private(set) var count = 0

        init(room: UnsafeMutableBufferPointer<UInt8>) { self.room = room }

        var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: room[..<count]) }

        mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
            precondition(count + bytes.count <= room.count, "RelativeDate: words longer than their room")
            _ = UnsafeMutableBufferPointer(rebasing: room[count...]).initialize(fromContentsOf: bytes)
            count += bytes.count
        }

        mutating func put(_ text: StaticString) { put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)) }

        mutating func put(_ text: String) {
            var text = text
            text.withUTF8 { put($0) }
        }

        /// `number` in decimal, with zeros before it to make `minimum` digits.
        mutating func put(number: Int, digits minimum: Int = 1) {
            let digits = DecimalDigits.count(number.magnitude)
            for _ in digits..<max(digits, minimum) { put("0") }
            precondition(count + digits <= room.count, "RelativeDate: words longer than their room")
            DecimalDigits.write(number.magnitude, to: room.baseAddress! + count, count: digits)
            count += digits
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
