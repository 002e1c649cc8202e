import Foundation
import Testing
@testable import TickKit

/// Hostile files on the read path (issue 13): inputs built to make a parser
/// or matcher take exponential or quadratic time or memory, run through the
/// built binary under a time limit and, where memory is the threat, a
/// memory limit.
@Suite struct ReadHardeningTests {
    /// Runs tick on `notes` under `timeout 60` and, when given, `ulimit -v`
    /// (KiB): a run that would not finish is killed and shows as exit 124.
    /// Under a sanitizer (`make sanitize` sets TICK_SANITIZER) the address
    /// space limit is left out: the sanitizer's shadow memory alone is
    /// terabytes of address space; the time limit still holds.
    static func bounded(_ notes: NotesFixture, _ arguments: [String], memoryKiB: Int? = nil) throws -> TickProcess.Result {
        let underSanitizer = ProcessInfo.processInfo.environment["TICK_SANITIZER"] != nil
        let limit = underSanitizer ? "" : memoryKiB.map { "ulimit -v \($0); " } ?? ""
        return try TickProcess.run(arguments + ["--dir", notes.root.path, "--today", "2026-11-21"],
                                   wrapper: ["/bin/sh", "-c", limit + "exec timeout 60 \"$@\"", "sh"])
    }

    /// 16 levels of `x: &x [*w, *w, ...]`: 9^16 values once expanded, in under a kilobyte.
    static let aliasBomb: String = {
        var lines = ["---", "a: &a [x, x, x, x, x, x, x, x, x]"]
        var previous = "a"
        for level in 0..<16 {
            let name = "b\(level)"
            lines.append("\(name): &\(name) [" + Array(repeating: "*" + previous, count: 9).joined(separator: ", ") + "]")
            previous = name
        }
        return (lines + ["---", "# Bomb", "", "- [ ] inside the bomb", "- [ ] also inside", ""]).joined(separator: "\n")
    }()

    @Test("a YAML alias bomb in front matter is a warning; reads and edits still work, in bounded memory")
    func aliasBombIsAWarning() throws {
        let notes = try NotesFixture(["bomb.md": Self.aliasBomb, "other.md": "- [ ] other item\n"])
        let memory = 2_000_000   // 2 GB of address space: the bomb wanted 24 GB
        for command in HostileFolderTests.readCommands {
            let result = try Self.bounded(notes, command, memoryKiB: memory)
            #expect(result.status == 0, "tick \(command): exit \(result.status): \(result.stderr.prefix(300))")
        }
        let all = try Self.bounded(notes, ["all"], memoryKiB: memory)
        #expect(all.stdout.contains("other item") && all.stdout.contains("inside the bomb"))
        let check = try Self.bounded(notes, ["check"], memoryKiB: memory)
        #expect(check.stdout.contains("YAML aliases expand to more than 10000 values"), "\(check.stdout) \(check.stderr)")
        #expect(check.status == 1)
        let doneOther = try Self.bounded(notes, ["done", "other.md:1"], memoryKiB: memory)
        #expect(doneOther.status == 0, "\(doneOther.stderr.prefix(300))")
        #expect(try notes.text("other.md").hasPrefix("- [x] other item"))
        let doneInside = try Self.bounded(notes, ["done", "inside the bomb"], memoryKiB: memory)
        #expect(doneInside.status == 0, "\(doneInside.stderr.prefix(300))")
        #expect(try notes.text("bomb.md").contains("- [x] inside the bomb"))
        #expect(try notes.text("bomb.md").hasPrefix(Self.aliasBomb.components(separatedBy: "# Bomb")[0]))
    }

    @Test("aliases within the budget still read as YAML does")
    func modestAliasesStillRead() {
        let parsed = FrontMatterParser.parse("base: &b [1, 2]\ncopy: *b\n")
        guard case .success(let values) = parsed else {
            Issue.record("\(parsed)")
            return
        }
        #expect(values.map(\.key) == ["base", "copy"])
        #expect(values[1].value == .array([.int(1), .int(2)]))
        #expect(AliasBudget.lineExceedingBudget("a: &a [" + Array(repeating: "x", count: 100).joined(separator: ",") + "]\n"
            + (0..<99).map { "k\($0): *a" }.joined(separator: "\n")) == nil)
        #expect(AliasBudget.lineExceedingBudget("a: &a [" + Array(repeating: "x", count: 100).joined(separator: ",") + "]\n"
            + (0..<101).map { "k\($0): *a" }.joined(separator: "\n")) == 101)
    }
}
