import Foundation
import Testing

@testable import TickEdit
@testable import TickEngine
@testable import TickModel
@testable import tick

/// What a new user trips over (issue 14): mistyped commands, addresses after
/// a change, and the smaller refusals, run through the built binary on
/// copies of examples/ with today pinned.
@Suite("new-user paths through the command line")
struct NewUserTests {
    /// A fresh copy of examples/.
    func examples() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.removeItem(at: folder.url)
        try FileManager.default.copyItem(at: TestPaths.examples, to: folder.url)
        return folder
    }

    func tick(_ arguments: [String], _ folder: TemporaryFolder) throws -> TickRun {
        try TickRunner.run(arguments + ["--dir", folder.path, "--today", "2026-11-21"])
    }

    func read(_ path: String, _ folder: TemporaryFolder) throws -> String {
        try String(contentsOf: folder.url.appendingPathComponent(path), encoding: .utf8)
    }

    // MARK: 14.4 mistyped commands

    @Test("a mistyped command names the nearest command and tick help, exit 64")
    func mistypedCommandSuggestsTheNearest() throws {
        let folder = try examples()
        let run = try tick(["todya"], folder)
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr == "tick: 'todya' is not a tick command; did you mean 'today'? (`tick help` lists the commands)\n")
        let late = try TickRunner.run(["--dir", folder.path, "sheduled"])
        #expect(late.status == 64)
        #expect(late.stderr.contains("did you mean 'scheduled'?"))
        #expect(try TickRunner.run(["--generate-completion-script", "bash"]).status == 0)
        let far = try tick(["xyzzy"], folder)
        #expect(far.status == 64)
        #expect(far.stderr == "tick: 'xyzzy' is not a tick command (`tick help` lists the commands)\n")
    }

    @Test("tick help of a command that does not exist says so, with a suggestion, exit 64")
    func helpOfAnUnknownCommandIsAUsageError() throws {
        let run = try TickRunner.run(["help", "nosuch"])
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr == "tick: 'nosuch' is not a tick command (`tick help` lists the commands)\n")
        let near = try TickRunner.run(["help", "archve"])
        #expect(near.status == 64)
        #expect(near.stderr.contains("did you mean 'archive'?"))
        let known = try TickRunner.run(["help", "done"])
        #expect(known.status == 0)
        #expect(known.stdout.contains("USAGE: tick done"))
        #expect(try TickRunner.run(["help"]).status == 0)
    }

    @Test("a command's own --help, -h and --version answer as tick help and tick --version do; options alone are the home screen's")
    func commandHelpAndVersionMatchTicks() throws {
        // The named command is parsed on its own (Tick.parseCommand), so its
        // help must still name `tick`, nested commands included.
        let version = try TickRunner.run(["--version"])
        #expect(version.status == 0)
        for command in [["query"], ["done"], ["git", "setup"], ["home"]] {
            let help = try TickRunner.run(["help"] + command)
            #expect(help.status == 0)
            #expect(help.stdout.contains("USAGE: tick " + command.joined(separator: " ")))
            for flag in ["--help", "-h"] {
                let own = try TickRunner.run(command + [flag])
                #expect(own.status == 0)
                #expect(own.stdout == help.stdout, "tick \(command.joined(separator: " ")) \(flag)")
            }
            let ownVersion = try TickRunner.run(command + ["--version"])
            #expect(ownVersion.status == 0)
            #expect(ownVersion.stdout == version.stdout)
        }
        // A line of options alone is the home screen's, parsed by it alone;
        // help and the version still answer for tick itself.
        let examples = TestPaths.examples.path
        let home = try TickRunner.run(["home", "--dir", examples, "--json"])
        #expect(home.status == 0)
        #expect(try TickRunner.run(["--dir", examples, "--json"]).stdout == home.stdout)
        let rootHelp = try TickRunner.run(["help"])
        #expect(rootHelp.stdout.contains("USAGE: tick <subcommand>"))
        for flags in [["--help"], ["-h"]] { #expect(try TickRunner.run(flags).stdout == rootHelp.stdout) }
        // After an option, help is the home screen's, as the library has always answered.
        #expect(try TickRunner.run(["--dir", examples, "-h"]).stdout == TickRunner.run(["home", "-h"]).stdout)
        #expect(try TickRunner.run(["--dir", examples, "--version"]).stdout == version.stdout)
        #expect(Tick.asksTheLibrary(["--json", "-jh"]))
        #expect(Tick.asksTheLibrary(["--dir", "x", "--help-hidden"]))
        #expect(Tick.asksTheLibrary(["---completion", "show", "--", "g"]))
        #expect(Tick.asksTheLibrary(["query", "--generate-completion-script"]))
        #expect(Tick.asksTheLibrary(["--help=x"]))
        // Lines the library answers for tick answer as they did: a
        // completion script for the shell SHELL names, or a one-line error
        // without one.
        let script = try TickRunner.run(["--generate-completion-script"], environment: ["SHELL": "/bin/bash"])
        #expect(script.status == 0)
        #expect(script.stdout.contains("complete -o filenames -F _tick tick"))
        #expect(try TickRunner.run(["query", "--generate-completion-script"], environment: ["SHELL": "/bin/bash"]).stdout == script.stdout)
        let noShell = try TickRunner.run(["query", "--generate-completion-script"])
        #expect(noShell.status == 64)
        #expect(noShell.stderr.hasPrefix("tick: Can't autodetect a supported shell."))
        #expect(try TickRunner.run(["--help=x"]).stdout == rootHelp.stdout)
        #expect(try TickRunner.run(["git", "help"]).status == 64)
        #expect(!Tick.asksTheLibrary(["--dir", "x", "--json"]))
        #expect(!Tick.asksTheLibrary(["--dir", "x", "--", "-h"]))
        let group = try TickRunner.run(["git", "--help"])
        #expect(group.stdout.contains("See 'tick help git <subcommand>' for detailed help."))
        let wrong = try TickRunner.run(["query", "open", "--bogus"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.hasPrefix("tick: Unknown option '--bogus'"))
    }

    @Test("the suggestion is the nearest name within a typo's reach")
    func suggestionReach() {
        let names = ["today", "scheduled", "all", "add", "mv", "rm", "done"]
        #expect(NearestWord.nearest(to: "todya", among: names) == "today")
        #expect(NearestWord.nearest(to: "tody", among: names) == "today")
        #expect(NearestWord.nearest(to: "schedule", among: names) == "scheduled")
        #expect(NearestWord.nearest(to: "dnoe", among: names) == "done")
        #expect(NearestWord.nearest(to: "ad", among: names) == "add")
        #expect(NearestWord.nearest(to: "xyzzy", among: names) == nil)
        #expect(NearestWord.distance(Array("ab".unicodeScalars), Array("ba".unicodeScalars)) == 1)
    }

    // MARK: 14.9 --dry-run patches for paths with a space

    /// Runs `program` in `folder` with `input` on standard input; its exit status.
    func apply(_ program: String, _ arguments: [String], input: String, in folder: TemporaryFolder) throws -> Int32 {
        try folder.write(".change.diff", input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        process.currentDirectoryURL = folder.url
        process.standardInput = try FileHandle(forReadingFrom: folder.url.appendingPathComponent(".change.diff"))
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test(
        "a --dry-run diff of a path with a space or a quote applies with patch -p0 and git apply as the edit would",
        arguments: ["my list.md", "sub folder/shop list.md", "odd \"quoted\" list.md"])
    func dryRunDiffAppliesToAPathWithASpace(_ name: String) throws {
        let groceries = try String(contentsOf: TestPaths.examples.appendingPathComponent("groceries.md"), encoding: .utf8)
        let edited = try TemporaryFolder([name: groceries])
        let real = try tick(["done", "milk"], edited)
        #expect(real.status == 0)
        let after = try read(name, edited)
        #expect(after != groceries)
        for program in [["patch", "-p0", "-s", "--no-backup-if-mismatch"], ["git", "apply", "-p0"]] {
            let folder = try TemporaryFolder([name: groceries])
            let dry = try tick(["done", "milk", "--dry-run"], folder)
            #expect(dry.status == 0)
            #expect(try read(name, folder) == groceries)
            #expect(try apply(program[0], Array(program.dropFirst()), input: dry.stdout, in: folder) == 0, "\(program[0]): \(dry.stdout)")
            #expect(try read(name, folder) == after, "\(program[0])")
        }
    }

    @Test("a new file's --dry-run diff with a space in its name applies with patch -p0")
    func newFileDiffAppliesWithASpace() throws {
        let folder = try TemporaryFolder(["a.md": "# A\n"])
        let dry = try tick(["new", "Trip to Lisbon", "--dry-run"], folder)
        #expect(dry.stdout.hasPrefix("--- /dev/null\n+++ Trip to Lisbon.md\t\n"))
        #expect(try apply("patch", ["-p0", "-s"], input: dry.stdout, in: folder) == 0)
        #expect(try read("Trip to Lisbon.md", folder).contains("# Trip to Lisbon"))
    }

    @Test("header names: plain paths as they are, a space ends with a tab, quotes and control characters C-quoted")
    func diffHeaderNames() {
        #expect(UnifiedDiff.header("groceries.md") == "groceries.md")
        #expect(UnifiedDiff.header("my list.md") == "my list.md\t")
        #expect(UnifiedDiff.header("a\"b\\c\td.md") == "\"a\\\"b\\\\c\\td.md\"")
        #expect(UnifiedDiff.header("e\u{1}.md") == "\"e\\001.md\"")
    }

    // MARK: 14.12 smaller things

    @Test("show of a list that is not UTF-8 says so by its name, exit 65")
    func showOfANonUTF8ListSaysSo() throws {
        let folder = try examples()
        try Data([0x23, 0x20, 0x42, 0x61, 0x64, 0x0A, 0x2D, 0x20, 0x5B, 0x20, 0x5D, 0x20, 0x63, 0x61, 0x66, 0xE9, 0x0A])
            .write(to: folder.url.appendingPathComponent("bad.md"))
        for name in ["bad", "bad.md"] {
            let run = try tick(["show", name], folder)
            #expect(run.status == 65, "\(name)")
            #expect(run.stdout == "")
            #expect(run.stderr.hasSuffix("tick: bad.md is not valid UTF-8; re-save it as UTF-8 to use it with tick\n"), "\(name): \(run.stderr)")
        }
        let unknown = try tick(["show", "nosuch"], folder)
        #expect(unknown.status == 65)
        #expect(unknown.stderr.contains("no list named 'nosuch'"))
    }

    @Test("mv prints the item's new address, where the item now is")
    func moveNamesTheNewAddress() throws {
        let folder = try examples()
        let across = try tick(["mv", "groceries.md:12", "work", "--section", "Next up"], folder)
        #expect(across.status == 0)
        #expect(across.stdout == "moved groceries.md:12  Buy milk to work.md:25\n")
        #expect(try read("work.md", folder).split(separator: "\n", omittingEmptySubsequences: false)[24].contains("Buy **milk**"))
        let within = try tick(["mv", "Try pairing", "work", "--section", "This week"], folder)
        #expect(within.status == 0)
        #expect(within.stdout == "moved work.md:32  Try pairing on Fridays to work.md:20\n")
        #expect(try read("work.md", folder).split(separator: "\n", omittingEmptySubsequences: false)[19] == "- [ ] Try pairing on Fridays")
    }

    @Test("new for a list that exists is bad data naming the existing file, exit 65, nothing written")
    func newForAnExistingListNamesIt() throws {
        let folder = try examples()
        let byName = try tick(["new", "Groceries"], folder)
        #expect(byName.status == 65)
        #expect(byName.stderr == "tick: a list named 'Groceries' exists already in groceries.md; pick another name\n")
        let byFile = try tick(["new", "work.md"], folder)
        #expect(byFile.status == 65)
        #expect(byFile.stderr == "tick: work.md exists already; pick another name (tick never replaces a file)\n")
        #expect(try read("groceries.md", folder) == String(contentsOf: TestPaths.examples.appendingPathComponent("groceries.md"), encoding: .utf8))
    }

    @Test("--limit below 1 says the limit must be a positive number, exit 64")
    func limitMustBePositive() throws {
        let folder = try examples()
        for value in ["-1", "0"] {
            let run = try tick(["completed", "--limit", value], folder)
            #expect(run.status == 64)
            #expect(run.stderr == "tick: --limit must be a positive number of items, not \(value)\n")
        }
        #expect(try tick(["completed", "--limit=-3"], folder).stderr.contains("must be a positive number"))
        #expect(try tick(["completed", "--limit", "1"], folder).status == 0)
    }

    @Test("archive writes ## Done in the file's own style: a blank line under it when the headings have one")
    func archiveCopiesTheBlankLineUnderHeadings() throws {
        let folder = try TemporaryFolder([
            "spaced.md": "# L\n\n## A\n\n- [ ] a\n- [x] b\n\n## B\n\n- [ ] c\n",
            "tight.md": "# L\n\n## A\n- [ ] a\n- [x] b\n\n## B\n- [ ] c\n",
        ])
        #expect(try tick(["archive", "spaced"], folder).status == 0)
        #expect(try read("spaced.md", folder) == "# L\n\n## A\n\n- [ ] a\n\n## B\n\n- [ ] c\n\n## Done\n\n- [x] b\n")
        #expect(try tick(["archive", "tight"], folder).status == 0)
        #expect(try read("tight.md", folder) == "# L\n\n## A\n- [ ] a\n\n## B\n- [ ] c\n\n## Done\n- [x] b\n")
        // A section that add creates copies the style too.
        #expect(try tick(["add", "spaced", "d", "--section", "Later"], folder).status == 0)
        #expect(try read("spaced.md", folder).hasSuffix("- [x] b\n\n## Later\n\n- [ ] d\n"))
    }

    @Test("rm says how many note lines and subtasks went with the item")
    func removeSaysWhatWentWithTheItem() throws {
        let folder = try examples()
        let milk = try tick(["rm", "groceries.md:12"], folder)
        #expect(milk.status == 0)
        #expect(milk.stdout == "removed groceries.md:12  Buy milk, with its 2 note lines and 1 subtask\n")
        let plan = try tick(["rm", "^q4plan"], folder)
        #expect(plan.stdout == "removed work.md:7  Write the Q4 planning doc, with its 1 note line and 4 subtasks\n")
        let plain = try tick(["rm", "Greek yogurt"], folder)
        #expect(plain.stdout.hasSuffix("  Greek yogurt\n"))
        let home = try tick(["rm", "dripping kitchen tap"], folder)
        #expect(home.stdout.hasSuffix("  Fix the dripping kitchen tap, with its 2 note lines\n"))
    }

    // MARK: 14.8 reopen undoes a recurring done

    @Test("done prints the new addresses: the item's, moved down a line, and its next occurrence's")
    func donePrintsTheNewAddresses() throws {
        let folder = try examples()
        let run = try tick(["done", "work.md:22", "status update", "^q4plan"], folder)
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                done work.md:23  Migrate the staging database
                done work.md:17  Post the weekly status update
                  its next occurrence was added above it as work.md:16
                done work.md:7  Write the Q4 planning doc

                """)
        let lines = try read("work.md", folder).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[15] == "- [ ] Post the weekly status update every:week due:2026-12-01")
        #expect(lines[16] == "- [x] Post the weekly status update every:week due:2026-11-24 done:2026-11-21")
        #expect(lines[6].hasPrefix("- [x] Write the Q4 planning doc"))
        #expect(lines[22] == "1. [x] Migrate the staging database !high due:2026-12-02 done:2026-11-21")
    }

    @Test("reopen by title after a recurring done picks the done item and removes the occurrence done added")
    func reopenUndoesARecurringDone() throws {
        let folder = try examples()
        let original = try read("work.md", folder)
        #expect(try tick(["done", "status update"], folder).status == 0)
        let run = try tick(["reopen", "status update"], folder)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(
            run.stdout == """
                reopened work.md:16  Post the weekly status update
                  removed its next occurrence, which done had added above it: - [ ] Post the weekly status update every:week due:2026-12-01

                """)
        #expect(try read("work.md", folder) == original)
        // Nothing done is left to reopen: the open item is left as it is.
        let again = try tick(["reopen", "status update"], folder)
        #expect(again.status == 0)
        #expect(again.stderr == "tick: note: work.md:16 is already open; left as it is\n")
        #expect(try read("work.md", folder) == original)
    }

    @Test("reopen on a later day matches the occurrence by the done date (its created date was that day)")
    func reopenOnALaterDayStillFindsTheOccurrence() throws {
        let text = "# Chores\n\n- [ ] Water the plants every:week due:2026-11-20 created:2026-11-01 #home\n  By the window.\n"
        let folder = try TemporaryFolder(["chores.md": text])
        #expect(try TickRunner.run(["done", "plants", "--dir", folder.path, "--today", "2026-11-21"]).status == 0)
        #expect(try read("chores.md", folder).contains("- [ ] Water the plants every:week due:2026-11-27 created:2026-11-21 #home\n"))
        let run = try TickRunner.run(["reopen", "chores.md:4", "--dir", folder.path, "--today", "2026-11-25"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("reopened chores.md:3  Water the plants\n  removed its next occurrence"))
        #expect(try read("chores.md", folder) == text)
    }

    @Test("reopen leaves an occurrence that was changed since, and says so")
    func reopenLeavesAChangedOccurrence() throws {
        let folder = try examples()
        #expect(try tick(["done", "status update"], folder).status == 0)
        #expect(try tick(["edit", "work.md:16", "--priority", "high"], folder).status == 0)
        let run = try tick(["reopen", "status update"], folder)
        #expect(run.status == 0)
        #expect(run.stdout == "reopened work.md:17  Post the weekly status update\n")
        #expect(
            run.stderr
                == "tick: note: work.md:16 above it is an open copy that changed since done added it; left as it is (`tick rm work.md:16` removes it)\n"
        )
        let lines = try read("work.md", folder).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[15] == "- [ ] Post the weekly status update every:week due:2026-12-01 !high")
        #expect(lines[16] == "- [ ] Post the weekly status update every:week due:2026-11-24")
    }

    @Test("a title that matches an open and a done item names the done one for reopen, the open one otherwise")
    func reopenPrefersCompletedMatches() throws {
        let document = parse("- [ ] Call Ana\n- [x] Call Ana done:2026-11-20\n- [-] Call Ana again\n")
        #expect(try ItemLookup.resolve("call ana", in: [document]).item == 0)
        #expect(try ItemLookup.resolve("call ana", in: [document], preferringCompleted: true).item == 1)
        #expect(throws: ItemLookup.Failure.self) { try ItemLookup.resolve("ana", in: [document], preferringCompleted: true) }
        #expect(try ItemLookup.resolve("ana", in: [document]).item == 0)
    }

    // MARK: 14.10 help wraps to the terminal

    /// Every help page (`tick help` and each subcommand's) at `columns`.
    func helpPages(columns: Int) throws -> [(name: String, lines: [String])] {
        try ([""] + DocumentedExamplesTests.subcommands()).map { name in
            let run = try TickRunner.run(["help"] + (name.isEmpty ? [] : [name]), environment: ["COLUMNS": "\(columns)"])
            #expect(run.status == 0)
            return (name, run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
    }

    /// Pairs of prose lines (not indented) that follow each other in one
    /// paragraph of the text above USAGE, where the first is shorter than
    /// `minimum` columns: a paragraph broken by hand, not wrapped.
    func raggedBreaks(_ lines: [String], minimum: Int) -> [String] {
        let prose = lines.prefix { !$0.hasPrefix("USAGE:") }
        var found: [String] = []
        for (line, next) in zip(prose, prose.dropFirst()) {
            let isProse = { (text: String) in !text.isEmpty && !text.hasPrefix(" ") }
            if isProse(line), isProse(next), DisplayWidth.of(line) < minimum { found.append(line) }
        }
        return found
    }

    @Test("help at 80 columns: no line is wider than 80, and paragraphs are wrapped, not broken by hand")
    func helpFitsEightyColumns() throws {
        let pages = try helpPages(columns: 80)
        #expect(pages.count > 20)
        for (name, lines) in pages {
            for line in lines where DisplayWidth.of(line) > 80 {
                Issue.record("tick help \(name): \(DisplayWidth.of(line)) columns: \(line)")
            }
            #expect(raggedBreaks(lines, minimum: 40) == [], "tick help \(name)")
        }
    }

    @Test("help at 200 columns: a paragraph is one line until it fills the width")
    func helpParagraphsReflowToTheWidth() throws {
        for (name, lines) in try helpPages(columns: 200) {
            #expect(raggedBreaks(lines, minimum: 150) == [], "tick help \(name)")
        }
    }

    @Test("the USAGE line breaks between arguments, lined up under the first")
    func usageLineWraps() {
        let usage = "USAGE: tick done [--dir <dir>] [--today <date>] [--dry-run] [--list <list>] [<items> ...] [--no-date]"
        #expect(
            Tick.wrappingUsage("x\n" + usage + "\ny", width: 80) == """
                x
                USAGE: tick done [--dir <dir>] [--today <date>] [--dry-run] [--list <list>]
                                 [<items> ...] [--no-date]
                y
                """)
        #expect(Tick.wrappingUsage(usage, width: 200) == usage)
        #expect(Tick.wrappingUsage("USAGE: tick query <expr> ... [--json]", width: 36) == "USAGE: tick query <expr> ...\n                  [--json]")
        #expect(
            Tick.wrappingUsage("USAGE: tick query [--dir <dir>] <expr> ...", width: 36)
                == "USAGE: tick query [--dir <dir>]\n                  <expr> ...")
    }
}
