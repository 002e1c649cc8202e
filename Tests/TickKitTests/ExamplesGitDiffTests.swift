import Foundation
import Testing

/// The promise of SPEC §5, seen the way a user sees it: on a copy of
/// examples/ under git, each command's `git diff` touches only the lines the
/// command is about.
@Suite("git diff after commands on examples/")
struct ExamplesGitDiffTests {
    /// A fresh git repository holding a copy of examples/.
    func repository() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.removeItem(at: folder.url)
        try FileManager.default.copyItem(at: TestPaths.examples, to: folder.url)
        for arguments in [["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start"]] {
            try git(arguments, in: folder)
        }
        return folder
    }

    @discardableResult
    func git(_ arguments: [String], in folder: TemporaryFolder) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder.path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The changed lines of `git diff -U0`, as "-text" and "+text".
    func changes(_ folder: TemporaryFolder) throws -> [String] {
        try git(["diff", "-U0", "--no-color"], in: folder).split(separator: "\n").map(String.init)
            .filter { ($0.hasPrefix("-") || $0.hasPrefix("+")) && !$0.hasPrefix("---") && !$0.hasPrefix("+++") }
    }

    func tick(_ arguments: [String], _ folder: TemporaryFolder) throws -> TickRun {
        try TickRunner.run(arguments + ["--dir", folder.path, "--today", "2026-11-21"])
    }

    @Test("done changes one line: the box and a done date")
    func doneTouchesOneLine() throws {
        let folder = try repository()
        #expect(try tick(["done", "work.md:13"], folder).status == 0)
        #expect(
            try changes(folder) == [
                "-- [ ] Review Ana's pull request for the sync engine !high due:2026-11-21 #work/review",
                "+- [x] Review Ana's pull request for the sync engine !high due:2026-11-21 #work/review done:2026-11-21",
            ])
    }

    @Test("edit changes one line: the due date's value")
    func editTouchesOneLine() throws {
        let folder = try repository()
        #expect(try tick(["edit", "work.md:14", "--due", "2026-11-25"], folder).status == 0)
        #expect(
            try changes(folder) == [
                "-- [ ] Prepare slides for the Monday demo due:2026-11-22 #work/review",
                "+- [ ] Prepare slides for the Monday demo due:2026-11-25 #work/review",
            ])
    }

    @Test("mv removes the block and adds it, re-indented, where add would put it")
    func moveTouchesOnlyTheBlock() throws {
        let folder = try repository()
        #expect(try tick(["mv", "work.md:10", "work", "--section", "Someday"], folder).status == 0)
        let lines = try changes(folder)
        #expect(
            lines.filter { $0.hasPrefix("-") } == [
                "-  - [ ] Draft the roadmap section due:2026-11-20",
                "-    - [ ] Ask Priya about the hiring plan",
                "-    - [ ] Add the database migration timeline",
            ])
        #expect(
            lines.filter { $0.hasPrefix("+") } == [
                "+- [ ] Draft the roadmap section due:2026-11-20",
                "+  - [ ] Ask Priya about the hiring plan",
                "+  - [ ] Add the database migration timeline",
            ])
    }

    @Test("sort --write moves whole item lines inside one list and nothing else")
    func sortMovesOnlyItemLines() throws {
        let folder = try repository()
        #expect(try tick(["sort", "work", "--by", "due", "--write"], folder).status == 0)
        let lines = try changes(folder)
        #expect(!lines.isEmpty)
        let removed = lines.filter { $0.hasPrefix("-") }.map { $0.dropFirst() }.sorted()
        let added = lines.filter { $0.hasPrefix("+") }.map { $0.dropFirst() }.sorted()
        #expect(removed == added, "the same lines, in another order")
        let original = try String(contentsOf: TestPaths.examples.appendingPathComponent("work.md"), encoding: .utf8)
        let sorted = try String(contentsOf: folder.url.appendingPathComponent("work.md"), encoding: .utf8)
        #expect(
            original.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("[") }
                == sorted.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("[") },
            "lines outside the lists stay where they are")
    }

    @Test("archive moves done and cancelled items to a Done section and changes nothing else")
    func archiveTouchesOnlyFinishedItems() throws {
        let folder = try repository()
        #expect(try tick(["archive", "work"], folder).status == 0)
        let lines = try changes(folder)
        let removed = lines.filter { $0.hasPrefix("-") }
        #expect(
            removed == [
                "-- [x] Book a room for the team offsite done:2026-11-16",
                "-- [-] Vendor call about the old CRM cancelled:2026-11-15",
                "-  They moved the contract talks to January.",
            ])
        let added = lines.filter { $0.hasPrefix("+") }
        #expect(added.contains("+## Done"))
        #expect(added.contains("+- [x] Book a room for the team offsite done:2026-11-16"))
        #expect(added.contains("+- [-] Vendor call about the old CRM cancelled:2026-11-15"))
    }
}
