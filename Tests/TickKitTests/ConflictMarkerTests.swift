import Foundation
import Testing

@testable import TickModel
@testable import TickSyntax

/// Git conflict markers (SPEC §5.7): a conflicted list is never rewritten,
/// `check` reports each marker, read commands warn about the file.
@Suite struct ConflictMarkerTests {
    static let conflicted = """
        # Work

        - [ ] call the bank
        <<<<<<< HEAD
        - [x] pay rent due:2026-11-20 done:2026-11-22
        =======
        - [ ] pay rent due:2026-11-25
        >>>>>>> laptop
        - [ ] write report

        """

    @Test("complete regions are found, with their diff3 base marker, in LF and CRLF files", arguments: ["\n", "\r\n"])
    func regionsAreFound(ending: String) {
        let diff3 = [
            "- [ ] a", "<<<<<<< ours", "- [ ] b", "||||||| base", "- [ ] c", "=======", "- [ ] d", ">>>>>>> theirs", "- [ ] e",
            "<<<<<<<", "x", "=======", ">>>>>>>", "",
        ].joined(separator: ending)
        #expect(ConflictMarkers.lines(in: SourceText(Array(diff3.utf8))) == [2, 4, 6, 8, 10, 12, 13])
        #expect(parse(Self.conflicted.replacingOccurrences(of: "\n", with: ending)).conflictLines == [4, 6, 8])
    }

    @Test(
        "a setext underline, a half region, markers with other text or inside a fenced code block are no conflict",
        arguments: [
            "Title\n=======\n- [ ] a\n",
            "<<<<<<< HEAD\n- [ ] a\n=======\n- [ ] b\n", // never closed
            "- [ ] a\n=======\n>>>>>>> x\n", // never opened
            "<<<<<<<< eight\n- [ ] a\n=======\n>>>>>>> x\n", // eight, not seven
            "<<<<<<<HEAD\n- [ ] a\n=======\n>>>>>>> x\n", // a label needs a space
            "- [ ] a\n\n```\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> b\n```\n",
            "- [ ] a\n\n~~~~ text\n<<<<<<< HEAD\n=======\n>>>>>>> b\n~~~~\n",
        ])
    func notConflicts(text: String) {
        #expect(parse(text).conflictLines.isEmpty, "\(text.debugDescription)")
    }

    @Test("a marker on the first line after a byte-order mark counts (tick merge writes the mark first)")
    func markerAfterAByteOrderMark() {
        let text = "\u{FEFF}<<<<<<< ours\n- [ ] A due:2026-11-21\n=======\n- [ ] A due:2026-11-22\n>>>>>>> theirs\n- [ ] B\n"
        #expect(ConflictMarkers.lines(in: SourceText(Array(text.utf8))) == [1, 3, 5])
    }

    @Test("a region after a closed code block still counts")
    func regionAfterFence() {
        let text = "```\ncode\n```\n<<<<<<< HEAD\n- [ ] a\n=======\n- [ ] b\n>>>>>>> x\n"
        #expect(parse(text).conflictLines == [4, 6, 8])
    }

    @Test("check reports each marker as path:line:col and exits 1")
    func checkReportsEachMarker() throws {
        let notes = try NotesFixture(["work.md": Self.conflicted, "ok.md": "- [ ] fine\n"])
        let check = try TickProcess.run(["check", "--dir", notes.root.path])
        #expect(check.status == 1)
        for line in [4, 6, 8] {
            #expect(check.stdout.contains("work.md:\(line):1: warning: git conflict marker"), "\(check.stdout)")
        }
        #expect(!check.stdout.contains("ok.md"))
    }

    @Test("every read command warns about the conflicted file, cold and warm, and still shows its items")
    func readCommandsWarn() throws {
        let notes = try NotesFixture(["work.md": Self.conflicted, "ok.md": "- [ ] fine\n"])
        for _ in 0..<2 { // the second run takes the lists from the parse cache
            let json = try HostileFolderTests.readEverything(
                notes, expectWarning: "work.md has an unresolved git merge conflict (markers from line 4)")
            #expect(json.contains("call the bank") && json.contains("fine"))
        }
    }

    @Test(
        "every command that would change a conflicted file refuses it with 65 and writes nothing",
        arguments: [
            ["done", "call the bank"], ["done", "work.md:3"], ["reopen", "work.md:5"], ["cancel", "write report"],
            ["edit", "work.md:9", "--due", "2026-12-01"], ["add", "work", "new item"], ["rm", "work.md:9"],
            ["mv", "work.md:3", "ok"], ["mv", "ok.md:1", "work"], ["sort", "work", "--by", "title", "--write"],
            ["archive", "work"], ["done", "call the bank", "--dry-run"],
        ])
    func editsRefuse(arguments: [String]) throws {
        let notes = try NotesFixture(["work.md": Self.conflicted, "ok.md": "- [ ] fine\n"])
        try HostileFolderTests.expectRefusal(notes, arguments, code: 65)
        let result = try TickProcess.run(arguments + ["--dir", notes.root.path, "--today", "2026-11-21"])
        #expect(
            result.stderr.contains("work.md has an unresolved git merge conflict (markers from line 4); resolve the conflict first"),
            "\(result.stderr)")
    }

    @Test("an edit of another list goes on, and the conflicted list can be edited once resolved")
    func otherListsAndResolution() throws {
        let notes = try NotesFixture(["work.md": Self.conflicted, "ok.md": "- [ ] fine\n"])
        let other = try TickProcess.run(["done", "fine", "--dir", notes.root.path, "--today", "2026-11-21"])
        #expect(other.status == 0, "\(other.stderr)")
        try notes.write("work.md", Array("# Work\n\n- [ ] call the bank\n- [ ] pay rent due:2026-11-25\n".utf8))
        let done = try TickProcess.run(["done", "call the bank", "--dir", notes.root.path, "--today", "2026-11-21"])
        #expect(done.status == 0, "\(done.stderr)")
    }
}
