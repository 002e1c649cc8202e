import Testing

@testable import TickEdit
@testable import TickModel
@testable import TickSyntax

/// Dates people type become ISO dates; new list files read back as written.
@Suite struct TypedDateAndNewListTests {
    static let today = TaskDate(year: 2026, month: 11, day: 21) // a Saturday

    @Test(arguments: [
        ("Buy bread due:tomorrow", "Buy bread due:2026-11-22"),
        ("Call Ana due:friday #work", "Call Ana due:2026-11-27 #work"),
        ("Plan scheduled:+1w start:eom", "Plan scheduled:2026-11-28 start:2026-11-30"),
        ("Fix the tap 📅 monday", "Fix the tap 📅 2026-11-23"),
        ("Fix the tap 📅️tomorrow", "Fix the tap 📅️2026-11-22"),
        ("Read [due:: next week] now", "Read [due:: 2026-11-23] now"),
        ("Keep due:2026-11-24T14:30 and see: this", "Keep due:2026-11-24T14:30 and see: this"),
        ("No tokens at all", "No tokens at all"),
    ])
    func typedDatesBecomeISO(_ typed: String, _ written: String) throws {
        #expect(try TypedDates.normalize(typed, today: Self.today) == written)
    }

    @Test func aTokenThatIsNoDateIsRefused() {
        #expect(throws: TypedDates.BadDate.self) { try TypedDates.normalize("Bread due:someday", today: Self.today) }
        #expect(throws: TypedDates.BadDate.self) { try TypedDates.normalize("Bread due:2026-02-30", today: Self.today) }
    }

    @Test func typedTokensAreWrittenInTheListsDialect() {
        #expect(TokenEdit.title("Call the plumber due:2026-11-23 !high #home ^id1", in: .emoji) == "Call the plumber 📅 2026-11-23 ⏫ #home ^id1")
        #expect(TokenEdit.title("Read it 📅 2026-12-01 🔽", in: .dataview) == "Read it [due:: 2026-12-01] [priority:: low]")
        #expect(TokenEdit.title("Post update every:2w", in: .emoji) == "Post update 🔁 every 2 weeks")
        #expect(TokenEdit.title("Plain words only", in: .dataview) == "Plain words only")
    }

    @Test(arguments: ["Groceries", "Q4: plans #1", "yes", "2026", "- dash", "Café ☕️ list", "say \"hi\"", "back\\slash"])
    func newListReadsBackWithItsName(_ name: String) {
        let text = NewList.text(name: name, color: "green", icon: "cart")
        let document = DocumentParser.parse(text, path: "x.md")
        #expect(document.name == name)
        #expect(document.explicitColor == "green")
        #expect(document.explicitIcon == "cart")
        #expect(document.diagnostics.isEmpty)
        #expect(String(decoding: text, as: UTF8.self).hasSuffix("\n# \(name)\n"))
    }

    @Test func recurrenceCountsFromTodayWhenDone() throws {
        let document = DocumentParser.parse("- [ ] Water 🔁 every week when done 📅 2026-11-01\n", path: "x.md")
        let line = try #require(NextOccurrence.line(for: document.items[0], in: document, today: Self.today))
        #expect(String(decoding: line, as: UTF8.self) == "- [ ] Water 🔁 every week when done 📅 2026-11-28\n")
    }

    @Test func recurrenceWithoutADateGetsADueDate() throws {
        let document = DocumentParser.parse("- [ ] Stretch every:day\n", path: "x.md")
        let line = try #require(NextOccurrence.line(for: document.items[0], in: document, today: Self.today))
        #expect(String(decoding: line, as: UTF8.self) == "- [ ] Stretch every:day due:2026-11-22\n")
    }
}
