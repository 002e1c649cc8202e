import Foundation
import Testing

@testable import TickEdit
@testable import TickModel
@testable import TickSyntax

/// Numbers from files and from typed dates are bounded: no overflow trap,
/// and no date is written that tick cannot read back (issue 13.9).
@Suite("Number bounds")
struct NumberBoundsTests {
    @Test("a recurrence count above the maximum is a diagnostic, not a rule")
    func hugeRecurrenceCountIsDiagnosed() {
        let document = parse("- [ ] a every:9223372036854775807w due:2026-01-01\n- [ ] b 🔁 every 5000 weeks\n- [ ] c every:1000d\n")
        #expect(document.items[0].metadata.every == nil)
        #expect(document.items[1].metadata.every == nil)
        #expect(document.items[2].metadata.every == "1000d")
        let messages = document.diagnostics.map(\.message)
        #expect(messages.count == 2)
        #expect(messages.allSatisfy { $0.hasPrefix(RecurrenceRule.diagnosticPrefix) }, "\(messages)")
        #expect(messages.last?.contains("between 1 and \(RecurrenceRule.maximumInterval)") == true, "\(messages)")
        #expect(RecurrenceRule("every 99999999999999999999999 days") == nil)
        #expect(RecurrenceRule("every \(RecurrenceRule.maximumInterval + 1) days") == nil)
    }

    @Test("done on an item with a huge recurrence count refuses without a trap, and --no-repeat completes it")
    func doneWithHugeCountDoesNotTrap() throws {
        let text = "- [ ] a every:9223372036854775807w due:2026-01-01\n"
        let notes = try NotesFixture(["a.md": text])
        let check = try notes.tick("check")
        #expect(check.status == 1 && check.stdout.contains("a.md:1:15: warning: \(RecurrenceRule.diagnosticPrefix)"), "\(check.stdout)")
        let refused = try notes.tick("done", "a.md:1")
        #expect(refused.status == 65 && refused.stderr.contains("--no-repeat"), "\(refused.stderr)")
        #expect(try notes.text("a.md") == text)
        let done = try notes.tick("done", "a.md:1", "--no-repeat")
        #expect(done.status == 0, "\(done.stderr)")
        #expect(try notes.text("a.md") == "- [x] a every:9223372036854775807w due:2026-01-01 done:2026-11-21\n")
    }

    @Test("done refuses a next occurrence after 9999-12-31 with exit 65 and writes nothing")
    func doneRefusesUnwritableNextOccurrence() throws {
        let text = "- [ ] b due:9999-12-31 every:day\n"
        let notes = try NotesFixture(["a.md": text])
        let done = try notes.tick("done", "a.md:1")
        #expect(done.status == 65)
        #expect(done.stderr.contains("no next date") && done.stderr.contains("9999-12-31") && done.stderr.contains("--no-repeat"), "\(done.stderr)")
        #expect(done.stderr.split(separator: "\n").count == 1)
        #expect(try notes.text("a.md") == text)
        #expect(!notes.allFiles().contains { $0.contains(".tmp") })
    }

    @Test("the library never builds a next occurrence it could not read back")
    func nextOccurrenceLineIsNilPastTheLastDate() {
        let document = parse("- [ ] b due:9999-12-31 every:day\n")
        let today = TaskDate(year: 2026, month: 11, day: 21)
        #expect(NextOccurrence.line(for: document.items[0], in: document, today: today) == nil)
        #expect(NextOccurrence.make(for: document.items[0], in: document, today: today) == .failure(.noNextDate("day")))
        #expect(StatusEdit.splices(.done(date: today), item: document.items[0], in: document, today: today).count == 2)
    }

    @Test("relative dates past the last writable date or with huge counts are refused everywhere")
    func relativeDatesAreBounded() throws {
        let today = TaskDate(year: 2026, month: 11, day: 21)
        for text in ["+99999999999d", "+99999y", "-99999y", "in 99999999999 days", "in 9000 years"] {
            #expect(DateExpression.resolve(text, today: today) == nil, "\(text)")
            #expect(DateExpression.problem(with: text, today: today).contains("too far away"), "\(text)")
        }
        #expect(DateExpression.resolve("+7000y", today: today) == TaskDate(year: 9026, month: 11, day: 21))
        let notes = try NotesFixture(["a.md": "- [ ] a\n"])
        for query in ["due < +99999999999d", "due < +99999y"] {
            let result = try notes.tick("query", query)
            #expect(result.status == 64 && result.stderr.contains("too far away"), "\(query)")
        }
        let typed = try notes.tick("add", "a.md", "b due:+99999y")
        #expect(typed.status == 64 && typed.stderr.contains("'due:+99999y' is too far away"))
        let flag = try notes.tick("add", "a.md", "b", "--due=+99999999999d")
        #expect(flag.status == 64 && flag.stderr.contains("--due '+99999999999d' is too far away"))
        let edit = try notes.tick("edit", "a.md:1", "--due=+8000y")
        #expect(edit.status == 64)
        #expect(try notes.text("a.md") == "- [ ] a\n")
    }
}
