import Foundation
import Testing

@testable import TickModel
@testable import TickSyntax

/// Dates as written in files and as people type them (SPEC §4).
@Suite("Dates")
struct DateTests {
    let today = TaskDate(year: 2026, month: 11, day: 21) // a Saturday

    @Test("ISO dates parse only when the day exists")
    func isoDates() {
        #expect(TaskDate(iso: "2026-02-28") != nil)
        #expect(TaskDate(iso: "2028-02-29") != nil)
        #expect(TaskDate(iso: "2026-02-29") == nil)
        #expect(TaskDate(iso: "2026-13-01") == nil)
        #expect(TaskDate(iso: "2026-1-01") == nil)
        #expect(TaskDate(iso: "2026-11-24T24:00") == nil)
    }

    @Test(
        "relative dates resolve against today",
        arguments: [
            ("today", "2026-11-21"), ("tomorrow", "2026-11-22"), ("yesterday", "2026-11-20"),
            ("mon", "2026-11-23"), ("saturday", "2026-11-28"), ("fri", "2026-11-27"),
            ("+3d", "2026-11-24"), ("-1w", "2026-11-14"), ("+2m", "2027-01-21"), ("+1y", "2027-11-21"),
            ("in 3 days", "2026-11-24"), ("next week", "2026-11-23"), ("eow", "2026-11-22"), ("eom", "2026-11-30"),
            ("2026-12-01", "2026-12-01"),
        ])
    func relativeDates(input: String, expected: String) {
        #expect(DateExpression.resolve(input, today: today)?.isoString == expected)
    }

    @Test("words that are not dates are rejected")
    func notDates() {
        for input in ["soon", "+3x", "in three days", "", "2026-02-30"] {
            #expect(DateExpression.resolve(input, today: today) == nil, "\(input)")
        }
    }

    @Test("recurrence advances from the old date and clamps month ends")
    func recurrenceClampsMonthEnds() {
        let january31 = TaskDate(year: 2026, month: 1, day: 31)
        #expect(RecurrenceRule("month")?.next(after: january31)?.isoString == "2026-02-28")
        #expect(RecurrenceRule("every month")?.next(after: TaskDate(year: 2028, month: 1, day: 31))?.isoString == "2028-02-29")
        #expect(RecurrenceRule("2w")?.next(after: today)?.isoString == "2026-12-05")
        #expect(RecurrenceRule("every 2 weeks")?.next(after: today)?.isoString == "2026-12-05")
        #expect(RecurrenceRule("monday")?.next(after: today)?.isoString == "2026-11-23")
        #expect(RecurrenceRule("weekday")?.next(after: TaskDate(year: 2026, month: 11, day: 20))?.isoString == "2026-11-23")
        #expect(RecurrenceRule("year")?.next(after: TaskDate(year: 2028, month: 2, day: 29))?.isoString == "2029-02-28")
        #expect(RecurrenceRule("fortnightly") == nil)
    }

    @Test("a date prints as YYYY-MM-DD and THH:MM, in JSON too, whatever its year and time")
    func isoStringAndJSON() {
        for year in [0, 7, 999, 2026, 9999, 10000, 99999] {
            for minutes in [nil, 0, 61, 23 * 60 + 59] {
                let date = TaskDate(year: year, month: 3, day: 9, minuteOfDay: minutes)
                var expected = String(format: year > 9999 ? "%05d-03-09" : "%04d-03-09", year)
                if let minutes { expected += String(format: "T%02d:%02d", minutes / 60, minutes % 60) }
                #expect(date.isoString == expected)
                var output = ByteOutput(capacity: 8)
                date.appendJSON(to: &output)
                let storage = output.release()
                defer { storage.deallocate() }
                #expect(String(decoding: storage.written, as: UTF8.self) == "\"" + expected + "\"")
            }
        }
    }

    /// What Foundation's calendar says, for the arithmetic to be checked against.
    private func foundationDays(from start: TaskDate, to end: TaskDate) -> Int {
        TaskDate.calendar.dateComponents([.day], from: start.foundationDate, to: end.foundationDate).day!
    }

    private func foundationWeekday(of date: TaskDate) -> Int {
        let weekday = TaskDate.calendar.component(.weekday, from: date.foundationDate)
        return weekday == 1 ? 7 : weekday - 1
    }

    private func foundationAdding(_ count: Int, days date: TaskDate) -> TaskDate {
        TaskDate(TaskDate.calendar.date(byAdding: .day, value: count, to: date.foundationDate)!, keepingTimeOf: date)
    }

    @Test("day counts, weekdays and added days agree with Foundation's calendar, on both sides of 1583 and up to year 99999")
    func dayArithmeticAgreesWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        func randomDate(years: ClosedRange<Int>) -> TaskDate {
            let year = Int.random(in: years, using: &generator)
            let month = Int.random(in: 1...12, using: &generator)
            return TaskDate(year: year, month: month, day: Int.random(in: 1...TaskDate.daysIn(month: month, year: year), using: &generator))
        }
        var dates: [TaskDate] = [
            TaskDate(year: 1582, month: 10, day: 4), TaskDate(year: 1582, month: 10, day: 15), TaskDate(year: 1582, month: 12, day: 31),
            TaskDate(year: 1583, month: 1, day: 1), TaskDate(year: 1600, month: 2, day: 29), TaskDate(year: 1700, month: 3, day: 1),
            TaskDate(year: 1970, month: 1, day: 1), TaskDate(year: 1969, month: 12, day: 31), TaskDate(year: 2000, month: 2, day: 29),
            TaskDate(year: 2026, month: 11, day: 21, minuteOfDay: 14 * 60 + 30), TaskDate(year: 9999, month: 12, day: 31),
            TaskDate(year: 99999, month: 12, day: 31),
        ]
        for _ in 0..<300 { dates.append(randomDate(years: 1500...2600)) }
        for _ in 0..<60 { dates.append(randomDate(years: 2600...99999)) }
        for (index, date) in dates.enumerated() {
            #expect(date.isoWeekday == foundationWeekday(of: date), "\(date)")
            let other = dates[(index * 7 + 3) % dates.count]
            #expect(date.days(until: other) == foundationDays(from: date, to: other), "\(date) to \(other)")
            for count in [1, -1, 7, -30, 366, -146_097, Int.random(in: -40_000...40_000, using: &generator)] {
                #expect(date.adding(count, .day) == foundationAdding(count, days: date), "\(date) + \(count) days")
            }
        }
        // The count reaches 1583 from the Julian side by the calendar.
        #expect(TaskDate(year: 1582, month: 10, day: 4).days(until: TaskDate(year: 1582, month: 10, day: 15)) == 1)
        #expect(TaskDate(year: 1583, month: 1, day: 1).adding(-1, .day) == TaskDate(year: 1582, month: 12, day: 31))
    }
}
