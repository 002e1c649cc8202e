import Foundation
import Testing

@testable import TickEngine
@testable import TickModel
@testable import TickOutput
@testable import TickRecords
@testable import TickSyntax

/// Urgency (Obsidian Tasks' "Urgency" page), `happens`, and `tick agenda`.
@Suite struct UrgencyAgendaTests {
    func listed(_ line: String) -> EncodedListedItem {
        readModel(DocumentParser.parse(line, path: "t.md")).items()[0]
    }

    @Test("urgency matches the table of Obsidian Tasks' docs: due, priority, scheduled and start parts")
    func urgencyTable() {
        let today = date("2026-11-21")
        func due(_ days: Int) -> Double {
            Urgency(listed("- [ ] x 📅 \(today.adding(days, .day).isoString)"), today: today).due
        }
        #expect(due(-30) == 12 && due(-7) == 12 && due(-6) == 11.54286 && due(-1) == 9.25714)
        #expect(due(0) == 8.8 && due(1) == 8.34286 && due(7) == 5.6 && due(13) == 2.85714 && due(14) == 2.4 && due(40) == 2.4)
        #expect(Urgency(listed("- [ ] x"), today: today).due == 0)
        let priorities = ["🔺": 9.0, "⏫": 6.0, "🔼": 3.9, "": 1.95, "🔽": 0.0, "⏬": -1.8]
        for (sign, score) in priorities {
            #expect(Urgency(listed("- [ ] x \(sign)"), today: today).priority == score, "\(sign)")
        }
        #expect(Urgency(listed("- [ ] x ⏳ 2026-11-21"), today: today).scheduled == 5)
        #expect(Urgency(listed("- [ ] x ⏳ 2026-11-22"), today: today).scheduled == 0)
        #expect(Urgency(listed("- [ ] x 🛫 2026-11-22"), today: today).start == -3)
        #expect(Urgency(listed("- [ ] x 🛫 2026-11-21"), today: today).start == 0)
    }

    @Test("urgencies are written in JSON as String(Double) writes them, for every score there can be")
    func urgencyNumbersMatchStringConversion() {
        var values: Set<Double> = []
        let today = date("2026-11-21")
        for days in -20...20 {
            for sign in ["🔺", "⏫", "🔼", "", "🔽", "⏬"] {
                for scheduled in ["", "⏳ 2026-11-20", "⏳ 2026-11-22"] {
                    for start in ["", "🛫 2026-11-20", "🛫 2026-11-22"] {
                        let line = "- [ ] x \(sign) 📅 \(today.adding(days, .day).isoString) \(scheduled) \(start)"
                        values.insert(Urgency(listed(line), today: today).total)
                    }
                }
            }
        }
        values.formUnion([0, -1.8, 1.95, -4.8, 0.5, 100.00001])
        for value in values {
            var output = ByteOutput()
            output.appendFiveDecimals(value)
            #expect(String(decoding: output.bytes, as: UTF8.self) == String(value), "\(value)")
        }
        #expect(values.count > 300)
    }

    @Test("the three worked examples of Obsidian Tasks' urgency page: 12.7, 11.0 and 3.0")
    func urgencyExamples() {
        let today = date("2026-11-21")
        #expect(Urgency(listed("- [ ] a 🔼 📅 2026-11-21"), today: today).total == 12.7)
        #expect(Urgency(listed("- [ ] b ⏫ ⏳ 2026-11-20 🛫 2026-11-20"), today: today).total == 11)
        #expect(Urgency(listed("- [ ] c ⏫ ⏳ 2026-11-22 🛫 2026-11-22"), today: today).total == 3)
        #expect(Urgency(listed("- [ ] a 🔼 📅 2026-11-21"), today: today).explanation == "12.7 = due 8.8 + priority 3.9 + scheduled 0 + start 0")
    }

    @Test("--sort urgency puts the most urgent first, from the cache and from the files; --explain shows the parts")
    func sortByUrgency() throws {
        let notes = try NotesFixture([
            "a.md": """
            - [ ] later 📅 2026-12-30
            - [ ] medium today 🔼 📅 2026-11-21
            - [ ] high scheduled ⏫ ⏳ 2026-11-20 🛫 2026-11-20
            - [ ] not started ⏫ ⏳ 2026-11-22 🛫 2026-11-22

            """
        ])
        let expected = ["medium today", "high scheduled", "later", "not started"] // later: 2.4 + 1.95
        for extra in [["--json"], ["--json"], []] {
            let run = try TickProcess.run(["query", "open", "--sort", "urgency", "--dir", notes.root.path, "--today", "2026-11-21"] + extra)
            let titles: [String]
            if extra.isEmpty {
                titles = run.stdout.split(separator: "\n").compactMap { line in expected.first { line.contains($0) } }
            } else {
                let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
                let items = object["items"] as! [[String: Any]]
                titles = items.map { $0["title"] as! String }
                #expect(items.map { $0["urgency"] as! Double } == [12.7, 11, 4.35, 3])
            }
            #expect(titles == expected, "\(extra)")
        }
        let explained = try notes.tick("query", "open", "--sort", "urgency", "--explain")
        #expect(explained.stdout.contains("12.7 = due 8.8 + priority 3.9 + scheduled 0 + start 0   a.md:2  medium today"))
        let written = try notes.tick("sort", "a", "--by", "urgency", "--write")
        #expect(written.status == 0)
        #expect(try notes.text("a.md").hasPrefix("- [ ] medium today"))
    }

    @Test("happens is the earliest of due, scheduled and start")
    func happens() throws {
        #expect(listed("- [ ] x 📅 2026-11-30 ⏳ 2026-11-25 🛫 2026-11-27").happens == date("2026-11-25"))
        #expect(listed("- [ ] x ➕ 2026-11-01").happens == nil)
        let notes = try NotesFixture(["a.md": "- [ ] a 📅 2026-11-30 ⏳ 2026-11-22\n- [ ] b 📅 2026-11-30\n- [ ] c\n"])
        let run = try notes.tick("query", "happens <= 2026-11-23")
        #expect(run.stdout.contains(" a ") || run.stdout.contains("☐     a"))
        #expect(!run.stdout.contains(" b ") && !run.stdout.contains(" c "))
        #expect(try notes.tick("query", "happens < +3d", "--json").stdout.contains("\"title\": \"a\""))
    }

    static let agendaList = """
        - [ ] overdue task 📅 2026-11-19
        - [ ] due today 📅 2026-11-21
        - [ ] scheduled earlier ⏳ 2026-11-18
        - [ ] starts tomorrow 🛫 2026-11-22
        - [ ] scheduled and due 📅 2026-11-23 ⏳ 2026-11-23
        - [ ] deadline warning 📅 2026-12-01
        - [ ] far away 📅 2027-01-01
        - [x] done today 📅 2026-11-21

        """

    @Test("agenda: overdue first, then each day's due, scheduled and starting items, with earlier schedules and deadline warnings on today")
    func agenda() throws {
        let document = DocumentParser.parse(Self.agendaList, path: "a.md")
        let items = readModel(document).items()
        let days = Agenda.days(items, today: date("2026-11-21"), count: 3)
        #expect(days.map { $0.date?.isoString ?? "overdue" } == ["overdue", "2026-11-21", "2026-11-22", "2026-11-23"])
        func entries(_ index: Int) -> [String] {
            days[index].entries.map { "\($0.record.title.string): " + $0.reasons.map(\.rawValue).joined(separator: ",") }
        }
        #expect(entries(0) == ["overdue task: overdue"])
        #expect(entries(1) == ["due today: due", "scheduled earlier: scheduled-earlier", "deadline warning: due-soon"])
        #expect(entries(2) == ["starts tomorrow: start"])
        #expect(entries(3) == ["scheduled and due: due,scheduled"])

        let notes = try NotesFixture(["a.md": Self.agendaList])
        let human = try notes.tick("agenda", "--days", "3")
        #expect(human.status == 0)
        let lines = human.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Overdue")
        #expect(lines.contains { $0.contains("scheduled earlier") && $0.contains("scheduled 3 days ago") })
        #expect(lines.contains { $0.contains("deadline warning") && $0.contains("due in 10 days") })
        #expect(lines.contains("Sun 2026-11-22 · tomorrow"))
        #expect(!human.stdout.contains("far away") && !human.stdout.contains("done today"))
        let json = try notes.tick("agenda", "--days", "2", "--json")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let jsonDays = object["days"] as! [[String: Any]]
        #expect(jsonDays.map { $0["date"] as? String ?? "null" } == ["null", "2026-11-21", "2026-11-22"])
        let first = (jsonDays[1]["entries"] as! [[String: Any]])[0]
        #expect(first["reasons"] as? [String] == ["due"])
        #expect((first["item"] as? [String: Any])?["title"] as? String == "due today")
        let bad = try notes.tick("agenda", "--days", "0")
        #expect(bad.status == 64 && bad.stderr.contains("--days 0 is out of range"))
    }

    @Test(
        "an agenda over only the items that may show (open, with a due, scheduled or start date) is the agenda over every item",
        arguments: [("2026-11-21", 3), ("2026-11-16", 9), ("2026-11-10", 30), ("2027-02-01", 4)])
    func agendaOverItsCandidatesIsTheAgendaOverEveryItem(today: String, count: Int) throws {
        let list =
            Self.agendaList + """
                - [/] in progress 🛫 2026-11-21
                - [-] cancelled 📅 2026-11-21
                - [ ] no dates at all
                - [ ] created only ➕ 2026-11-20
                - [ ] overdue and scheduled today 📅 2026-11-14 ⏳ 2026-11-21
                - [ ] every reason 📅 2026-11-22 ⏳ 2026-11-22 🛫 2026-11-22

                """
        let workspace = EncodedWorkspace(documents: [readModel(DocumentParser.parse(list, path: "a.md"))])
        let candidates = workspace.items(where: Agenda.mayShow)
        #expect(candidates.count < workspace.items.count)
        func shown(_ days: [Agenda.Day]) -> [String] {
            days.map { day in
                (day.date?.isoString ?? "overdue") + ": "
                    + day.entries.map { "\($0.record.title.string) (\($0.reasons.map(\.rawValue).joined(separator: ",")))" }.joined(separator: "; ")
            }
        }
        let all = shown(Agenda.days(workspace.items, today: date(today), count: count))
        #expect(shown(Agenda.days(candidates, today: date(today), count: count)) == all)
        #expect(
            all.joined().contains("every reason (due,scheduled,start)") == (today == "2026-11-21" || today == "2026-11-16" || today == "2026-11-10"))
    }

    @Test(
        "an agenda whose days Foundation's calendar gives one date twice (year 0 read back as year 1) shows that date's entries on both days"
    )
    func agendaWhoseCalendarRepeatsADate() throws {
        let items = readModel(DocumentParser.parse("- [ ] old one 📅 0001-03-01\n", path: "a.md")).items()
        let days = Agenda.days(items, today: date("0000-03-01"), count: 366)
        #expect(days.count == 366)
        let repeated = days.indices.filter { day in days.indices.contains { $0 != day && days[$0].date == days[day].date } }
        #expect(repeated.count == 2)
        for day in repeated { #expect(days[day].entries.map(\.record.title.string) == ["old one"]) }
    }

    @Test("an entry's reasons are a set, listed in the order Reason declares them, whatever the order they were added in")
    func agendaReasonsAreListedInDeclarationOrder() {
        var reasons = Agenda.Reasons()
        for reason in Agenda.Reason.allCases.reversed() { reasons.insert(reason) }
        reasons.insert(.due)
        #expect(Array(reasons) == Agenda.Reason.allCases)
        #expect(Array(Agenda.Reasons([.dueSoon, .scheduled])) == [.scheduled, .dueSoon])
        #expect(Agenda.Reasons([.start]).contains(.start) && !Agenda.Reasons([.start]).contains(.due))
        #expect(Array(Agenda.Reasons()).isEmpty)
    }

    /// The agenda document as a `JSONValue`, pretty-printed: what the
    /// streamed writer must write, byte for byte.
    static func agendaReference(_ days: [Agenda.Day], names: [String], context: ItemContext) -> [UInt8] {
        JSONValue.object([
            ("today", .string(context.today.isoString)),
            (
                "days",
                .array(
                    zip(days, names).map { day, name in
                        .object([
                            ("date", .string(day.date?.isoString)), ("name", .string(name)),
                            (
                                "entries",
                                .array(
                                    day.entries.map { entry in
                                        .object([
                                            ("reasons", .array(entry.reasons.map { .string($0.rawValue) })),
                                            ("item", ItemJSON.item(entry.record, context: context)),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
        ]).serializedBytes(pretty: true)
    }

    @Test(
        "the agenda document is written piece by piece as the whole value prints it: days without entries first, between and last, several reasons, no overdue section",
        arguments: [("2026-11-21", 3), ("2026-11-21", 12), ("2026-11-16", 9), ("2026-11-10", 2), ("2027-02-01", 4), ("2026-11-17", 1)])
    func agendaDocumentIsTheValuePrinted(today: String, count: Int) throws {
        let items = readModel(DocumentParser.parse(Self.agendaList, path: "a.md")).items()
        let context = ItemContext(today: date(today), dependencies: .none)
        let days = Agenda.days(items, today: context.today, count: count)
        let names = days.map { $0.date?.isoString ?? "Overdue" }
        var written: [UInt8] = []
        ItemJSON.writeAgendaDocument(days, names: names, context: context) { written.append(contentsOf: $0) }
        #expect(
            String(decoding: written, as: UTF8.self) == String(decoding: Self.agendaReference(days, names: names, context: context), as: UTF8.self))
    }
}
