import Foundation
import Testing

@testable import TickSyntax

/// `tick undo` and `tick redo` (SPEC §5.8): every change is journalled;
/// undo gives every file back byte for byte, or writes nothing (75).
@Suite struct UndoTests {
    func run(_ notes: NotesFixture, _ arguments: [String]) throws -> TickProcess.Result {
        try TickProcess.run(arguments + ["--dir", notes.root.path, "--today", "2026-11-21"])
    }

    /// Every file below the root with its bytes.
    func snapshot(_ notes: NotesFixture) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for path in notes.allFiles() {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: notes.url(path).path, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = try notes.bytes(path)
            }
        }
        return files
    }

    /// A copy of examples/.
    func examples() throws -> NotesFixture {
        var files: [String: [UInt8]] = [:]
        let root = TestPaths.examples.path
        for path in try FileManager.default.subpathsOfDirectory(atPath: root) where path.hasSuffix(".md") {
            files[path] = Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + path)))
        }
        return try NotesFixture(files)
    }

    @Test("any change command followed by undo gives every file back byte for byte; redo makes the change again")
    func undoRestoresEveryFile() throws {
        let notes = try examples()
        var random = SeededGenerator(seed: 19_1)
        var undone = 0
        for round in 0..<36 {
            // The items as they are now.
            var items: [String] = []
            var lists: [String] = []
            for path in try snapshot(notes).keys.sorted() where path.hasSuffix(".md") {
                lists.append(String(path.dropLast(3)))
                let document = DocumentParser.parse(try notes.bytes(path), path: path)
                items += document.items.map { "\(path):\($0.line)" }
            }
            let item = items.randomElement(using: &random)!
            let list = lists.randomElement(using: &random)!
            let commands: [[String]] = [
                ["done", item], ["reopen", item], ["cancel", item], ["start", item], ["rm", item],
                ["edit", item, "--due", "+\(round)d", "--priority", "high", "--tag", "t\(round)"],
                ["note", item, "note \(round)"], ["add", list, "new item \(round) due:friday"], ["mv", item, list],
                ["sort", list, "--by", "title", "--write"], ["archive", list], ["new", "List \(round)"],
            ]
            let command = commands.randomElement(using: &random)!
            let before = try snapshot(notes)
            let change = try run(notes, command)
            let after = try snapshot(notes)
            guard change.status == 0, after != before else { continue }
            let undo = try run(notes, ["undo"])
            #expect(undo.status == 0, "round \(round) \(command): undo: \(undo.stderr)")
            #expect(try snapshot(notes) == before, "round \(round): tick \(command) then undo did not give the files back")
            undone += 1
            if Bool.random(using: &random) {
                let redo = try run(notes, ["redo"])
                #expect(redo.status == 0, "round \(round) \(command): redo: \(redo.stderr)")
                #expect(try snapshot(notes) == after, "round \(round): redo of tick \(command) did not make the change again")
            }
        }
        #expect(undone >= 20, "only \(undone) changes were undone: the generator tests little")
    }

    @Test("undo walks back, redo walks forward, and a new change ends what can be redone")
    func undoAndRedoWalk() throws {
        let notes = try NotesFixture(["a.md": "- [ ] one\n- [ ] two\n", "b.md": "- [ ] three\n"])
        let start = try snapshot(notes)
        _ = try run(notes, ["done", "one"])
        let afterFirst = try snapshot(notes)
        _ = try run(notes, ["mv", "a.md:2", "b"])
        let afterSecond = try snapshot(notes)
        _ = try run(notes, ["new", "Fresh"])
        #expect(notes.allFiles().contains("Fresh.md"))
        for _ in 0..<3 { #expect(try run(notes, ["undo"]).status == 0) }
        #expect(try snapshot(notes) == start)
        let nothing = try run(notes, ["undo"])
        #expect(nothing.status == 0 && nothing.stdout.contains("nothing to undo"))
        _ = try run(notes, ["redo"])
        #expect(try snapshot(notes) == afterFirst)
        _ = try run(notes, ["redo"])
        #expect(try snapshot(notes) == afterSecond)
        _ = try run(notes, ["undo"])
        let listed = try run(notes, ["undo", "--list"]).stdout.split(separator: "\n")
        #expect(listed.first?.contains("(undone) tick new Fresh") == true, "\(listed)")
        _ = try run(notes, ["cancel", "three"]) // a new change
        let noRedo = try run(notes, ["redo"])
        #expect(noRedo.stdout.contains("nothing to redo"), "\(noRedo.stdout)")
        let lines = try run(notes, ["undo", "--list"]).stdout.split(separator: "\n")
        #expect(lines.first?.contains("tick cancel three") == true && !lines.contains { $0.contains("(undone)") }, "\(lines)")
    }

    @Test("a file that changed since the change is named, exit 75, and no file of the change is written")
    func changedFileRefusesUndo() throws {
        let notes = try NotesFixture(["a.md": "- [ ] one\n- [ ] two\n", "b.md": "- [ ] three\n"])
        _ = try run(notes, ["mv", "a.md:1", "b"])
        try notes.write("b.md", Array("- [ ] three\n- [ ] one\n- [ ] typed by hand\n".utf8))
        let before = try snapshot(notes)
        let undo = try run(notes, ["undo"])
        #expect(undo.status == 75)
        #expect(undo.stderr == "tick: b.md changed since that change; nothing was undone\n", "\(undo.stderr)")
        #expect(try snapshot(notes) == before)
    }

    @Test("--dry-run records nothing to undo")
    func dryRunIsNotJournalled() throws {
        let notes = try NotesFixture(["a.md": "- [ ] one\n"])
        _ = try run(notes, ["done", "one", "--dry-run"])
        let undo = try run(notes, ["undo"])
        #expect(undo.stdout.contains("nothing to undo"))
        #expect(try notes.text("a.md") == "- [ ] one\n")
    }
}
