import Foundation
import Testing
import TickEdit
import TickModel
import TickOutput
import TickSyntax

// Cases written from Obsidian Tasks' documentation ("Recurring Tasks") and
// the behaviour of its Recurrence.ts / rrule: the reference date, the
// distances of the other dates, month ends, `when done`.

typealias Rule = RecurrenceRule
private func wd(_ day: Int, _ ordinal: Int? = nil) -> RecurrenceRule.Weekday { RecurrenceRule.Weekday(day, ordinal: ordinal) }

@Suite("Recurrence rules: Obsidian Tasks' grammar in all three dialects")
struct RecurrenceGrammarTests {
    static let documented: [(String, Rule)] = [
        ("every 3 days", Rule(frequency: .daily, interval: 3)),
        ("every 10 days when done", Rule(frequency: .daily, interval: 10, whenDone: true)),
        ("every weekday", Rule(frequency: .weekly, weekdays: (1...5).map { wd($0) })),
        ("every week on Sunday", Rule(frequency: .weekly, weekdays: [wd(7)])),
        ("every week on Tuesday, Friday", Rule(frequency: .weekly, weekdays: [wd(2), wd(5)])),
        ("every Tuesday and Thursday", Rule(frequency: .weekly, weekdays: [wd(2), wd(4)])),
        ("every Sunday", Rule(frequency: .weekly, weekdays: [wd(7)])),
        ("every 2 weeks", Rule(frequency: .weekly, interval: 2)),
        ("every 2 weeks on Sunday", Rule(frequency: .weekly, interval: 2, weekdays: [wd(7)])),
        ("every 3 weeks on Friday", Rule(frequency: .weekly, interval: 3, weekdays: [wd(5)])),
        ("every 2 months", Rule(frequency: .monthly, interval: 2)),
        ("every month on the 1st", Rule(frequency: .monthly, monthDays: [1])),
        ("every month on the 15th", Rule(frequency: .monthly, monthDays: [15])),
        ("every month on the 1st and 15th", Rule(frequency: .monthly, monthDays: [1, 15])),
        ("every month on the last", Rule(frequency: .monthly, monthDays: [-1])),
        ("every month on the last Friday", Rule(frequency: .monthly, weekdays: [wd(5, -1)])),
        ("every month on the 2nd last Friday", Rule(frequency: .monthly, weekdays: [wd(5, -2)])),
        ("every month on the 2nd Wednesday", Rule(frequency: .monthly, weekdays: [wd(3, 2)])),
        ("every 6 months on the 2nd Wednesday", Rule(frequency: .monthly, interval: 6, weekdays: [wd(3, 2)])),
        ("every January on the 15th", Rule(frequency: .yearly, monthDays: [15], months: [1])),
        ("every February on the last", Rule(frequency: .yearly, monthDays: [-1], months: [2])),
        ("every April and December on the 1st and 24th", Rule(frequency: .yearly, monthDays: [1, 24], months: [4, 12])),
        ("every year", Rule(frequency: .yearly)),
        ("every year on February the 29th", Rule(frequency: .yearly, monthDays: [29], months: [2])),
        ("every day", Rule(frequency: .daily)),
        ("Every Week On MONDAY", Rule(frequency: .weekly, weekdays: [wd(1)])),
        ("every mon, wed and fri", Rule(frequency: .weekly, weekdays: [wd(1), wd(3), wd(5)])),
        // The tick dialect: short forms and the hyphenated words.
        ("2w", Rule(frequency: .weekly, interval: 2)),
        ("daily", Rule(frequency: .daily)),
        ("monthly", Rule(frequency: .monthly)),
        ("monday", Rule(frequency: .weekly, weekdays: [wd(1)])),
        ("weekday", Rule(frequency: .weekly, weekdays: (1...5).map { wd($0) })),
        ("week-on-monday,friday", Rule(frequency: .weekly, weekdays: [wd(1), wd(5)])),
        ("month-on-the-2nd-wednesday", Rule(frequency: .monthly, weekdays: [wd(3, 2)])),
        ("2-weeks-when-done", Rule(frequency: .weekly, interval: 2, whenDone: true)),
        ("april,december-on-the-1st,24th", Rule(frequency: .yearly, monthDays: [1, 24], months: [4, 12])),
    ]

    @Test(
        "each documented rule reads as its frequency, interval, weekdays, days and months",
        arguments: documented.indices)
    func documentedRuleReads(_ index: Int) throws {
        let (text, expected) = Self.documented[index]
        let rule = try RecurrenceRule.parse(text).get()
        #expect(rule == expected, "\(text)")
    }

    @Test("a rule's English reads back as the same rule", arguments: documented.indices)
    func englishRoundTrips(_ index: Int) throws {
        let rule = Self.documented[index].1
        #expect(RecurrenceRule("every " + rule.english) == rule, "\(rule.english)")
        #expect(RecurrenceRule(rule.english.replacingOccurrences(of: " ", with: "-")) == rule, "tick dialect of \(rule.english)")
    }

    @Test(
        "rules tick cannot read are refused with the reason",
        arguments: [
            ("invalid rule", "'invalid'"), ("every", "after 'every'"), ("every week on", "found the end"),
            ("every 0 days", "'0'"), ("every 1001 days", "between 1 and 1000"), ("every month on the 32nd", "32nd"),
            ("every month on the 6th Friday", "6th Friday"), ("every day at 9", "'at' is not supported"),
            ("every week until 2030", "'until' is not supported"), ("every fortnight", "'fortnight'"),
            ("every 2 weeks for 3 times", "'for' is not supported"), ("every day on Monday", "unexpected"),
            ("every week Monday", "unexpected 'Monday'"), ("every week when", "'when' must be followed by 'done'"),
            ("fortnightly", "'fortnightly'"), ("", "empty"),
        ])
    func unreadableRulesAreRefused(_ text: String, _ reason: String) {
        guard case .failure(let error) = RecurrenceRule.parse(text) else {
            Issue.record("'\(text)' was read")
            return
        }
        #expect(error.description.contains(reason), "\(text): \(error)")
    }
}

@Suite("Next dates follow Obsidian Tasks' rules")
struct RecurrenceNextDateTests {
    static let cases: [(rule: String, from: String, next: String?)] = [
        ("every Sunday", "2021-04-25", "2021-05-02"),
        ("every month on the 2nd Wednesday", "2021-09-08", "2021-10-13"),
        // every month on the last: the last day of each month.
        ("every month on the last", "2022-01-31", "2022-02-28"),
        ("every month on the last", "2022-02-28", "2022-03-31"),
        ("every month on the last", "2022-04-30", "2022-05-31"),
        // every month: a missing day moves earlier, and the series keeps the new day.
        ("every month", "2021-10-31", "2021-11-30"),
        ("every month", "2021-11-30", "2021-12-30"),
        ("every month", "2022-01-30", "2022-02-28"),
        ("every month", "2022-02-28", "2022-03-28"),
        ("every month", "2022-01-31", "2022-02-28"),
        // every month on the 31st: months without a 31st are skipped.
        ("every month on the 31st", "2022-01-31", "2022-03-31"),
        ("every month on the 31st", "2022-03-31", "2022-05-31"),
        ("every month on the 31st", "2022-05-31", "2022-07-31"),
        ("every month on the 31st", "2022-07-31", "2022-08-31"),
        ("every 3 months", "2022-01-31", "2022-04-30"),
        ("every 3 months", "2022-04-30", "2022-07-30"),
        ("every 2 months", "2023-12-31", "2024-02-29"),
        ("every 11 months", "2020-03-31", "2021-02-28"),
        ("every 13 months", "2020-01-31", "2021-02-28"),
        ("every 2 years", "2024-02-29", "2026-02-28"),
        ("every year", "2028-02-29", "2029-02-28"),
        ("every year on February the 29th", "2024-02-29", "2028-02-29"),
        ("every 2 weeks", "2021-10-30", "2021-11-13"),
        ("every week", "2021-02-06", "2021-02-13"),
        ("every 3 days", "2021-12-30", "2022-01-02"),
        ("every weekday", "2021-04-23", "2021-04-26"),
        ("every weekday", "2021-04-26", "2021-04-27"),
        ("every week on Tuesday, Friday", "2021-04-20", "2021-04-23"),
        ("every week on Tuesday, Friday", "2021-04-23", "2021-04-27"),
        ("every 2 weeks on Sunday", "2021-04-25", "2021-05-09"),
        ("every 3 weeks on Friday", "2021-04-21", "2021-04-23"),
        ("every month on the 2nd last Friday", "2021-09-01", "2021-09-17"),
        ("every month on the last Friday", "2021-09-24", "2021-10-29"),
        ("every 6 months on the 2nd Wednesday", "2021-09-08", "2022-03-09"),
        ("every January on the 15th", "2021-03-01", "2022-01-15"),
        ("every February on the last", "2023-02-28", "2024-02-29"),
        ("every April and December on the 1st and 24th", "2024-04-30", "2024-12-01"),
        ("every April and December on the 1st and 24th", "2024-12-24", "2025-04-01"),
        ("every month on the 1st and 15th", "2024-01-01", "2024-01-15"),
        // Never past 9999-12-31.
        ("every 1000 years", "9000-01-01", nil),
        ("every day", "9999-12-31", nil),
        ("every month on the 31st", "9999-12-31", nil),
    ]

    @Test("each rule's next date after its reference date", arguments: cases.indices)
    func nextDate(_ index: Int) throws {
        let (text, from, next) = Self.cases[index]
        let rule = try RecurrenceRule.parse(text).get()
        #expect(rule.next(after: date(from))?.isoString == next, "\(text) from \(from)")
    }

    @Test("every month on the 2nd Wednesday from 2021-09-08 gives 2021-10-13")
    func secondWednesday() {
        #expect(RecurrenceRule("every month on the 2nd Wednesday")?.next(after: date("2021-09-08")) == date("2021-10-13"))
    }

    @Test(
        "rules with days agree with RFC 5545 as python-dateutil computes it, from many reference dates",
        .enabled(if: PythonICalendar.isAvailable, "needs Python's dateutil (installed with icalendar)"))
    func agreesWithDateutil() throws {
        let rules = [
            "every week on Tuesday, Friday", "every 2 weeks on Sunday", "every 3 weeks on Monday and Saturday", "every weekday",
            "every month on the 2nd Wednesday", "every month on the last Friday", "every month on the 2nd last Friday",
            "every 2 months on the 1st and 15th", "every month on the last", "every month on the 31st", "every month on the 30th",
            "every January on the 15th", "every April and December on the 1st and 24th", "every February on the last",
            "every year on February the 29th", "every 2 years on the 1st in March", "every year on the 20th Monday",
            "every 3 months on the last Sunday", "every Friday the 13th", "every Monday, Friday", "every 3 days", "every 2 weeks",
            "every June and July", "every 4 months on the 3rd Thursday", "every month on the 1st and the last",
        ]
        var reference = date("2023-11-27")
        var dates: [TaskDate] = []
        for step in 0..<40 {
            dates.append(reference)
            reference = reference.adding(17 + step % 13, .day)
        }
        dates += ["2024-02-29", "2024-01-31", "2023-12-31", "2024-12-31"].map(date)
        let codes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        var requests: [[String: Any]] = []
        for text in rules {
            let rule = try RecurrenceRule.parse(text).get()
            requests.append([
                "freq": ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"][
                    [RecurrenceRule.Frequency.daily, .weekly, .monthly, .yearly].firstIndex(of: rule.frequency)!],
                "interval": rule.interval,
                "byweekday": rule.weekdays.map { [codes[$0.day - 1], $0.ordinal ?? 0] },
                "bymonthday": rule.monthDays, "bymonth": rule.months,
                "dates": dates.map(\.isoString),
            ])
        }
        let script = #"""
            import sys, json, datetime
            from dateutil import rrule
            out = []
            for r in json.load(sys.stdin):
                days = [getattr(rrule, c)(n) if n else getattr(rrule, c) for c, n in r["byweekday"]]
                answers = []
                for d in r["dates"]:
                    start = datetime.datetime.fromisoformat(d)
                    kw = dict(dtstart=start, interval=r["interval"], wkst=rrule.MO)
                    if days: kw["byweekday"] = days
                    if r["bymonthday"]: kw["bymonthday"] = r["bymonthday"]
                    if r["bymonth"]: kw["bymonth"] = r["bymonth"]
                    nxt = rrule.rrule(getattr(rrule, r["freq"]), **kw).after(start)
                    answers.append(nxt.date().isoformat() if nxt else None)
                out.append(answers)
            print(json.dumps(out))
            """#
        let input = try JSONSerialization.data(withJSONObject: requests)
        let result = try PythonICalendar.run(["python3", "-c", script], input: input)
        #expect(result.status == 0, "\(String(decoding: result.error, as: UTF8.self))")
        let answers = try #require(try JSONSerialization.jsonObject(with: result.output) as? [[Any]])
        for (ruleIndex, text) in rules.enumerated() {
            let rule = try RecurrenceRule.parse(text).get()
            for (dateIndex, from) in dates.enumerated() {
                let expected = answers[ruleIndex][dateIndex] as? String
                #expect(rule.next(after: from)?.isoString == expected, "\(text) from \(from.isoString)")
            }
        }
    }
}

@Suite("The next occurrence of a completed recurring item")
struct NextOccurrenceTests {
    static let today = date("2022-02-13")

    func next(_ line: String, today: TaskDate = today) throws -> String {
        let document = DocumentParser.parse(line + "\n", path: "x.md")
        let bytes = try #require(NextOccurrence.line(for: document.items[0], in: document, today: today))
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("🔁 every Sunday ⏳ 2021-04-20 📅 2021-04-25 gives ⏳ 2021-04-27 📅 2021-05-02: the scheduled date keeps its distance from the due date")
    func otherDatesKeepTheirDistance() throws {
        #expect(
            try next("- [ ] take out the trash 🔁 every Sunday ⏳ 2021-04-20 📅 2021-04-25")
                == "- [ ] take out the trash 🔁 every Sunday ⏳ 2021-04-27 📅 2021-05-02\n")
    }

    @Test("every 2 weeks with a scheduled date two days before the due date keeps the two days")
    func mowTheLawn() throws {
        #expect(
            try next("- [ ] Mow the lawn 🔁 every 2 weeks ⏳ 2021-10-28 📅 2021-10-30")
                == "- [ ] Mow the lawn 🔁 every 2 weeks ⏳ 2021-11-11 📅 2021-11-13\n")
    }

    @Test("without when done the next date counts from the old date, however late it is done")
    func countsFromTheOldDate() throws {
        #expect(
            try next("- [ ] sweep the floors 🔁 every week ⏳ 2021-02-06")
                == "- [ ] sweep the floors 🔁 every week ⏳ 2021-02-13\n")
    }

    @Test("with when done the next date counts from the completion date")
    func whenDoneCountsFromToday() throws {
        #expect(
            try next("- [ ] sweep the floors 🔁 every week when done ⏳ 2021-02-06")
                == "- [ ] sweep the floors 🔁 every week when done ⏳ 2022-02-20\n")
        // The other dates keep their distance from the new reference date.
        #expect(
            try next("- [ ] file 🔁 every month on the 1st when done 🛫 2021-01-25 📅 2021-02-01")
                == "- [ ] file 🔁 every month on the 1st when done 🛫 2022-02-22 📅 2022-03-01\n")
    }

    @Test("the reference date is due, else scheduled, else start")
    func referenceDate() throws {
        #expect(
            try next("- [ ] a 🔁 every month on the last 🛫 2022-01-20 ⏳ 2022-01-31")
                == "- [ ] a 🔁 every month on the last 🛫 2022-02-17 ⏳ 2022-02-28\n")
        #expect(try next("- [ ] b 🔁 every month 🛫 2022-01-31") == "- [ ] b 🔁 every month 🛫 2022-02-28\n")
    }

    @Test("a rule whose next date would pass 9999-12-31 gives no next occurrence, and says why")
    func noDatePastTheLastDay() throws {
        let document = DocumentParser.parse("- [ ] far 🔁 every 1000 years 📅 9000-01-01\n", path: "x.md")
        guard case .failure(let failure) = NextOccurrence.make(for: document.items[0], in: document, today: Self.today) else {
            Issue.record("a next occurrence was made")
            return
        }
        #expect(failure.description.contains("9999-12-31"))
        // A date that keeps its distance past the last day is refused too.
        let late = DocumentParser.parse("- [ ] late 🔁 every day ⏳ 9999-12-31 📅 9999-12-29\n", path: "x.md")
        #expect(NextOccurrence.line(for: late.items[0], in: late, today: Self.today) == nil)
    }
}

@Suite("Reading recurrence and Dataview tokens as Obsidian does")
struct RecurrenceTokenTests {
    @Test("an unreadable 🔁 rule does not make an item recurring, and is a diagnostic with its column")
    func invalidEmojiRule() {
        let document = DocumentParser.parse("- [ ] Chore 🔁 invalid rule 📅 2021-01-01\n", path: "x.md")
        #expect(document.items[0].metadata.every == nil)
        #expect(document.items[0].metadata.due == date("2021-01-01"))
        let diagnostic = document.diagnostics.first
        #expect(diagnostic?.line == 1)
        #expect(diagnostic?.column == 18)
        #expect(diagnostic?.message.hasPrefix("cannot read the recurrence rule 'invalid'") == true)
        #expect(NextOccurrence.unreadableRule(of: document.items[0], in: document) != nil)
    }

    @Test(
        "unreadable rules in the tick and Dataview dialects are diagnostics too, and the item is not recurring",
        arguments: ["- [ ] a every:fortnight", "- [ ] a [repeat:: every week on Mondya]", "- [ ] a (repeat:: every 0 days)"])
    func invalidRulesInOtherDialects(_ line: String) {
        let document = DocumentParser.parse(line + "\n", path: "x.md")
        #expect(document.items[0].metadata.every == nil)
        #expect(document.diagnostics.count == 1)
        #expect(NextOccurrence.unreadableRule(of: document.items[0], in: document) != nil)
    }

    @Test("a 🔁 rule ends before the first word outside its grammar, which stays title text")
    func emojiRuleEndsAtTheFirstOtherWord() {
        let document = DocumentParser.parse("- [ ] 🔁 every week on Monday take out the trash 📅 2024-03-04\n", path: "x.md")
        #expect(document.items[0].metadata.every == "every week on Monday")
        #expect(document.items[0].title == "take out the trash")
        #expect(document.diagnostics.isEmpty)
    }

    @Test("Dataview fields in parentheses are read like the bracket form")
    func dataviewParentheses() {
        let document = DocumentParser.parse("- [ ] Pay (due:: 2021-08-22) (priority:: high) (repeat:: every month on the last)\n", path: "x.md")
        let item = document.items[0]
        #expect(item.metadata.due == date("2021-08-22"))
        #expect(item.metadata.priority == .high)
        #expect(item.metadata.every == "every month on the last")
        #expect(item.title == "Pay")
        #expect(document.diagnostics.isEmpty)
    }

    @Test("a Dataview id with characters outside letters, digits, - and _ is refused with a diagnostic, like 🆔")
    func dataviewIDCharacters() {
        let bad = DocumentParser.parse("- [ ] Task [id:: A*bcd0f]\n", path: "x.md")
        #expect(bad.items[0].metadata.id == nil)
        #expect(bad.diagnostics.first?.message.contains("invalid id 'A*bcd0f'") == true)
        let good = DocumentParser.parse("- [ ] Task [id:: abc_1-2]\n", path: "x.md")
        #expect(good.items[0].metadata.id == "abc_1-2")
        #expect(good.diagnostics.isEmpty)
    }

    @Test("[priority:: highest] reads as urgent, and urgent is written as highest in a Dataview field")
    func dataviewPriorityWords() {
        let document = DocumentParser.parse("- [ ] Task [priority:: highest]\n", path: "x.md")
        #expect(document.items[0].metadata.priority == .urgent)
        #expect(TokenFormat.priority(.urgent, dialect: .dataview) == "[priority:: highest]")
        #expect(TokenFormat.priority(.lowest, dialect: .dataview) == "[priority:: lowest]")
    }
}

@Suite("RRULE in the iCalendar export")
struct RecurrenceICalendarTests {
    @Test(
        "each rule becomes its RRULE: FREQ, INTERVAL, BYDAY with ordinals, BYMONTHDAY and BYMONTH",
        arguments: [
            ("every 2 weeks on Sunday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=SU"),
            ("every weekday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
            ("every month on the 2nd last Friday", "FREQ=MONTHLY;BYDAY=-2FR"),
            ("every 6 months on the 2nd Wednesday", "FREQ=MONTHLY;INTERVAL=6;BYDAY=2WE"),
            ("every month on the last", "FREQ=MONTHLY;BYMONTHDAY=-1"),
            ("every April and December on the 1st and 24th", "FREQ=YEARLY;BYMONTHDAY=1,24;BYMONTH=4,12"),
            ("every 3 days", "FREQ=DAILY;INTERVAL=3"),
        ])
    func rruleText(_ text: String, _ expected: String) {
        #expect(RecurrenceRule(text)?.rrule == expected)
    }

    @Test(
        "a real iCalendar parser reads the exported RRULEs back with the same parts",
        .enabled(if: PythonICalendar.isAvailable, "needs Python's icalendar; pip could not install it"))
    func icalendarReadsTheRRULEs() throws {
        let folder = workspace([
            "chores.md": """
            - [ ] Swim 🔁 every week on Tuesday, Friday 🛫 2024-03-05 📅 2024-03-05
            - [ ] Meet 🔁 every month on the 2nd last Friday 🛫 2024-03-22
            - [ ] Cards 🔁 every April and December on the 1st and 24th 🛫 2024-04-01
            - [ ] Books [repeat:: every 3 months on the last] [start:: 2024-03-31]
            """
        ])
        let calendar = ICalendarWriter.write(folder.items, stamp: "20261121T000000Z")
        let script = #"""
            import sys
            from icalendar import Calendar
            cal = Calendar.from_ical(sys.stdin.buffer.read())
            for todo in cal.walk("VTODO"):
                print(todo["RRULE"].to_ical().decode())
            """#
        let result = try PythonICalendar.run(["python3", "-c", script], input: Data(calendar.utf8))
        #expect(result.status == 0, "\(String(decoding: result.error, as: UTF8.self))")
        let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "FREQ=WEEKLY;BYDAY=TU,FR", "FREQ=MONTHLY;BYDAY=-2FR", "FREQ=YEARLY;BYMONTHDAY=1,24;BYMONTH=4,12",
                "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=-1",
            ])
    }
}

@Suite("No silent end of a series: tick check and tick done")
struct RecurrenceCommandTests {
    @Test("tick check reports a rule it cannot read, with its line and column")
    func checkReportsUnreadableRule() throws {
        let notes = try NotesFixture([
            "chores.md": "# Chores\n\n- [ ] Chore 🔁 every week on Mondya 📅 2021-01-01\n- [ ] Other [repeat:: every fortnight]\n"
        ])
        let result = try notes.tick("check")
        #expect(result.stdout.contains("chores.md:3:18: warning: cannot read the recurrence rule 'every week on Mondya'"), "\(result.stdout)")
        #expect(result.stdout.contains("chores.md:4:23: warning: cannot read the recurrence rule 'every fortnight'"), "\(result.stdout)")
    }

    @Test(
        "tick done on an item whose rule it cannot read exits 65, writes nothing and names --no-repeat",
        arguments: [
            "- [ ] Chore 🔁 invalid rule 📅 2021-01-01\n", "- [ ] Chore every:fortnight due:2021-01-01\n",
            "- [ ] Chore [repeat:: every day at 9] [due:: 2021-01-01]\n", "- [ ] Chore 🔁 every 1000 years 📅 9000-01-01\n",
        ])
    func doneRefusesAnUnreadableRule(_ text: String) throws {
        let notes = try NotesFixture(["chores.md": text])
        let result = try notes.tick("done", "chores.md:1")
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("tick: chores.md:1"), "\(result.stderr)")
        #expect(result.stderr.contains("--no-repeat"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try notes.text("chores.md") == text)
    }

    @Test("tick done --no-repeat completes such an item without a next occurrence")
    func noRepeatCompletes() throws {
        let notes = try NotesFixture(["chores.md": "- [ ] Chore 🔁 invalid rule 📅 2021-01-01\n- [ ] Walk 🔁 every day 📅 2021-01-01\n"])
        let result = try notes.tick("done", "chores.md:1", "chores.md:2", "--no-repeat")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try notes.text("chores.md")
                == "- [x] Chore 🔁 invalid rule 📅 2021-01-01 ✅ 2026-11-21\n- [x] Walk 🔁 every day 📅 2021-01-01 ✅ 2026-11-21\n")
    }

    @Test("every rule of the Obsidian Tasks demo vault recurs as Obsidian computes it")
    func demoVaultRules() throws {
        let before = try String(contentsOfFile: Fixture.path("recurrence/demo-vault-rules.before.md"), encoding: .utf8)
        let after = try String(contentsOfFile: Fixture.path("recurrence/demo-vault-rules.after.md"), encoding: .utf8)
        let notes = try NotesFixture(["chores.md": before])
        let check = try notes.tick("check")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let lines = before.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { $0.element.hasPrefix("- [ ]") }.map { "chores.md:\($0.offset + 1)" }
        #expect(lines.count == 12)
        let result = try TickProcess.run(["done"] + lines + ["--dir", notes.root.path, "--today", "2026-11-21"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try notes.text("chores.md") == after)
    }

    @Test("tick edit --priority urgent writes [priority:: highest] in a Dataview list")
    func dataviewUrgentIsHighest() throws {
        let notes = try NotesFixture(["tasks.md": "- [ ] Call [due:: 2026-11-24]\n"])
        let result = try notes.tick("edit", "tasks.md:1", "--priority", "urgent")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try notes.text("tasks.md") == "- [ ] Call [due:: 2026-11-24] [priority:: highest]\n")
    }
}
