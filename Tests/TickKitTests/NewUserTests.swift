import Foundation
import Testing
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
}
