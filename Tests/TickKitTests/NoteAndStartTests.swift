import Foundation
import Testing

@testable import TickSyntax

/// `tick start` and `tick note` (SPEC §5): the box becomes `[/]`; a note
/// line goes under the item, styled like its neighbours, and nothing else
/// changes.
@Suite struct NoteAndStartTests {
    func run(_ notes: NotesFixture, _ arguments: [String]) throws -> TickProcess.Result {
        try TickProcess.run(arguments + ["--dir", notes.root.path, "--today", "2026-11-21"])
    }

    @Test("start makes the box [/] and removes a done or cancelled date; starting again changes nothing")
    func startMarksInProgress() throws {
        let notes = try NotesFixture(["a.md": "- [ ] open one\n- [x] done one done:2026-11-20\n- [-] dropped ✅ 2026-11-01 ❌ 2026-11-02\n"])
        let result = try run(notes, ["start", "a.md:1", "a.md:2", "dropped"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try notes.text("a.md") == "- [/] open one\n- [/] done one\n- [/] dropped\n")
        let again = try run(notes, ["start", "open one"])
        #expect(again.status == 0 && again.stderr.contains("already in progress"))
        #expect(try notes.text("a.md") == "- [/] open one\n- [/] done one\n- [/] dropped\n")
        let json = try run(notes, ["all", "--json"])
        #expect(json.stdout.contains("\"status\": \"in-progress\""), "\(json.stdout)")
    }

    @Test(
        "a note goes after the item's notes and before its subtasks, with their indentation",
        arguments: [
            // (file, item, note, expected)
            ("- [ ] a\n  first note\n  - [ ] sub\n- [ ] b\n", "a.md:1", "second", "- [ ] a\n  first note\n  second\n  - [ ] sub\n- [ ] b\n"),
            ("- [ ] a\n  - [ ] sub\n", "a.md:1", "a note", "- [ ] a\n  a note\n  - [ ] sub\n"),
            ("1. [ ] first\n2. [ ] second\n", "a.md:1", "x", "1. [ ] first\n   x\n2. [ ] second\n"),
            ("> - [ ] quoted\n> - [ ] other\n", "a.md:1", "hello", "> - [ ] quoted\n>   hello\n> - [ ] other\n"),
            ("- [ ] a\r\n- [ ] b\r\n", "a.md:2", "crlf", "- [ ] a\r\n- [ ] b\r\n  crlf\r\n"),
            ("- [ ] last", "a.md:1", "no final newline", "- [ ] last\n  no final newline"),
            ("- [ ] a\n\t\tdeep note\n", "a.md:1", "same tabs", "- [ ] a\n\t\tdeep note\n\t\tsame tabs\n"),
            ("  * [ ] nested bullet\n", "a.md:1", "n", "  * [ ] nested bullet\n    n\n"),
        ])
    func notePlacement(file: String, item: String, note: String, expected: String) throws {
        let notes = try NotesFixture(["a.md": file])
        let result = try run(notes, ["note", item, note])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try notes.text("a.md") == expected)
        let document = DocumentParser.parse(Array(expected.utf8), path: "a.md")
        let target = document.items.first { "a.md:\($0.line)" == item }
        #expect(target?.notes?.split(separator: "\n").contains { $0.drop { $0 == "\t" } == Substring(note) } == true)
    }

    @Test(
        "a note that would not stay a note, or holds a line break, is refused and nothing is written",
        arguments: [
            ["a.md:1", "--", "- [ ] sneaky task"], ["a.md:1", "two\nlines"], ["a.md:1"], ["a.md:1", "  "],
        ])
    func badNotesAreRefused(arguments: [String]) throws {
        let notes = try NotesFixture(["a.md": "- [ ] a\n- [ ] b\n"])
        // The options first: after `--` every word is TEXT.
        let result = try TickProcess.run(["note", "--dir", notes.root.path] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try notes.text("a.md") == "- [ ] a\n- [ ] b\n")
    }

    @Test("note --dry-run prints the diff and writes nothing")
    func noteDryRun() throws {
        let notes = try NotesFixture(["a.md": "- [ ] a\n"])
        let result = try run(notes, ["note", "a", "later", "--dry-run"])
        #expect(result.status == 0 && result.stdout.contains("+  later"), "\(result.stdout)")
        #expect(try notes.text("a.md") == "- [ ] a\n")
    }
}
