import Foundation
import Testing
@testable import tick
@testable import TickKit

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

    @Test("the suggestion is the nearest name within a typo's reach")
    func suggestionReach() {
        let names = ["today", "scheduled", "all", "add", "mv", "rm", "done"]
        #expect(Suggestion.nearest(to: "todya", in: names) == "today")
        #expect(Suggestion.nearest(to: "tody", in: names) == "today")
        #expect(Suggestion.nearest(to: "schedule", in: names) == "scheduled")
        #expect(Suggestion.nearest(to: "dnoe", in: names) == "done")
        #expect(Suggestion.nearest(to: "ad", in: names) == "add")
        #expect(Suggestion.nearest(to: "xyzzy", in: names) == nil)
        #expect(Suggestion.editDistance(Array("ab"), Array("ba")) == 1)
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

    @Test("a --dry-run diff of a path with a space or a quote applies with patch -p0 and git apply as the edit would",
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
}
