import Foundation
import Testing
import TickStore

@testable import tick

/// The `tick` binary on the `groups` fixture with today pinned: what it
/// prints, where, and its exit codes.
@Suite struct CommandLineTests {
    let folder = Fixture.path("groups")
    var pinned: [String] { ["--dir", folder, "--today", "2026-11-21"] }

    func tick(_ arguments: [String], environment: [String: String] = [:]) throws -> TickRun {
        try TickRunner.run(arguments + pinned, environment: environment)
    }

    @Test("the options read before parsing, to open the parse cache early, are the last given, in either form, before --")
    func optionsReadBeforeParsing() {
        #expect(Tick.optionGiven("--dir", in: ["today", "--dir", "a", "--list", "x", "--dir=b"]) == "b")
        #expect(Tick.optionGiven("--dir", in: ["--dir=a", "--dir", "b"]) == "b")
        #expect(Tick.optionGiven("--dir", in: ["open", "--", "--dir", "a"]) == nil)
        #expect(Tick.optionGiven("--dir", in: ["open", "--dir"]) == nil)
        #expect(Tick.optionGiven("--dir", in: ["open", "--directory", "a"]) == nil)
    }

    @Test(
        "today, unpinned, is the local date of the time zone TZ names, as Foundation's calendar reckons it there",
        arguments: ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kolkata", "UTC"])
    func todayIsTheLocalDate(zone: String) throws {
        func foundationToday() -> String {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: zone)!
            let parts = calendar.dateComponents([.year, .month, .day], from: Date())
            return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        }
        let before = foundationToday()
        let run = try TickRunner.run(["query", "due < today", "--explain", "--dir", folder], environment: ["TZ": zone])
        let after = foundationToday()
        #expect(run.status == 0, "\(run.stderr)")
        // The query, resolved, names today's date (either side of a midnight that passed meanwhile).
        #expect(run.stdout.contains("due < \(before)") || run.stdout.contains("due < \(after)"), "\(run.stdout)")
    }

    @Test("commands say whether they read the parse cache: every command that reads lists does, undo and the servers do not")
    func commandsDeclareTheirParseCacheUse() {
        for command in [
            Tick.Query.self, Tick.Today.self, Tick.All.self, Tick.Export.self, Tick.Agenda.self, Tick.Check.self, Tick.Home.self, Tick.Lists.self,
            Tick.Show.self, Tick.Done.self, Tick.Add.self, Tick.Move.self,
        ] as [any TickCommand.Type] {
            #expect(command.parseCacheUse == .reads, "\(command)")
        }
        for command in [Tick.Undo.self, Tick.Lsp.self, Tick.Merge.self] as [any TickCommand.Type] {
            #expect(command.parseCacheUse == .none, "\(command)")
        }
        #expect(Tick.rootOfItsOwn(["today", "--dir", "x"])?.command == Tick.Today.self)
        #expect(Tick.rootOfItsOwn(["today", "--help"]) == nil)
    }

    @Test("--due with --no-due, and --section with --under, are refused: one line, exit 64, nothing changed")
    func conflictingFlagsAreRefused() throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/alpha.md"))
        let due = try tick(["edit", "a6", "--due", "friday", "--no-due"])
        #expect(due.status == 64)
        #expect(due.stderr == "tick: use --due or --no-due, not both\n")
        let placement = try tick(["add", "alpha", "x", "--section", "A", "--under", "a6"])
        #expect(placement.status == 64)
        #expect(placement.stderr == "tick: use --section or --under, not both\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/alpha.md")) == before)
    }

    // MARK: Screens

    @Test func plainTickShowsTheHomeScreen() throws {
        let run = try TickRunner.run(pinned)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(
            run.stdout == """
                Today       5    Scheduled   9
                All        11    Overdue     3

                🍃 Zeta   1
                🛒 Alpha  6
                •  Beta   4

                """)
        #expect(try tick(["home"]).stdout == run.stdout)
    }

    @Test func listsShowsIconNameCountsAndPath() throws {
        #expect(
            try tick(["lists"]).stdout == """
                🍃 Zeta   1 open  0 done  zeta.md
                🛒 Alpha  6 open  1 done  alpha.md
                •  Beta   4 open  2 done  projects/beta.md

                """)
    }

    @Test func showPrintsSectionsAndIndentsSubtasks() throws {
        let run = try tick(["show", "beta"])
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                • Beta

                First
                ☐    b1  11 days overdue  #Work
                ☐ ↓↓ b2  today

                Second
                ☑    b3
                ☑ !  b4  done today
                ☐    b5  tomorrow         #home #errand
                ☐    B6  in 24 days

                """)
        let alpha = try tick(["show", "Alpha"]).stdout
        #expect(alpha.contains("\n  ☐     a6.1  Mon\n"))
        #expect(!alpha.contains("bananas"))
        #expect(try tick(["show", "alpha.md", "--notes"]).stdout.contains("\n      The notes of a6 mention **bananas**.\n"))
    }

    @Test func todayListsOverdueFirstWithRelativeDates() throws {
        #expect(
            try tick(["today"]).stdout == """
                ☐ !!  a2  2 days overdue   #work/finance  Alpha
                ◐ !!! a4  1 day overdue                   Alpha
                ☐     b1  11 days overdue  #Work          Beta
                ☐     a1  today            #home          Alpha
                ☐ ↓↓  b2  today                           Beta

                """)
    }

    @Test func completedShowsWhenItemsWereDone() throws {
        #expect(
            try tick(["completed"]).stdout == """
                ☑ ! b4  done today      Beta
                ☑   a3  done yesterday  Alpha
                ☑   b3                  Beta

                """)
    }

    @Test("a finished item's date column is when it was done or cancelled, never its due date, in every listing")
    func finishedItemsShowTheirDoneOrCancelledDate() throws {
        let notes = try NotesFixture([
            "chores.md": """
            - [x] Take out the trash due:2024-02-01 done:2026-11-19
            - [-] Paint the fence due:2024-03-01 cancelled:2026-11-20
            - [x] Water plants due:2024-04-01
            - [ ] Sweep due:2026-11-22

            """
        ])
        #expect(
            try notes.tick("query", "status = done or status = cancelled or open", "--sort", "manual").stdout == """
                ☑ Take out the trash  done 2 days ago      chores
                ☒ Paint the fence     cancelled yesterday  chores
                ☑ Water plants                             chores
                ☐ Sweep               tomorrow             chores

                """)
        #expect(
            try notes.tick("show", "chores").stdout == """
                • chores
                ☑ Take out the trash  done 2 days ago
                ☒ Paint the fence     cancelled yesterday
                ☑ Water plants
                ☐ Sweep               tomorrow

                """)
        #expect(try notes.tick("query", "done >= -7d").stdout == "☑ Take out the trash  done 2 days ago  chores\n")
    }

    @Test func scheduledIsGroupedByDay() throws {
        let lines = try tick(["scheduled"]).stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.filter {
                $0.hasPrefix("Tue") || $0.hasPrefix("Thu") || $0.hasPrefix("Fri") || $0.hasPrefix("Sat")
                    || $0.hasPrefix("Sun") || $0.hasPrefix("Mon") || $0.hasPrefix("Wed")
            } == [
                "Tue 2026-11-10 · 11 days overdue  1", "Thu 2026-11-19 · 2 days overdue  1", "Fri 2026-11-20 · 1 day overdue  1",
                "Sat 2026-11-21 · today  2", "Sun 2026-11-22 · tomorrow  1", "Mon 2026-11-23  1", "Wed 2026-11-25  1",
                "Tue 2026-12-15 · in 24 days  1",
            ])
    }

    @Test func smartGroupCommandsPrintTheirMembersInOrder() throws {
        func itemTitles(_ command: String, _ extra: [String] = []) throws -> [String] {
            let json = try tick([command, "--json"] + extra).stdout
            return try itemTitlesOf(json)
        }
        #expect(try itemTitles("today") == ["a2", "a4", "b1", "a1", "b2"])
        #expect(try itemTitles("overdue") == ["a2", "a4", "b1"])
        #expect(try itemTitles("all") == ["z1", "a1", "a2", "a4", "a6", "a6.1", "a7", "b1", "b2", "b5", "B6"])
        #expect(try itemTitles("completed") == ["b4", "a3", "b3"])
        #expect(try itemTitles("all", ["--list", "beta"]) == ["b1", "b2", "b5", "B6"])
        #expect(try itemTitles("all", ["#home"]) == ["z1", "a1", "b5"])
        #expect(try itemTitles("today", ["--sort", "priority"]) == ["a4", "a2", "a1", "b1", "b2"]) // --sort replaces the group's order
        #expect(try itemTitles("overdue", ["--reverse"]) == ["b1", "a4", "a2"])
        #expect(try itemTitles("all", ["--limit", "2"]) == ["z1", "a1"])
    }

    @Test func queryFiltersSortsGroupsAndLimits() throws {
        let grouped = try tick(["query", "open", "--group-by", "list", "--sort", "due", "--limit", "6", "--json"])
        #expect(grouped.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(grouped.stdout.utf8)) as! [String: Any]
        let groups = object["groups"] as! [[String: Any]]
        #expect(groups.map { $0["name"] as! String } == ["Alpha", "Beta"])
        #expect(groups.map { ($0["items"] as! [[String: Any]]).map { $0["title"] as! String } } == [["a2", "a4", "a1"], ["b1", "b2", "b5"]])
        #expect(object["today"] as? String == "2026-11-21")
    }

    @Test func explainPrintsTheTreeWithResolvedDates() throws {
        let run = try tick(["query", "due <= +7d", "open", "--explain"])
        #expect(
            run.stdout.hasPrefix(
                """
                Query:
                  and
                  ├── due <= 2026-11-28 (Sat)
                  └── open (open or in-progress)

                """))
        #expect(run.stdout.contains("a6.1"))
        let json = try tick(["query", "due <= +7d", "--explain", "--json"])
        #expect(json.stderr.contains("due <= 2026-11-28 (Sat)"))
        #expect(try itemTitlesOf(json.stdout).count == 10)
    }

    @Test func noMatchesIsASuccess() throws {
        let run = try tick(["query", "\"no such thing\""])
        #expect(run.status == 0)
        #expect(run.stdout == "No items match.\n")
        #expect(try tick(["query", "\"no such thing\"", "--json"]).stdout.contains("\"items\": []"))
    }

    // MARK: Exit codes

    @Test func aQuerySyntaxErrorShowsACaretAndExits64() throws {
        let run = try tick(["query", "due <"])
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(
            run.stderr == """
                tick: bad query at column 6: expected a date after 'due <': YYYY-MM-DD, today, tomorrow, a weekday, +3d or -1w
                  due <
                       ^

                """)
        let unknown = try tick(["query", "open", "and", "colour", "=", "red"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasSuffix("  open and colour = red\n           ^\n"), "\(unknown.stderr)")
        // A plain word is a title search, not an error.
        let plain = try tick(["query", "open", "and", "frobnicate"])
        #expect(plain.status == 0 && plain.stderr.isEmpty, "\(plain.stderr)")
        #expect(try tick(["today", "due < 2026-02-30"]).status == 64)
        let deep = try tick(["query", String(repeating: "(", count: 5_000) + "open" + String(repeating: ")", count: 5_000)])
        #expect(deep.status == 64)
        #expect(deep.stderr.hasPrefix("tick: bad query at column 201: the query nests '(' and 'not' more than 200 deep"))
    }

    @Test func usageErrorsExit64OnOneLine() throws {
        for arguments in [
            ["today", "--sort", "bogus"], ["query", "open", "--group-by", "colour"], ["lists", "--bogus"],
            ["export", "--format", "pdf"], ["all", "--limit", "-1"],
        ] {
            let run = try tick(arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.hasPrefix("tick: "), "\(arguments)")
            #expect(run.stderr.filter { $0 == "\n" }.count == 1, "\(arguments): \(run.stderr)")
        }
        let badToday = try TickRunner.run(["--dir", folder, "--today", "2026-13-01"])
        #expect(badToday.status == 64)
        #expect(badToday.stderr.contains("is not a date"))
    }

    @Test func unknownOrAmbiguousNamesListCandidatesAndExit65() throws {
        let unknownList = try tick(["show", "gamma"])
        #expect(unknownList.status == 65)
        #expect(unknownList.stderr == "tick: no list named 'gamma'; lists are alpha.md, projects/beta.md, zeta.md\n")
        let unknownListOption = try tick(["all", "--list", "gamma"])
        #expect(unknownListOption.status == 65)

        let ambiguousItem = try tick(["open", "a"])
        #expect(ambiguousItem.status == 65)
        #expect(ambiguousItem.stderr.contains("alpha.md:15  a6"))
        #expect(ambiguousItem.stderr.contains("alpha.md:17  a6.1"))
        let unknownItem = try tick(["open", "nothing like this"])
        #expect(unknownItem.status == 65)
        #expect(unknownItem.stderr.hasPrefix("tick: no item matches 'nothing like this'"))
    }

    @Test func anAmbiguousListNameListsTheCandidatesAndExits65() throws {
        let notes = try TemporaryFolder(["a/todo.md": "# Same\n- [ ] one\n", "b/todo.md": "# Same\n- [ ] two\n"])
        let run = try TickRunner.run(["show", "same", "--dir", notes.path])
        #expect(run.status == 65)
        #expect(run.stderr == "tick: 'same' names more than one list; use a path: a/todo.md, b/todo.md\n")
        #expect(try TickRunner.run(["show", "b/todo", "--dir", notes.path]).stdout.contains("two"))
    }

    @Test func aFileThatIsNotUTF8IsSkippedWithAWarningOrRefusedByName() throws {
        let notes = try TemporaryFolder(["good.md": "- [ ] fine\n"])
        try Data([0x2D, 0x20, 0x5B, 0x20, 0x5D, 0x20, 0xFF, 0x0A]).write(to: notes.url.appendingPathComponent("bad.md"))
        let all = try TickRunner.run(["all", "--dir", notes.path])
        #expect(all.status == 0)
        #expect(all.stdout == "☐ fine  good\n")
        #expect(all.stderr == "tick: warning: bad.md is not valid UTF-8; skipped\n")
        let show = try TickRunner.run(["show", "bad.md", "--dir", notes.path], in: notes.url)
        #expect(show.status == 65)
        #expect(show.stderr.contains("not valid UTF-8"))
    }

    @Test func checkReportsAsJSON() throws {
        let notes = try TemporaryFolder(["x.md": "- [ ] party due:2026-02-30\n"])
        let run = try TickRunner.run(["check", "--json", "--dir", notes.path, "--today", "2026-11-21"])
        #expect(run.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        let diagnostics = object["diagnostics"] as! [[String: Any]]
        #expect(diagnostics.count == 1)
        #expect(diagnostics[0]["path"] as? String == "x.md")
        #expect(diagnostics[0]["line"] as? Int == 1)
    }

    @Test func aMissingFolderExits66() throws {
        let run = try TickRunner.run(["today", "--dir", "/nonexistent/tick-notes"])
        #expect(run.status == 66)
        #expect(run.stderr == "tick: notes folder /nonexistent/tick-notes does not exist; pass --dir or set TICK_DIR\n")
    }

    @Test func environmentSetsTheFolderAndToday() throws {
        let run = try TickRunner.run(["today", "--json"], environment: ["TICK_DIR": folder, "TICK_TODAY": "2026-11-19"])
        #expect(run.status == 0)
        #expect(try itemTitlesOf(run.stdout) == ["b1", "a2"])
    }

    // MARK: Colors

    static let readCommands: [[String]] = [
        [], ["lists"], ["show", "alpha"], ["show", "beta", "--notes"], ["today"], ["scheduled"], ["all"], ["overdue"],
        ["completed"], ["query", "open", "--explain"], ["all", "--group-by", "due"], ["all", "--group-by", "list"],
    ]

    @Test(arguments: readCommands)
    func pipedOutputHasNoEscapeCodes(_ arguments: [String]) throws {
        let run = try tick(arguments)
        #expect(run.status == 0)
        #expect(!run.stdoutBytes.contains(0x1B))
        let always = try tick(arguments + ["--color", "always"])
        #expect(always.stdoutBytes.contains(0x1B))
        #expect(try tick(arguments + ["--color", "never"]).stdoutBytes == run.stdoutBytes)
    }

    @Test func noColorIsOverriddenOnlyByAlways() throws {
        #expect(!(try tick(["today", "--color", "auto"], environment: ["NO_COLOR": "1"]).stdoutBytes.contains(0x1B)))
        #expect(try tick(["today", "--color", "always"], environment: ["NO_COLOR": "1"]).stdoutBytes.contains(0x1B))
    }

    /// `script` runs tick on a pseudo-terminal, where `--color auto` colors.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs util-linux's script for a terminal"))
    func autoColorsATerminalUnlessNOCOLORIsSet() throws {
        let command = ([TickRunner.executable.path, "overdue"] + pinned).map { "'\($0)'" }.joined(separator: " ")
        func onTerminal(_ environment: [String: String]) throws -> Data {
            var merged = ProcessInfo.processInfo.environment
            merged["NO_COLOR"] = nil
            merged["XDG_CACHE_HOME"] = TickRunner.cacheHome
            merged.merge(environment) { $1 }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qec", command, "/dev/null"]
            process.environment = merged
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            return data
        }
        let colored = try onTerminal([:])
        #expect(colored.contains(0x1B))
        #expect(String(decoding: colored, as: UTF8.self).contains("a2"))
        let plain = try onTerminal(["NO_COLOR": "1"])
        #expect(!plain.contains(0x1B))
        #expect(String(decoding: plain, as: UTF8.self).contains("a2"))
    }

    @Test func colorDepthFollowsCOLORTERM() throws {
        let truecolor = try tick(["lists", "--color", "always"], environment: ["COLORTERM": "truecolor"]).stdout
        #expect(truecolor.contains("\u{1B}[38;2;255;59;48mAlpha")) // red, 24-bit
        let ansi256 = try tick(["lists", "--color", "always"]).stdout
        #expect(ansi256.contains("\u{1B}[38;5;203mAlpha"))
        let overdue = try tick(["overdue", "--color", "always"]).stdout
        #expect(overdue.contains("\u{1B}[1;38;5;203m2 days overdue\u{1B}[0m"))
    }

    @Test func titlesKeepTheirInlineStylesAndLinks() throws {
        let notes = try TemporaryFolder(["n.md": "- [ ] Read **bold** *it* `code` ~~old~~ [site](https://example.com/x) due:2026-11-21\n"])
        let run = try TickRunner.run(["all", "--dir", notes.path, "--today", "2026-11-21", "--color", "always"])
        #expect(run.stdout.contains("\u{1B}[1mbold\u{1B}[0m"))
        #expect(run.stdout.contains("\u{1B}[3mit\u{1B}[0m"))
        #expect(run.stdout.contains("code\u{1B}[0m"))
        #expect(run.stdout.contains("\u{1B}[9mold\u{1B}[0m"))
        #expect(run.stdout.contains("\u{1B}]8;;https://example.com/x\u{1B}\\\u{1B}[4msite\u{1B}[0m\u{1B}]8;;\u{1B}\\"))
        let plain = try TickRunner.run(["all", "--dir", notes.path, "--today", "2026-11-21"])
        #expect(plain.stdout == "☐ Read bold it code old site  today  n\n")
    }

    @Test func columnsFitTheTerminalWidth() throws {
        for width in [40, 60, 100] {
            let run = try tick(["all"], environment: ["COLUMNS": String(width)])
            let widest =
                run.stdout.split(separator: "\n").map { line in
                    line.reduce(0) { $0 + (($1.unicodeScalars.first!.properties.isEmojiPresentation) ? 2 : 1) }
                }.max() ?? 0
            #expect(widest <= width, "width \(width)")
        }
        // At 30 columns the tags and list names give way; the titles stay whole.
        let narrow = try tick(["today"], environment: ["COLUMNS": "30"]).stdout
        #expect(
            narrow == """
                ☐ !!  a2  2 days overdue
                ◐ !!! a4  1 day overdue
                ☐     b1  11 days overdue
                ☐     a1  today
                ☐ ↓↓  b2  today

                """)
    }

    // MARK: Export and open

    @Test func exportWritesEachFormat() throws {
        let csv = try tick(["export", "--format", "csv", "open", "#home"])
        #expect(csv.stdout.hasPrefix("path,line,list,section,status,title"))
        #expect(csv.stdout.components(separatedBy: "\r\n").count == 5) // header, three items, end
        let ics = try tick(["export", "--format", "ics"])
        #expect(ics.stdout.hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(ics.stdout.components(separatedBy: "BEGIN:VTODO").count == 16)
        #expect(ics.stdout.contains("DTSTAMP:20261121T000000Z\r\n"))
        let json = try tick(["export", "--format", "json", "done"])
        #expect(try itemTitlesOf(json.stdout) == ["a3", "b3", "b4"])
        #expect(try tick(["export", "--format", "csv", "--group-by", "list"]).status == 64)
    }

    @Test func openStartsTheEditorAtTheItemsLine() throws {
        let scratch = try TemporaryFolder()
        let script = scratch.url.appendingPathComponent("editor.sh")
        try "#!/bin/sh\nfor a in \"$@\"; do echo \"[$a]\"; done\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let root = try NotesFolder(path: folder).root

        let byID = try tick(["open", "^bee2"], environment: ["EDITOR": script.path])
        #expect(byID.status == 0)
        #expect(byID.stdout == "[+5]\n[\(root)/projects/beta.md]\n")

        let visualWins = try tick(["open", "projects/beta.md:4"], environment: ["EDITOR": "false", "VISUAL": script.path + " --wait"])
        #expect(visualWins.stdout == "[--wait]\n[+4]\n[\(root)/projects/beta.md]\n")

        let byTitle = try tick(["open", "a6.1"], environment: ["EDITOR": script.path])
        #expect(byTitle.stdout == "[+17]\n[\(root)/alpha.md]\n")

        #expect(Tick.Open.editorArguments(editor: "code -w", path: "/n/a.md", line: 3) == ["-g", "/n/a.md:3"])
        #expect(Tick.Open.editorArguments(editor: "/usr/bin/nvim", path: "/n/a.md", line: 3) == ["+3", "/n/a.md"])
    }

    // MARK: Help

    static let subcommands = [
        "home", "lists", "show", "today", "scheduled", "all", "overdue", "completed", "query",
        "export", "open", "check",
    ]

    @Test(arguments: subcommands)
    func everySubcommandsHelpHasAnExample(_ name: String) throws {
        let run = try TickRunner.run([name, "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("Examples:"))
        #expect(run.stdout.contains("  tick \(name)"))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsAreGenerated(_ shell: String) throws {
        let run = try TickRunner.run(["--generate-completion-script", shell])
        #expect(run.status == 0)
        #expect(run.stdout.contains("today"))
        #expect(run.stdout.contains("group-by"))
    }
}

/// The titles of `{"items": [...]}` JSON.
func itemTitlesOf(_ json: String) throws -> [String] {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
    return (object["items"] as! [[String: Any]]).map { $0["title"] as! String }
}
