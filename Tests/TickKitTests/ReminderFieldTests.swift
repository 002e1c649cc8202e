import Foundation
import Testing

@testable import TickEdit
@testable import TickModel
@testable import TickSyntax

/// The `remind` field, the first added by the recipe in docs/ARCHITECTURE.md
/// ("Adding an item field"): one row of the field table, and every layer
/// reads, keeps and prints it.
@Suite struct ReminderFieldTests {
    func item(_ line: String) -> TaskItem { DocumentParser.parse(line, path: "t.md").items[0] }

    @Test("a reminder is read in every dialect, with or without a time, and is not part of the title")
    func readingInEveryDialect() throws {
        let nine = try #require(TaskDate(iso: "2026-11-24T09:00"))
        #expect(item("- [ ] call the bank remind:2026-11-24T09:00").metadata.date(.remind) == nine)
        #expect(item("- [ ] call the bank ⏰ 2026-11-24T09:00").metadata.date(.remind) == nine)
        #expect(item("- [ ] call the bank [remind:: 2026-11-24 09:00]").metadata.date(.remind) == nine)
        #expect(item("- [ ] call the bank ⏰ 2026-11-24").metadata.date(.remind) == TaskDate(iso: "2026-11-24"))
        #expect(item("- [ ] call the bank ⏰ 2026-11-24 📅 2026-11-25").title == "call the bank")
        // The first reminder written wins, as for every field.
        #expect(item("- [ ] x remind:2026-11-24 remind:2026-11-30").metadata.date(.remind) == TaskDate(iso: "2026-11-24"))
    }

    @Test("a reminder that is not a date is a diagnostic that names it, and no token")
    func aBadReminderIsADiagnostic() {
        let document = DocumentParser.parse("- [ ] x remind:tomorrow", path: "t.md")
        #expect(document.items[0].metadata.date(.remind) == nil)
        #expect(document.diagnostics.map(\.message) == ["invalid date 'tomorrow' for remind; write YYYY-MM-DD, e.g. 2026-11-24"])
    }

    @Test("a reminder written in each dialect reads back")
    func writingReadsBack() throws {
        let nine = try #require(TaskDate(iso: "2026-11-24T09:00"))
        for dialect in [MetadataDialect.tick, .emoji, .dataview] {
            let token = TokenFormat.date(.remind, nine, dialect: dialect)
            #expect(item("- [ ] x " + token).metadata.date(.remind) == nine, "\(token)")
        }
    }

    @Test("the read model keeps a reminder, and query --json prints it the same cold and from the cache")
    func jsonColdAndWarm() throws {
        let notes = try NotesFixture([
            "a.md": "- [ ] call the bank ⏰ 2026-11-24T09:00 📅 2026-11-25\n- [ ] no reminder\n"
        ])
        let cold = try notes.tick("query", "open", "--json")
        let warm = try notes.tick("query", "open", "--json")
        #expect(cold.status == 0)
        #expect(cold.stdout == warm.stdout)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(cold.stdout.utf8)) as? [String: Any])
        let items = try #require(object["items"] as? [[String: Any]])
        #expect(items.map { $0["remind"] as? String } == ["2026-11-24T09:00", nil])
        #expect(items[1].keys.contains("remind"))
    }

    @Test("the iCalendar export alarms at a reminder, in UTC from the time zone tick runs in; 09:00 when it has no time")
    func exportAlarmsAtTheReminder() throws {
        let notes = try NotesFixture([
            "a.md": "- [ ] call the bank ⏰ 2026-11-24T09:00 📅 2026-11-25\n- [ ] water plants remind:2026-11-26\n- [ ] no reminder\n"
        ])
        let tokyo = try notes.tick("export", "--format", "ics", "open", environment: ["TZ": "Asia/Tokyo"])
        #expect(tokyo.status == 0)
        #expect(tokyo.stdout.contains("TRIGGER;VALUE=DATE-TIME:20261124T000000Z\r\n"))
        #expect(tokyo.stdout.contains("TRIGGER;VALUE=DATE-TIME:20261126T000000Z\r\n"))
        #expect(tokyo.stdout.components(separatedBy: "BEGIN:VALARM").count == 3)
        let utc = try notes.tick("export", "--format", "ics", "--events", "open", environment: ["TZ": "UTC"])
        #expect(utc.stdout.contains("TRIGGER;VALUE=DATE-TIME:20261124T090000Z\r\n"))
    }
}
