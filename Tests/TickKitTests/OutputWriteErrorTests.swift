import Foundation
import Testing

/// A failed write to standard output (a full disk) is exit 73 with one line
/// on standard error, never a quiet success (issue 13.8). A closed pipe
/// still ends quietly: ParseCacheTests pins that.
@Suite("Output write errors")
struct OutputWriteErrorTests {
    /// A list big enough that every format writes more than stdio buffers.
    let notes: NotesFixture

    init() throws {
        let lines = (1...3000).map { "- [ ] item \($0) with some text due:2026-12-01 #tag" }
        notes = try NotesFixture(["big.md": "# Big\n\n" + lines.joined(separator: "\n") + "\n", "small.md": "- [ ] one\n"])
    }

    /// Runs tick with standard output on `/dev/full`.
    func runToFullDevice(_ arguments: [String]) throws -> TickProcess.Result {
        try TickProcess.run(arguments + ["--dir", notes.root.path, "--today", "2026-11-21"], shellPrefix: "exec >/dev/full")
    }

    func expectWriteFailure(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try runToFullDevice(arguments)
        #expect(result.status == 73, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr == "tick: cannot write the output to standard output: No space left on device\n",
            sourceLocation: sourceLocation)
    }

    @Test("text output to a full device is exit 73 with one line on standard error")
    func textOutput() throws {
        try expectWriteFailure(["all"])
        try expectWriteFailure(["show", "big"])
        // Small output, held by stdio until the process ends, fails too.
        try expectWriteFailure(["lists"])
        try expectWriteFailure(["show", "small"])
    }

    @Test("JSON output to a full device is exit 73")
    func jsonOutput() throws {
        try expectWriteFailure(["all", "--json"])
        try expectWriteFailure(["lists", "--json"])
        try expectWriteFailure(["export", "--format", "json"])
    }

    @Test("CSV and iCalendar exports to a full device are exit 73")
    func exportOutput() throws {
        try expectWriteFailure(["export", "--format", "csv"])
        try expectWriteFailure(["export", "--format", "ics"])
        try expectWriteFailure(["export", "--format", "csv", "\"item 1\""])
    }

    @Test("a command with nothing to print still succeeds with standard output on a full device")
    func nothingPrinted() throws {
        let result = try TickProcess.run(
            ["check", notes.url("small.md").path, "--dir", notes.root.path],
            shellPrefix: "exec >/dev/full")
        #expect(result.status == 0, "\(result.stderr)")
    }
}
