import Foundation
import Testing

/// `tick sort LIST --by KEY` without `--write` previews exactly what
/// `--write` writes (issue 14.3): sections stay sections, subtasks stay
/// under their parents.
@Suite struct SortPreviewTests {
    static let work = """
        # Work

        ## Alpha
        - [ ] c task due:2026-11-25
          - [ ] c.2 sub due:2026-11-22
          - [ ] c.1 sub due:2026-11-21
        - [ ] a task due:2026-11-23

        ## Beta
        - [ ] b task due:2026-11-20 !high
        - [ ] d task due:2026-11-19
          - [ ] d.1 sub due:2026-11-30

        """

    static func tick(_ notes: NotesFixture, _ arguments: [String]) throws -> TickProcess.Result {
        try TickProcess.run(arguments + ["--dir", notes.root.path, "--today", "2026-11-21"])
    }

    @Test(
        "the sort preview is tick show of the list as --write leaves it, and writes nothing",
        arguments: [
            ["due"], ["title"], ["due", "--reverse"], ["priority"],
        ])
    func previewIsWhatWriteWrites(key: [String]) throws {
        let notes = try NotesFixture(["work.md": Self.work])
        let preview = try Self.tick(notes, ["sort", "work", "--by"] + key)
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(try notes.text("work.md") == Self.work, "the preview wrote the file")
        #expect(preview.stderr.contains("nothing was written"))
        #expect(try Self.tick(notes, ["sort", "work", "--by"] + key + ["--write"]).status == 0)
        let shown = try notes.tick("show", "work")
        #expect(preview.stdout == shown.stdout)
        // The order of titles in the preview is the order in the written file.
        let written = try notes.text("work.md").split(separator: "\n").compactMap { line in
            line.range(of: "- [ ] ").map { String(line[$0.upperBound...].prefix(while: { $0 != " " })) + " " }
        }
        let previewed = preview.stdout.split(separator: "\n").compactMap { line in
            line.range(of: "☐ ").map { String(line[$0.upperBound...].drop(while: { $0 == " " || $0 == "!" }).prefix(while: { $0 != " " })) + " " }
        }
        #expect(previewed == written)
    }

    @Test("by due, the preview keeps each section's items under its heading and subtasks under their parents")
    func previewKeepsSectionsAndSubtasks() throws {
        let notes = try NotesFixture(["work.md": Self.work])
        let preview = try notes.tick("sort", "work", "--by", "due")
        let lines = preview.stdout.split(separator: "\n").map(String.init)
        let shown = lines.compactMap { line -> String? in
            if line == "Alpha" || line == "Beta" || line == "• Work" { return line }
            guard let match = line.range(of: "[a-d](\\.[0-9])? (task|sub)", options: .regularExpression) else { return nil }
            return (line.hasPrefix("  ☐") ? "  " : "") + line[match]
        }
        #expect(
            shown == ["• Work", "Alpha", "a task", "c task", "  c.1 sub", "  c.2 sub", "Beta", "d task", "  d.1 sub", "b task"],
            "\(preview.stdout)")
    }
}
