import Testing

@testable import TickModel

/// Metadata tokens in the three dialects (SPEC §3.2).
@Suite("Metadata tokens")
struct MetadataTokenTests {
    func item(_ title: String) -> TaskItem { parse("- [ ] " + title).items[0] }

    @Test("each dialect's due date gives the same date, and the value range covers only the date")
    func dueInThreeDialects() {
        for title in [
            "a due:2026-11-24", "a 📅 2026-11-24", "a 📅2026-11-24", "a 📅\u{FE0F} 2026-11-24", "a [due:: 2026-11-24]", "a 📆 2026-11-24",
            "a 🗓 2026-11-24",
        ] {
            let document = parse("- [ ] " + title)
            let token = document.items[0].runs.tokens[0]
            #expect(token.field == .due, "\(title)")
            #expect(token.value == .date(TaskDate(year: 2026, month: 11, day: 24)), "\(title)")
            #expect(document.slice(token.valueRange) == "2026-11-24", "\(title)")
            #expect(document.items[0].title == "a")
        }
    }

    @Test("priorities map one to one across dialects")
    func priorities() {
        let cases: [(String, Priority)] = [
            ("!lowest", .lowest), ("!low", .low), ("!normal", .normal), ("!medium", .medium), ("!high", .high),
            ("!urgent", .urgent), ("!highest", .urgent), ("⏬", .lowest), ("🔽", .low), ("🔼", .medium),
            ("⏫", .high), ("🔺", .urgent), ("[priority:: high]", .high), ("!HIGH", .high),
        ]
        for (token, priority) in cases {
            #expect(item("x " + token).metadata.priority == priority, "\(token)")
        }
        #expect(item("x").metadata.priority == .normal)
        #expect(item("x").metadata.hasPriority == false)
    }

    @Test("a token anywhere in the title is found, and text after it does not hide it")
    func tokensInTheMiddle() {
        let found = item("call due:2026-12-01 about #work the !high thing ^abc-1")
        #expect(found.metadata.due == TaskDate(year: 2026, month: 12, day: 1))
        #expect(found.metadata.tags == ["work"])
        #expect(found.metadata.priority == .high)
        #expect(found.metadata.id == "abc-1")
        #expect(found.title == "call about the thing")
    }

    @Test("tokens are whole words only and never inside code, links or autolinks")
    func tokensAreWholeWordsOutsideMarkup() {
        let found = item("a#b x!high `due:2026-01-01` [#tag](https://x.example/#due:2026-01-01) <https://x.example/!high> mid^id more")
        #expect(found.runs.tokens.isEmpty)
        #expect(found.metadata.due == nil)
    }

    @Test("a time may follow a due date")
    func dueWithTime() {
        let found = item("meet due:2026-11-24T14:30")
        #expect(found.metadata.due == TaskDate(year: 2026, month: 11, day: 24, minuteOfDay: 14 * 60 + 30))
        #expect(found.metadata.due?.isoString == "2026-11-24T14:30")
    }

    @Test("invalid values stay text and become diagnostics with line and column")
    func invalidValuesAreDiagnosed() {
        let document = parse("# L\n\n- [ ] x due:2026-02-30 !hgih color:plaid every:fortnightly 📅 soon")
        let found = document.items[0]
        #expect(found.runs.tokens.isEmpty)
        #expect(found.title == "x due:2026-02-30 !hgih color:plaid every:fortnightly 📅 soon")
        let positions = document.diagnostics.map { "\($0.line):\($0.column)" }
        #expect(positions == ["3:13", "3:24", "3:36", "3:48", "3:60"])
    }

    @Test("other key:value fields are kept in order; a URL is not a field")
    func otherFields() {
        let found = item("x effort:3 owner:ana https://x.example Key:Value")
        #expect(found.metadata.fields.map(\.key) == ["effort", "owner"])
        #expect(found.metadata.fields.map(\.value) == ["3", "ana"])
    }

    @Test("recurrence rules read in all three dialects")
    func recurrence() {
        #expect(item("x every:2w").metadata.every == "2w")
        #expect(item("x 🔁 every 2 weeks 📅 2026-11-24").metadata.every == "every 2 weeks")
        #expect(item("x 🔁 every 2 weeks 📅 2026-11-24").metadata.due == TaskDate(year: 2026, month: 11, day: 24))
        #expect(item("x [repeat:: every month]").metadata.every == "every month")
    }

    @Test("tags allow nesting and non-ASCII letters but not pure numbers")
    func tags() {
        #expect(item("x #area/sub #café #2026 #a-b_c").metadata.tags == ["area/sub", "café", "a-b_c"])
    }

    @Test("the field table's description, the cache's fingerprint of it, names every part of every spelling")
    func fieldTableDescriptionNamesEverySpelling() {
        let lines = MetadataField.tableDescription.split(separator: "\n").map(String.init)
        #expect(lines.count == MetadataField.described.count)
        #expect(lines.contains("due due both - 📅,📆,🗓 date -"))
        #expect(lines.contains("done done,completion both completion ✅ date -"))
        #expect(lines.contains("priority priority dataview-only - - priority -"))
        #expect(lines.contains("oncompletion oncompletion both onCompletion 🏁 choice(delete,keep; on-completion action) -"))
        #expect(lines.contains("remind remind both - ⏰ date remind"))
    }
}
