import Foundation
import Testing

@testable import TickEdit
@testable import TickModel
@testable import TickSyntax

/// Obsidian Tasks' dependencies and on-completion actions (issue 18), with
/// cases from its "Task Dependencies" and "On Completion" pages.
@Suite struct DependencyTests {
    func item(_ line: String) -> TaskItem { DocumentParser.parse(line, path: "t.md").items[0] }

    @Test("dependencies and on-completion actions are read in every dialect, and a bad value is a diagnostic, not a token")
    func readingInEveryDialect() {
        #expect(item("- [ ] do this after first ⛔ abcdef").metadata.dependsOn == ["abcdef"])
        #expect(item("- [ ] x ⛔ dcf64c,0h17ye").metadata.dependsOn == ["dcf64c", "0h17ye"])
        #expect(item("- [ ] x ⛔ dcf64c, 0h17ye #tag").metadata.dependsOn == ["dcf64c", "0h17ye"])
        #expect(item("- [ ] x ⛔ dcf64c, 0h17ye #tag").metadata.tags == ["tag"])
        #expect(item("- [ ] x [dependsOn:: abcdef]").metadata.dependsOn == ["abcdef"])
        #expect(item("- [ ] x (dependsOn:: a1,b2)").metadata.dependsOn == ["a1", "b2"])
        #expect(item("- [ ] x after:a1,b2").metadata.dependsOn == ["a1", "b2"])
        #expect(item("- [ ] x ⛔ a1 ⛔ b2,a1").metadata.dependsOn == ["a1", "b2"])
        #expect(item("- [ ] x 🏁 delete").metadata.onCompletion == "delete")
        #expect(item("- [ ] x 🏁 Keep").metadata.onCompletion == "keep")
        #expect(item("- [ ] x [onCompletion:: delete]").metadata.onCompletion == "delete")
        #expect(item("- [ ] x oncompletion:delete").metadata.onCompletion == "delete")
        // The title is what is left.
        #expect(item("- [ ] do this after first ⛔ abcdef 🏁 delete").title == "do this after first")

        for bad in ["- [ ] x ⛔ a*b", "- [ ] x [dependsOn:: A*bcd0f]", "- [ ] x after:a,,b", "- [ ] x 🏁 archive", "- [ ] x [onCompletion:: later]"] {
            let document = DocumentParser.parse(bad, path: "t.md")
            #expect(document.items[0].metadata.dependsOn.isEmpty && document.items[0].metadata.onCompletion == nil, "\(bad)")
            #expect(document.diagnostics.count == 1, "\(bad): \(document.diagnostics)")
        }
    }

    @Test("tokens written for dependencies read back in each dialect")
    func writingReadsBack() {
        for dialect in [MetadataDialect.tick, .emoji, .dataview] {
            let token = TokenFormat.text(.dependsOn, "a1,b2", dialect: dialect)
            #expect(item("- [ ] x " + token).metadata.dependsOn == ["a1", "b2"], "\(token)")
            let action = TokenFormat.text(.onCompletion, "delete", dialect: dialect)
            #expect(item("- [ ] x " + action).metadata.onCompletion == "delete", "\(action)")
        }
    }

    /// The Obsidian docs' demonstration: blocking needs both ends unfinished.
    static let demonstration = """
        - [ ] this is blocking 🆔 abcdef
        - [ ] this is blocked ⛔ abcdef
        - [ ] not blocking 🆔 ghijkl
        - [x] not blocked ⛔ ghijkl
        - [x] done first 🆔 mnopqr
        - [ ] blocking too 🆔 stuvwx
        - [/] waits for both ⛔ mnopqr,stuvwx
        - [ ] free ⛔ mnopqr
        - [-] cancelled waiting ⛔ abcdef

        """

    @Test("blocked and blocking follow Obsidian Tasks: direct dependencies, unfinished on both ends, ids across files")
    func blockedAndBlocking() throws {
        let notes = try NotesFixture(["a.md": Self.demonstration, "b.md": "- [ ] elsewhere ⛔ abcdef\n"])
        let blocked = try notes.tick("query", "blocked", "--json")
        let blocking = try notes.tick("query", "blocking", "--json")
        let free = try notes.tick("query", "open and not blocked", "--json")
        func titles(_ result: TickProcess.Result) throws -> [String] {
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
            return (object["items"] as! [[String: Any]]).map { $0["title"] as! String }
        }
        #expect(try titles(blocked) == ["this is blocked", "waits for both", "elsewhere"])
        #expect(try titles(blocking) == ["this is blocking", "blocking too"])
        #expect(try titles(free) == ["this is blocking", "not blocking", "blocking too", "free"])
        // Warm cache and the documents path say the same.
        #expect(try titles(try notes.tick("query", "blocked", "--json")) == titles(blocked))
        #expect(try titles(try notes.tick("query", "blocked", "--json", "--sort", "title")) == ["elsewhere", "this is blocked", "waits for both"])
    }

    @Test("items in JSON carry dependsOn ([] when none) and blocked, from the cache and from the files alike")
    func jsonFields() throws {
        let notes = try NotesFixture(["a.md": Self.demonstration])
        for arguments in [
            ["query", "open", "--json"], ["query", "open", "--json"], ["show", "a", "--json"], ["all", "--json"],
            ["export", "--format", "json"], ["query", "open", "--json", "--sort", "title"],
        ] {
            let run = try TickProcess.run(arguments + ["--dir", notes.root.path, "--today", "2026-11-21"])
            let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
            let items = object["items"] as! [[String: Any]]
            let byTitle = Dictionary(uniqueKeysWithValues: items.map { ($0["title"] as! String, $0) })
            #expect(byTitle["this is blocked"]?["blocked"] as? Bool == true, "\(arguments)")
            #expect(byTitle["this is blocked"]?["dependsOn"] as? [String] == ["abcdef"], "\(arguments)")
            #expect(byTitle["this is blocking"]?["blocked"] as? Bool == false, "\(arguments)")
            #expect(byTitle["this is blocking"]?["dependsOn"] as? [String] == [], "\(arguments)")
            #expect(byTitle["waits for both"]?["dependsOn"] as? [String] == ["mnopqr", "stuvwx"], "\(arguments)")
        }
        let human = try notes.tick("show", "a")
        #expect(human.stdout.contains("this is blocked (blocked)") && !human.stdout.contains("this is blocking (blocked)"))
    }

    @Test("tick check reports duplicate ids, unknown ids and cycles at their tokens, across files")
    func checkReportsDependencyProblems() throws {
        let notes = try NotesFixture([
            "a.md": "- [ ] one 🆔 dup\n- [ ] two ⛔ nope\n- [ ] cyc1 🆔 c1 ⛔ c2\n",
            "b.md": "- [ ] three [id:: dup]\n- [ ] cyc2 [id:: c2] [dependsOn:: c1]\n- [ ] fine after:dup\n",
        ])
        // Obsidian reads these without complaint: only asked for.
        #expect(try notes.tick("check").status == 0)
        let check = try notes.tick("check", "--dependencies")
        #expect(check.status == 1)
        let lines = check.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("a.md:1:11: warning: duplicate id 'dup': b.md:1") })
        #expect(lines.contains { $0.hasPrefix("b.md:1:13: warning: duplicate id 'dup': a.md:1") })
        #expect(lines.contains { $0.hasPrefix("a.md:2:11: warning: depends on 'nope', an id no item has") })
        #expect(lines.filter { $0.contains("dependency cycle") }.count == 1)
        #expect(lines.contains { $0.contains("dependency cycle c1 → c2 → c1") || $0.contains("dependency cycle c2 → c1 → c2") })
        #expect(lines.count == 4, "\(lines)")
        let clean = try NotesFixture(["a.md": Self.demonstration])
        #expect(try clean.tick("check", "--dependencies").status == 0)
    }

    @Test("tick edit --after adds a dependency in the item's dialect, in place when it has one; --no-after removes them")
    func editAfter() throws {
        let notes = try NotesFixture([
            "emoji.md": "- [ ] first 🆔 a1 📅 2026-11-30\n- [ ] second 📅 2026-12-01\n- [ ] third ⛔ a1\n",
            "dv.md": "- [ ] one [due:: 2026-11-30]\n",
            "tick.md": "- [ ] one due:2026-11-30 ^t1\n",
        ])
        #expect(try notes.tick("edit", "second", "--after", "a1").status == 0)
        #expect(try notes.tick("edit", "third", "--after", "^b2").status == 0)
        #expect(try notes.tick("edit", "dv.md:1", "--after", "a1").status == 0)
        #expect(try notes.tick("edit", "tick.md:1", "--after", "a1").status == 0)
        #expect(try notes.text("emoji.md") == "- [ ] first 🆔 a1 📅 2026-11-30\n- [ ] second 📅 2026-12-01 ⛔ a1\n- [ ] third ⛔ a1,b2\n")
        #expect(try notes.text("dv.md") == "- [ ] one [due:: 2026-11-30] [dependsOn:: a1]\n")
        #expect(try notes.text("tick.md") == "- [ ] one due:2026-11-30 after:a1 ^t1\n")
        #expect(try notes.tick("edit", "third", "--no-after").status == 0)
        #expect(try notes.text("emoji.md").hasSuffix("- [ ] third\n"))
        let bad = try notes.tick("edit", "second", "--after", "a b")
        #expect(bad.status == 64 && bad.stderr.contains("is not a block id"))
    }

    @Test("done on a 🏁 delete item removes it and keeps its next occurrence, as Obsidian Tasks' On Completion page shows")
    func onCompletionDelete() throws {
        let notes = try NotesFixture([
            "My Project.md": """
            # My Project Tasks
            - [ ] Leave me alone
            - [ ] Leave me alone too! 🏁 keep
            - [ ] Delete me upon completion 🏁 delete
            - [ ] Delete my completed instance, leave my next instance 📅 2021-05-20 🔁 every day when done 🏁 delete
            - [ ] Do not break my nested tasks 🏁 delete
                - [ ] I am a nested task

            """
        ])
        for title in ["Leave me alone", "Leave me alone too", "Delete me upon", "Delete my completed"] {
            let run = try TickProcess.run(["done", title, "--no-date", "--dir", notes.root.path, "--today", "2021-05-20"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let nested = try TickProcess.run(["done", "Do not break", "--no-date", "--dir", notes.root.path, "--today", "2021-05-20"])
        #expect(nested.status == 0 && nested.stderr.contains("has subtasks or notes: it is marked done and kept"))
        #expect(
            try notes.text("My Project.md") == """
                # My Project Tasks
                - [x] Leave me alone
                - [x] Leave me alone too! 🏁 keep
                - [ ] Delete my completed instance, leave my next instance 📅 2021-05-21 🔁 every day when done 🏁 delete
                - [x] Do not break my nested tasks 🏁 delete
                    - [ ] I am a nested task

                """)
    }
}
