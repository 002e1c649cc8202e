import Foundation
import Testing

/// Every value typed on the command line that becomes text in a file is one
/// line of printable text: line breaks and control characters are refused
/// with exit 64 and nothing is written (issue 13.15).
@Suite("Values that become file text")
struct FileTextValueTests {
    static let list = "---\ntitle: Work\n---\n\n# Work\n\n- [ ] a\n"

    /// Runs `arguments` in a fresh folder holding `work.md` and checks the
    /// refusal: exit 64, one line naming `option`, no file changed or added.
    func expectRefused(_ arguments: [String], option: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let notes = try NotesFixture(["work.md": Self.list])
        let before = notes.allFiles()
        let result = try TickProcess.run(arguments + ["--dir", notes.root.path, "--today", "2026-11-21"])
        #expect(result.status == 64, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("tick: \(option) holds "), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
        #expect(try notes.text("work.md") == Self.list, sourceLocation: sourceLocation)
        #expect(notes.allFiles() == before, sourceLocation: sourceLocation)
    }

    @Test("--section with a line break cannot write lines, front matter included, into the file")
    func sectionWithNewlines() throws {
        try expectRefused(["add", "work", "b", "--section", "x\n---\nevil: 1\n---"], option: "--section")
        try expectRefused(["add", "work", "b", "--section", "x\ry"], option: "--section")
        try expectRefused(["mv", "work.md:7", "work", "--section", "x\n- [ ] injected"], option: "--section")
    }

    @Test("TEXT and --title with a carriage return, escape, DEL or C1 control are refused")
    func titlesWithControls() throws {
        try expectRefused(["add", "work", "b\rc"], option: "TEXT")
        try expectRefused(["add", "work", "b \u{1B}]52;c;SGVsbG8=\u{07}"], option: "TEXT")
        try expectRefused(["add", "work", "b\u{7F}"], option: "TEXT")
        try expectRefused(["add", "work", "b\u{2028}c"], option: "TEXT")
        try expectRefused(["edit", "work.md:7", "--title", "b\nc"], option: "--title")
        try expectRefused(["edit", "work.md:7", "--title", "b\u{1B}[2J"], option: "--title")
    }

    @Test("--tag, --color and --icon with control characters are refused")
    func tokenValuesWithControls() throws {
        try expectRefused(["edit", "work.md:7", "--tag", "x\u{85}y"], option: "--tag")
        try expectRefused(["edit", "work.md:7", "--untag", "x\ny"], option: "--untag")
        try expectRefused(["edit", "work.md:7", "--color", "red\n"], option: "--color")
        try expectRefused(["edit", "work.md:7", "--icon", "cart\u{1B}"], option: "--icon")
        try expectRefused(["new", "Home", "--icon", "a\u{9B}b"], option: "--icon")
    }

    @Test("tick new refuses a list name with a line break or control character")
    func newListNameWithControls() throws {
        try expectRefused(["new", "Home\nevil"], option: "NAME")
        try expectRefused(["new", "Home\u{1B}[31m"], option: "NAME")
    }

    @Test("a tab in a title is text and is written")
    func tabIsAllowed() throws {
        let notes = try NotesFixture(["work.md": Self.list])
        let result = try notes.tick("add", "work", "b\tc")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try notes.text("work.md") == Self.list + "- [ ] b\tc\n")
    }
}
