import Foundation
import Testing

@testable import TickModel

/// `--where EXPR` on done, cancel, edit, mv and rm (SPEC §5): every match,
/// all files or none, a question on a terminal above a few items.
@Suite struct BulkTests {
    static let lists = [
        "a.md": "- [ ] milk #shop\n- [ ] call mum\n- [ ] bread #shop\n  - [ ] rye #shop\n",
        "b.md": "- [ ] eggs #shop due:2026-11-22\n- [x] old #shop done:2026-11-01\n",
        "c.md": "# C\n",
    ]

    func run(_ notes: NotesFixture, _ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> TickProcess.Result {
        if let input {
            let script = "printf '\(input)' | exec \"$0\" \"$@\""
            return try TickProcess.run(
                arguments + ["--dir", notes.root.path, "--today", "2026-11-21"], environment: environment,
                wrapper: ["/bin/sh", "-c", script])
        }
        return try TickProcess.run(arguments + ["--dir", notes.root.path, "--today", "2026-11-21"], environment: environment)
    }

    @Test("done --where marks every match in every file, and nothing else; one undo takes it all back")
    func doneWhere() throws {
        let notes = try NotesFixture(Self.lists)
        let result = try run(notes, ["done", "--where", "open #shop"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try notes.text("a.md")
                == "- [x] milk #shop done:2026-11-21\n- [ ] call mum\n- [x] bread #shop done:2026-11-21\n  - [x] rye #shop done:2026-11-21\n")
        #expect(try notes.text("b.md") == "- [x] eggs #shop due:2026-11-22 done:2026-11-21\n- [x] old #shop done:2026-11-01\n")
        #expect(try run(notes, ["undo"]).status == 0)
        #expect(try notes.text("a.md") == Self.lists["a.md"] && (try notes.text("b.md")) == Self.lists["b.md"])
    }

    @Test("edit --where changes every match's tokens")
    func editWhere() throws {
        let notes = try NotesFixture(Self.lists)
        let result = try run(notes, ["edit", "--where", "#shop open", "--priority", "high", "--untag", "shop"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try notes.text("a.md") == "- [ ] milk !high\n- [ ] call mum\n- [ ] bread !high\n  - [ ] rye !high\n")
        #expect(try notes.text("b.md") == "- [ ] eggs due:2026-11-22 !high\n- [x] old #shop done:2026-11-01\n")
    }

    @Test("mv --where moves every match in order; a subtask that matches goes with its parent, once")
    func moveWhere() throws {
        let notes = try NotesFixture(Self.lists)
        let result = try run(notes, ["mv", "--where", "open #shop", "c"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try notes.text("a.md") == "- [ ] call mum\n")
        #expect(try notes.text("b.md") == "- [x] old #shop done:2026-11-01\n")
        let moved = try notes.text("c.md")
        #expect(moved == "# C\n\n- [ ] milk #shop\n- [ ] bread #shop\n  - [ ] rye #shop\n- [ ] eggs #shop due:2026-11-22\n", "\(moved)")
    }

    @Test("rm --where removes every match; nested matches go with their parent")
    func removeWhere() throws {
        let notes = try NotesFixture(Self.lists)
        let result = try run(notes, ["rm", "--where", "#shop"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try notes.text("a.md") == "- [ ] call mum\n")
        #expect(try notes.text("b.md") == "")
    }

    @Test("--dry-run prints every file's diff and writes nothing")
    func dryRun() throws {
        let notes = try NotesFixture(Self.lists)
        let result = try run(notes, ["cancel", "--where", "#shop open", "--dry-run"])
        #expect(result.status == 0 && result.stdout.contains("--- a.md") && result.stdout.contains("--- b.md"), "\(result.stdout)")
        #expect(try notes.text("a.md") == Self.lists["a.md"] && (try notes.text("b.md")) == Self.lists["b.md"])
    }

    @Test("on a terminal, more than three items are asked about: no changes nothing, yes and --yes change them")
    func confirmation() throws {
        let terminal = ["TICK_TEST_ASSUME_TERMINAL": "1"]
        let notes = try NotesFixture(Self.lists)
        let no = try run(notes, ["done", "--where", "#shop open"], environment: terminal, input: "n\\n")
        #expect(no.status == 0 && no.stderr.contains("Mark done 4 items") && no.stderr.contains("nothing was changed"), "\(no.stderr)")
        #expect(try notes.text("a.md") == Self.lists["a.md"])
        let yes = try run(notes, ["done", "--where", "#shop open"], environment: terminal, input: "y\\n")
        let afterYes = try notes.text("a.md")
        #expect(yes.status == 0 && afterYes.hasPrefix("- [x] milk"))
        let skip = try run(notes, ["reopen", "milk"])
        #expect(skip.status == 0)
        let forced = try run(notes, ["cancel", "--where", "#shop", "--yes"], environment: terminal, input: "")
        #expect(forced.status == 0 && !forced.stderr.contains("[y/N]"), "\(forced.stderr)")
        // Three items or fewer: no question.
        let few = try NotesFixture(Self.lists)
        let small = try run(few, ["done", "--where", "milk or bread"], environment: terminal, input: "")
        #expect(small.status == 0 && !small.stderr.contains("[y/N]"))
    }

    @Test("all files change or none: a file that cannot be written stops every change (73)")
    func allOrNothing() throws {
        let notes = try NotesFixture(Self.lists)
        chmod(notes.url("b.md").path, 0o444)
        defer { chmod(notes.url("b.md").path, 0o644) }
        let result = try run(notes, ["done", "--where", "#shop open"])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(try notes.text("a.md") == Self.lists["a.md"] && (try notes.text("b.md")) == Self.lists["b.md"])
    }

    @Test(
        "bad combinations are usage errors; a query that matches nothing changes nothing",
        arguments: [
            (["done", "milk", "--where", "#shop"], 64), (["mv", "--where", "#shop", "a.md:1", "c"], 64), (["mv", "--where", "#shop"], 64),
            (["done", "--where", "due <"], 64), (["done", "--where", "#nothing"], 0), (["done"], 64),
        ] as [([String], Int32)])
    func badCombinations(arguments: [String], code: Int32) throws {
        let notes = try NotesFixture(Self.lists)
        let result = try run(notes, arguments)
        #expect(result.status == code, "\(arguments): \(result.stderr)")
        #expect(try notes.text("a.md") == Self.lists["a.md"])
    }
}
