import Foundation
import Testing

@testable import TickModel
@testable import TickSyntax

/// `tick export --format ics --events` (issue 19.7): events calendar apps
/// show, checked with Python's icalendar; RRULEs expanded with
/// recurring-ical-events against tick's own next dates.
@Suite struct EventExportTests {
    static let lists = [
        "a.md": """
        - [ ] pay rent due:2026-12-01 every:month
        - [ ] standup due:2026-11-23T09:30 every:weekday #work
        - [ ] dentist due:2026-11-25 !high
          bring the forms
        - [x] done thing due:2026-11-20 done:2026-11-20
        - [ ] no date at all
        - [ ] water plants 📅 2026-11-24 🔁 every 3 days when done

        """,
        "b.md": "- [ ] council tax 📅 2026-12-02 🔁 every month on the 2nd wednesday\n- [ ] bins 📅 2026-11-26 🔁 every week on Thursday\n",
    ]

    /// Python's available, with recurring-ical-events (installed once if missing).
    static let recurrenceAvailable: Bool = {
        guard PythonICalendar.isAvailable else { return false }
        if (try? PythonICalendar.run(["python3", "-c", "import recurring_ical_events"], input: nil).status) == 0 { return true }
        _ = try? PythonICalendar.run(["python3", "-m", "pip", "install", "--quiet", "recurring-ical-events"], input: nil)
        return (try? PythonICalendar.run(["python3", "-c", "import recurring_ical_events"], input: nil).status) == 0
    }()

    /// Runs `script` (Python) with the calendar on standard input; its output parsed as JSON.
    static func python(_ script: String, _ calendar: String) throws -> Any {
        let result = try PythonICalendar.run(["python3", "-c", script], input: Data(calendar.utf8))
        guard result.status == 0 else { throw PythonICalendar.ParseFailure(message: String(decoding: result.error, as: UTF8.self)) }
        return try JSONSerialization.jsonObject(with: result.output)
    }

    func export(_ notes: NotesFixture, _ extra: [String] = []) throws -> TickProcess.Result {
        try TickProcess.run(["export", "--format", "ics", "--events"] + extra + ["--dir", notes.root.path, "--today", "2026-11-21"])
    }

    @Test("each open item with a due date is one event: all day, or an hour at its time; with --alarm, a reminder before it")
    func eventsParse() throws {
        guard PythonICalendar.isAvailable else { return }
        let notes = try NotesFixture(Self.lists)
        let result = try export(notes, ["--alarm", "1h"])
        #expect(result.status == 0, "\(result.stderr)")
        let events =
            try Self.python(
                #"""
                import sys, json, icalendar
                cal = icalendar.Calendar.from_ical(sys.stdin.buffer.read())
                out = []
                for e in cal.walk("VEVENT"):
                    start = e.decoded("DTSTART")
                    end = e.decoded("DTEND") if "DTEND" in e else start + e.decoded("DURATION")
                    alarms = [str(a.decoded("TRIGGER")) for a in e.walk("VALARM")]
                    out.append({"summary": str(e["SUMMARY"]), "start": start.isoformat(), "end": end.isoformat(),
                                "allDay": type(start).__name__ == "date", "alarms": alarms, "sequence": e.decoded("SEQUENCE"),
                                "rrule": e["RRULE"].to_ical().decode() if "RRULE" in e else None})
                print(json.dumps(out))
                """#, result.stdout) as! [[String: Any]]
        let bySummary = Dictionary(uniqueKeysWithValues: events.map { ($0["summary"] as! String, $0) })
        #expect(Set(bySummary.keys) == ["pay rent", "standup", "dentist", "water plants", "council tax", "bins"])
        #expect(bySummary["dentist"]?["start"] as? String == "2026-11-25" && bySummary["dentist"]?["end"] as? String == "2026-11-26")
        #expect(bySummary["dentist"]?["allDay"] as? Bool == true)
        #expect(
            bySummary["standup"]?["start"] as? String == "2026-11-23T09:30:00" && bySummary["standup"]?["end"] as? String == "2026-11-23T10:30:00")
        #expect(bySummary["standup"]?["allDay"] as? Bool == false)
        #expect(events.allSatisfy { ($0["alarms"] as? [String]) == ["-1 day, 23:00:00"] }, "\(events.map { $0["alarms"]! })")
        #expect(events.allSatisfy { $0["sequence"] as? Int == 0 })
        // A rule that counts from completion has no fixed dates: no RRULE.
        #expect(bySummary["water plants"]?["rrule"] is NSNull)
    }

    @Test("recurring-ical-events expands each RRULE to the dates tick's own rule gives")
    func recurrencesAgreeWithTick() throws {
        guard Self.recurrenceAvailable else { return }
        let notes = try NotesFixture(Self.lists)
        let calendar = try export(notes).stdout
        let expanded =
            try Self.python(
                #"""
                import sys, json, datetime, icalendar, recurring_ical_events
                cal = icalendar.Calendar.from_ical(sys.stdin.buffer.read())
                out = {}
                for e in recurring_ical_events.of(cal).between(datetime.date(2026, 11, 1), datetime.date(2027, 6, 1)):
                    start = e.decoded("DTSTART")
                    day = start.date() if hasattr(start, "date") else start
                    out.setdefault(str(e["SUMMARY"]), []).append(day.isoformat())
                print(json.dumps({k: sorted(v)[:6] for k, v in out.items()}))
                """#, calendar) as! [String: [String]]
        let cases: [(String, String, String)] = [
            ("pay rent", "every:month", "2026-12-01"), ("standup", "every weekday", "2026-11-23"),
            ("council tax", "every month on the 2nd wednesday", "2026-12-02"),
            ("bins", "every week on Thursday", "2026-11-26"),
        ]
        for (summary, text, first) in cases {
            let rule = try #require(RecurrenceRule(text.replacingOccurrences(of: "every:", with: "")), "\(text)")
            var dates = [try #require(TaskDate(iso: first))]
            while dates.count < 6, let next = rule.next(after: dates.last!) { dates.append(next) }
            #expect(expanded[summary] == dates.map(\.isoString), "\(summary): icalendar \(expanded[summary] ?? []) tick \(dates.map(\.isoString))")
        }
    }

    @Test("--output writes only when something changed; an event that changed gets the next SEQUENCE, the others keep theirs and their UIDs")
    func sequencesAndUIDs() throws {
        let notes = try NotesFixture(Self.lists)
        let file = notes.root.appendingPathComponent("feed.ics").path // a hidden-from-lists file: not .md
        func events() throws -> [String: (uid: String, sequence: Int)] {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            var result: [String: (uid: String, sequence: Int)] = [:]
            for block in text.components(separatedBy: "BEGIN:VEVENT").dropFirst() {
                let lines = block.components(separatedBy: "\r\n")
                let value = { (key: String) in lines.first { $0.hasPrefix(key + ":") }.map { String($0.dropFirst(key.count + 1)) } ?? "" }
                result[value("SUMMARY")] = (value("UID"), Int(value("SEQUENCE")) ?? -1)
            }
            return result
        }
        #expect(try export(notes, ["--output", file]).status == 0)
        let first = try events()
        #expect(first.count == 6 && first.values.allSatisfy { $0.sequence == 0 })
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let again = try export(notes, ["--output", file])
        let unchanged = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(again.stderr.contains("up to date; not written") && unchanged == bytes)
        // A new due date for one item, and a new item above all the others.
        _ = try TickProcess.run(["edit", "dentist", "--due", "2026-11-27", "--dir", notes.root.path])
        try notes.write("a.md", Array(("- [ ] new on top due:2026-11-22\n" + (try notes.text("a.md"))).utf8))
        #expect(try export(notes, ["--output", file]).status == 0)
        let second = try events()
        #expect(second["dentist"]?.sequence == 1 && second["dentist"]?.uid == first["dentist"]?.uid)
        #expect(second["new on top"]?.sequence == 0)
        for (summary, event) in first where summary != "dentist" {
            #expect(second[summary]?.uid == event.uid && second[summary]?.sequence == 0, "\(summary)")
        }
        _ = try TickProcess.run(["edit", "dentist", "--due", "2026-11-28", "--dir", notes.root.path])
        _ = try export(notes, ["--output", file])
        #expect(try events()["dentist"]?.sequence == 2)
    }

    @Test("an unchanged event whose lines are folded (a title past 75 octets) keeps its SEQUENCE when the calendar is written again")
    func foldedEventKeepsItsSequence() throws {
        let long = String(repeating: "a title that goes on and on ", count: 4)
        let notes = try NotesFixture(["a.md": "- [ ] \(long)due:2026-11-25\n- [ ] short one due:2026-11-26\n"])
        let file = notes.root.appendingPathComponent("feed.ics").path
        /// Each event's SEQUENCE, by its SUMMARY, the lines unfolded.
        func sequences() throws -> [String: Int] {
            let text = try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: "\r\n ", with: "")
            var result: [String: Int] = [:]
            for block in text.components(separatedBy: "BEGIN:VEVENT").dropFirst() {
                let lines = block.components(separatedBy: "\r\n")
                let value = { (key: String) in lines.first { $0.hasPrefix(key + ":") }.map { String($0.dropFirst(key.count + 1)) } ?? "" }
                result[value("SUMMARY")] = Int(value("SEQUENCE")) ?? -1
            }
            return result
        }
        #expect(try export(notes, ["--output", file]).status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\r\n "), "the long title's line is folded")
        _ = try TickProcess.run(["edit", "short one", "--due", "2026-11-27", "--dir", notes.root.path])
        #expect(try export(notes, ["--output", file]).status == 0)
        let title = long.trimmingCharacters(in: .whitespaces)
        #expect(try sequences() == [title: 0, "short one": 1])
    }

    @Test(
        "--events needs --format ics, and --alarm a duration",
        arguments: [
            ["export", "--format", "json", "--events"], ["export", "--format", "ics", "--alarm", "1h"],
            ["export", "--format", "ics", "--events", "--alarm", "soon"], ["export", "--format", "ics", "--events", "--alarm", "0m"],
        ])
    func badOptions(arguments: [String]) throws {
        let notes = try NotesFixture(Self.lists)
        let result = try TickProcess.run(arguments + ["--dir", notes.root.path])
        #expect(result.status == 64 && result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
    }
}
