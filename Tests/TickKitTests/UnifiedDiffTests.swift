import Foundation
import Testing

@testable import TickEdit
@testable import TickSyntax

/// `--dry-run` diffs: what `diff -u` prints, and what `patch` applies.
@Suite struct UnifiedDiffTests {
    static func run(_ program: String, _ arguments: [String]) throws -> (Int32, [UInt8]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, Array(data))
    }

    /// The hunks of a diff: everything after the two header lines.
    static func hunks(_ diff: [UInt8]) -> [UInt8] {
        var newlines = 0
        for (index, byte) in diff.enumerated() where byte == 0x0A {
            newlines += 1
            if newlines == 2 { return Array(diff[(index + 1)...]) }
        }
        return []
    }

    @Test(arguments: EditFixtureTests.cases.map(\.0))
    func fixtureDiffsMatchDiffUAndApplyWithPatch(_ name: String) throws {
        let before = try EditFixtureTests.fixture(name + ".before")
        let after = try EditFixtureTests.fixture(name + ".after")
        let notes = try NotesFixture(["old.md": before, "new.md": after])
        let ours = UnifiedDiff.make(path: "old.md", old: before, new: after)
        #expect(ours.starts(with: Array("--- old.md\n+++ old.md\n@@ ".utf8)))
        let (status, theirs) = try Self.run("/usr/bin/diff", ["-u", notes.url("old.md").path, notes.url("new.md").path])
        #expect(status == 1)
        #expect(String(decoding: Self.hunks(ours), as: UTF8.self) == String(decoding: Self.hunks(theirs), as: UTF8.self))
        // patch turns the old file into the new one with our diff.
        try Data(ours).write(to: notes.url("change.diff"))
        let (patched, _) = try Self.run("/usr/bin/patch", ["-s", "--no-backup-if-mismatch", notes.url("old.md").path, notes.url("change.diff").path])
        #expect(patched == 0)
        #expect(try notes.bytes("old.md") == after)
    }

    @Test func identicalInputsGiveNoDiff() {
        let bytes = Array("- [ ] a\n".utf8)
        #expect(UnifiedDiff.make(path: "a.md", old: bytes, new: bytes).isEmpty)
    }

    @Test func aNewFileIsDiffedFromDevNull() {
        let diff = String(decoding: UnifiedDiff.make(path: "new.md", old: nil, new: Array("# New\n".utf8)), as: UTF8.self)
        #expect(diff == "--- /dev/null\n+++ new.md\n@@ -0,0 +1 @@\n+# New\n")
    }

    @Test func farApartChangesMakeSeparateHunks() {
        let old = (1...20).map { "line \($0)\n" }.joined()
        let new = old.replacingOccurrences(of: "line 2\n", with: "line two\n").replacingOccurrences(of: "line 19\n", with: "line nineteen\n")
        let diff = String(decoding: UnifiedDiff.make(path: "a.md", old: Array(old.utf8), new: Array(new.utf8)), as: UTF8.self)
        #expect(diff.components(separatedBy: "@@ -").count == 3)
        #expect(diff.contains("@@ -1,5 +1,5 @@\n line 1\n-line 2\n+line two\n line 3\n"))
        #expect(diff.contains("@@ -16,5 +16,5 @@\n line 16\n line 17\n line 18\n-line 19\n+line nineteen\n line 20\n"))
    }

    @Test func randomEditsPatchBack() async throws {
        var checked = 0
        for seed in 0..<60 {
            var random = EditPropertyTests.SplitMix(seed: UInt64(seed))
            let numbers = (0..<(1 + random.next(20))).map { _ in random.next(Int(Int32.max)) }
            let document = DocumentParser.parse(EditPropertyTests.Plan(numbers).bytes, path: "list.md")
            let splices = SortList.splices(document, by: [.title], today: Fixture.today)
            let edited = (try? Splice.apply(splices, to: document.source.bytes)) ?? document.source.bytes
            let diff = UnifiedDiff.make(path: "list.md", old: document.source.bytes, new: edited)
            if edited == document.source.bytes {
                #expect(diff.isEmpty)
                continue
            }
            let notes = try NotesFixture(["list.md": document.source.bytes, "change.diff": diff])
            let (status, _) = try Self.run(
                "/usr/bin/patch", ["-s", "--no-backup-if-mismatch", notes.url("list.md").path, notes.url("change.diff").path])
            #expect(status == 0)
            #expect(try notes.bytes("list.md") == edited, "seed \(seed)")
            checked += 1
        }
        #expect(checked > 5)
    }
}
