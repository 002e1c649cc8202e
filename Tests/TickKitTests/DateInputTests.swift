import Foundation
import Testing

@testable import TickEdit
@testable import TickModel
@testable import TickSyntax

/// One reader of typed dates, the same forms in queries, in --due and in
/// tokens typed into add and edit TEXT (issue 14.5). Today is Saturday
/// 2026-11-21 throughout.
@Suite("Date input")
struct DateInputTests {
    static let today = TaskDate(year: 2026, month: 11, day: 21)

    /// Every accepted form and the date it means on 2026-11-21.
    static let forms: [(text: String, iso: String)] = [
        ("2026-12-05", "2026-12-05"),
        ("2026-12-05T14:30", "2026-12-05T14:30"),
        ("today", "2026-11-21"),
        ("tomorrow", "2026-11-22"),
        ("yesterday", "2026-11-20"),
        ("friday", "2026-11-27"),
        ("fri", "2026-11-27"),
        ("next friday", "2026-11-27"),
        ("next sat", "2026-11-28"),
        ("+3d", "2026-11-24"),
        ("-1w", "2026-11-14"),
        ("+2m", "2027-01-21"),
        ("+1y", "2027-11-21"),
        ("in 3 days", "2026-11-24"),
        ("in 2 weeks", "2026-12-05"),
        ("next week", "2026-11-23"),
        ("next month", "2026-12-01"),
        ("eow", "2026-11-22"),
        ("eom", "2026-11-30"),
        ("dec 5", "2026-12-05"),
        ("5 dec", "2026-12-05"),
        ("december 5", "2026-12-05"),
        ("Dec 5th", "2026-12-05"),
        ("nov 1", "2027-11-01"),
        ("dec 5 2027", "2027-12-05"),
    ]

    @Test("the one reader resolves every documented form", arguments: forms)
    func resolves(_ form: (text: String, iso: String)) {
        #expect(DateExpression.resolve(form.text, today: Self.today)?.isoString == form.iso)
    }

    @Test("month-name dates roll to next year once passed; February 29 waits for a leap year")
    func monthNamesRollForward() {
        #expect(DateExpression.resolve("nov 21", today: Self.today)?.isoString == "2026-11-21")
        #expect(DateExpression.resolve("nov 20", today: Self.today)?.isoString == "2027-11-20")
        #expect(DateExpression.resolve("feb 29", today: Self.today)?.isoString == "2028-02-29")
        for text in ["dec 32", "feb 30", "dec", "5 5", "next dec", "dec 5 27", "march 3 times"] {
            #expect(DateExpression.resolve(text, today: Self.today) == nil, "\(text)")
        }
    }

    @Test("--due of tick add takes every form and writes an ISO date", arguments: forms)
    func addDueFlag(_ form: (text: String, iso: String)) throws {
        let notes = try NotesFixture(["a.md": "- [ ] a\n"])
        let result = try notes.tick("add", "a.md", "b", "--due=\(form.text)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try notes.text("a.md") == "- [ ] a\n- [ ] b due:\(form.iso)\n")
    }

    @Test("--due of tick edit takes every form", arguments: forms)
    func editDueFlag(_ form: (text: String, iso: String)) throws {
        let notes = try NotesFixture(["a.md": "- [ ] a due:2020-01-01\n"])
        let result = try notes.tick("edit", "a.md:1", "--due=\(form.text)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try notes.text("a.md") == "- [ ] a due:\(form.iso)\n")
    }

    @Test("due: typed into add TEXT takes every form, several words too, and writes one ISO date", arguments: forms)
    func addTextToken(_ form: (text: String, iso: String)) throws {
        let notes = try NotesFixture(["a.md": "- [ ] a\n"])
        let result = try notes.tick("add", "a.md", "b due:\(form.text) #x")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try notes.text("a.md") == "- [ ] a\n- [ ] b due:\(form.iso) #x\n")
    }

    @Test("emoji and Dataview dates typed into edit --title take several words too")
    func otherDialectsInTypedText() throws {
        let today = Self.today
        #expect(try TypedDates.normalize("b 📅 next week x", today: today) == "b 📅 2026-11-23 x")
        #expect(try TypedDates.normalize("b 📅dec 5 x", today: today) == "b 📅2026-12-05 x")
        #expect(try TypedDates.normalize("b [due:: next friday] x", today: today) == "b [due:: 2026-11-27] x")
        #expect(try TypedDates.normalize("b scheduled:in 3 days", today: today) == "b scheduled:2026-11-24")
        let notes = try NotesFixture(["a.md": "- [ ] a\n"])
        let result = try notes.tick("edit", "a.md:1", "--title", "c start:next monday")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try notes.text("a.md") == "- [ ] c start:2026-11-23\n")
    }

    @Test("a query's date takes every form", arguments: forms)
    func queryDate(_ form: (text: String, iso: String)) throws {
        let day = String(form.iso.prefix(10))
        let notes = try NotesFixture(["a.md": "- [ ] hit due:\(form.iso)\n- [ ] other due:1999-01-01\n"])
        let result = try notes.tick("query", "due = \(form.text)", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"due\": \"\(form.iso)\""), "\(day): \(result.stdout)")
        #expect(!result.stdout.contains("1999-01-01"))
    }

    @Test("a word that is no date is refused with the forms named, in TEXT and in --due")
    func badDates() throws {
        let notes = try NotesFixture(["a.md": "- [ ] a\n"])
        let typed = try notes.tick("add", "a.md", "b due:someday")
        #expect(typed.status == 64 && typed.stderr.contains("'due:someday' is not a date") && typed.stderr.contains("docs/QUERY.md"))
        let flag = try notes.tick("add", "a.md", "b", "--due", "next year-ish")
        #expect(flag.status == 64 && flag.stderr.contains("--due 'next year-ish' is not a date"))
        #expect(try notes.text("a.md") == "- [ ] a\n")
    }
}
