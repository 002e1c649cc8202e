import Foundation

/// A calendar day, with an optional time of day, as written in a to-do file.
///
/// It is a plain value with no time zone: "2026-11-24" means that day
/// wherever the user is. Comparison orders by day, then time (no time first).
public struct TaskDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    // Packed into 6 bytes (year << 9 | month << 5 | day, and minutes or -1):
    // every item holds six optional dates, and a big notes folder has a
    // hundred thousand items. The packing orders like (year, month, day).
    private var packedDay: UInt32
    private var packedMinutes: Int16

    public var year: Int {
        get { Int(packedDay >> 9) }
        set { packedDay = UInt32(newValue) << 9 | (packedDay & 0x1FF) }
    }
    public var month: Int {
        get { Int(packedDay >> 5 & 0xF) }
        set { packedDay = (packedDay & ~0x1E0) | UInt32(newValue) << 5 }
    }
    public var day: Int {
        get { Int(packedDay & 0x1F) }
        set { packedDay = (packedDay & ~0x1F) | UInt32(newValue) }
    }
    /// Minutes after midnight, when a time (`T14:30`) was written.
    public var minuteOfDay: Int? {
        get { packedMinutes < 0 ? nil : Int(packedMinutes) }
        set { packedMinutes = newValue.map { Int16(clamping: $0) } ?? -1 }
    }

    public init(year: Int, month: Int, day: Int, minuteOfDay: Int? = nil) {
        packedDay = UInt32(max(0, min(year, 0x7FFFFF))) << 9 | UInt32(month & 0xF) << 5 | UInt32(day & 0x1F)
        packedMinutes = minuteOfDay.map { Int16(clamping: $0) } ?? -1
    }

    /// The packed form, for the parse cache's records: the day
    /// (`year << 9 | month << 5 | day`) and the minutes plus one (0: no time).
    package var packed: (day: UInt32, minutes: UInt32) { (packedDay, UInt32(Int32(packedMinutes) + 1)) }

    /// A date from `packed`; nil when the numbers are not a date.
    package init?(packed day: UInt32, minutes: UInt32) {
        let month = day >> 5 & 0xF
        let dayOfMonth = day & 0x1F
        guard month >= 1, month <= 12, dayOfMonth >= 1, day >> 9 <= 99999, minutes <= 24 * 60 else { return nil }
        packedDay = day
        packedMinutes = Int16(minutes) - 1
    }

    /// The day alone, without a time.
    public var dayOnly: TaskDate { TaskDate(year: year, month: month, day: day) }

    public static func < (lhs: TaskDate, rhs: TaskDate) -> Bool {
        lhs.packedDay != rhs.packedDay ? lhs.packedDay < rhs.packedDay : lhs.packedMinutes < rhs.packedMinutes
    }

    /// True when both fall on the same calendar day, whatever their times.
    public func isSameDay(as other: TaskDate) -> Bool { packedDay == other.packedDay }

    /// Compares the days only, ignoring times.
    public func compareDay(_ other: TaskDate) -> Int {
        packedDay < other.packedDay ? -1 : (packedDay == other.packedDay ? 0 : 1)
    }

    /// `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM` when a time was given.
    public var isoString: String {
        var output = ByteOutput(capacity: 17)
        appendISO(to: &output)
        let bytes = output.release()
        defer { bytes.deallocate() }
        return String(decoding: bytes.written, as: UTF8.self)
    }

    /// Appends `isoString`'s bytes, digit by digit: JSON prints a date or
    /// two for every item.
    package func appendISO(to output: inout ByteOutput) {
        func twoDigits(_ value: Int) {
            output.append(UInt8(0x30 + value / 10 % 10))
            output.append(UInt8(0x30 + value % 10))
        }
        let year = self.year
        if year > 9999 { output.append(UInt8(0x30 + year / 10000 % 10)) }
        twoDigits(year / 100)
        twoDigits(year % 100)
        output.append(UInt8(ascii: "-"))
        twoDigits(month)
        output.append(UInt8(ascii: "-"))
        twoDigits(day)
        if let minutes = minuteOfDay {
            output.append(UInt8(ascii: "T"))
            twoDigits(minutes / 60)
            output.append(UInt8(ascii: ":"))
            twoDigits(minutes % 60)
        }
    }

    public var description: String { isoString }

    /// Parses `YYYY-MM-DD` with an optional `THH:MM`; nil when malformed or
    /// when the day does not exist (2026-02-30).
    ///
    /// Written by hand because it runs for every date token of every file; it
    /// only checks digits and the length of months.
    public init?(iso text: Substring) {
        let utf8 = Array(text.utf8)
        guard let date = utf8.withUnsafeBufferPointer({ TaskDate(isoBytes: $0) }) else { return nil }
        self = date
    }

    /// `init(iso:)` on UTF-8 bytes, without making a string or an array.
    package init?(isoBytes utf8: UnsafeBufferPointer<UInt8>) {
        guard utf8.count == 10 || utf8.count == 16 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = utf8[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            (1...12).contains(month), day >= 1, day <= TaskDate.daysIn(month: month, year: year)
        else { return nil }
        var minutes: Int? = nil
        if utf8.count == 16 {
            guard utf8[10] == UInt8(ascii: "T") || utf8[10] == UInt8(ascii: " "), utf8[13] == UInt8(ascii: ":"),
                let hour = number(11..<13), let minute = number(14..<16), hour < 24, minute < 60
            else { return nil }
            minutes = hour * 60 + minute
        }
        self.init(year: year, month: month, day: day, minuteOfDay: minutes)
    }

    public init?(iso text: String) { self.init(iso: Substring(text)) }

    /// The last day tick reads and writes: dates in files have four-digit
    /// years, so nothing later is ever written.
    public static let lastWritable = TaskDate(year: 9999, month: 12, day: 31, minuteOfDay: 23 * 60 + 59)

    /// True when the date can be written to a file and read back (its year
    /// has at most four digits).
    public var isWritable: Bool { year <= 9999 }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // MARK: Calendar arithmetic, through Foundation's Gregorian calendar.

    package static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        calendar.firstWeekday = 2
        return calendar
    }()

    var foundationDate: Date {
        TaskDate.calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
    }

    package init(_ date: Date, keepingTimeOf original: TaskDate? = nil) {
        let parts = TaskDate.calendar.dateComponents([.year, .month, .day], from: date)
        self.init(year: parts.year!, month: parts.month!, day: parts.day!, minuteOfDay: original?.minuteOfDay)
    }

    /// The date `count` units later (or earlier when negative). Months and
    /// years clamp to the month's end: Jan 31 + 1 month is Feb 28 or 29.
    public func adding(_ count: Int, _ unit: Calendar.Component) -> TaskDate {
        if unit == .day, let start = dayNumber, let moved = TaskDate(dayNumber: start + count) {
            return TaskDate(year: moved.year, month: moved.month, day: moved.day, minuteOfDay: minuteOfDay)
        }
        let moved = TaskDate.calendar.date(byAdding: unit, value: count, to: foundationDate)!
        return TaskDate(moved, keepingTimeOf: self)
    }

    /// 1 = Monday ... 7 = Sunday (ISO 8601).
    public var isoWeekday: Int {
        if let number = dayNumber {
            // Day 0 (1970-01-01) was a Thursday.
            return (number % 7 + 7 + 3) % 7 + 1
        }
        let weekday = TaskDate.calendar.component(.weekday, from: foundationDate) // 1 = Sunday
        return weekday == 1 ? 7 : weekday - 1
    }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(until other: TaskDate) -> Int {
        if let start = dayNumber, let end = other.dayNumber { return end - start }
        return TaskDate.calendar.dateComponents([.day], from: foundationDate, to: other.foundationDate).day!
    }

    // Day numbers: the same answers as Foundation's calendar, by arithmetic.
    // Listing a list prints a relative date for every item ("in 3 days"),
    // and one trip through `Calendar` costs microseconds: seconds for a list
    // of 200,000 items. Foundation's Gregorian calendar is Julian before
    // 1582-10-15, so only later dates are counted here; earlier ones still
    // go through `Calendar`.

    /// The first year counted by arithmetic (wholly Gregorian in Foundation).
    static let firstArithmeticYear = 1583

    /// Days since 1970-01-01 in the Gregorian calendar, or nil before
    /// `firstArithmeticYear` (H. Hinnant's days-from-civil).
    package var dayNumber: Int? {
        let year = self.year
        let month = self.month
        let day = self.day
        guard year >= TaskDate.firstArithmeticYear else { return nil }
        let shiftedYear = month <= 2 ? year - 1 : year // years start in March: leap days fall last
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day number; nil when it falls before
    /// `firstArithmeticYear` or after year 99999 (H. Hinnant's
    /// civil-from-days).
    package init?(dayNumber: Int) {
        let shifted = dayNumber + 719_468
        guard shifted >= 0 else { return nil }
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        guard year >= TaskDate.firstArithmeticYear, year <= 99999 else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Today's local date, in the time zone the C library takes for the
    /// local one (`TZ`, else `/etc/localtime`), as Foundation's
    /// `TimeZone.current` does (and so the iCalendar export's reminders).
    /// Read from the C library (`localtime_r`), which has nothing to set
    /// up: setting up Foundation's calendar, which a command did on another
    /// core while it started, for this date alone, took 1–6 ms of CPU in
    /// runs at 5,000 notes and 3 MB of memory.
    public static func today() -> TaskDate {
        var now = time(nil)
        var parts = tm()
        if localtime_r(&now, &parts) == nil { gmtime_r(&now, &parts) }
        return TaskDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
    }

    /// The short English weekday name, "Mon" ... "Sun".
    public var weekdayAbbreviation: String { Self.weekdayAbbreviations[isoWeekday - 1] }
    private static let weekdayAbbreviations = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
}
