import Foundation
import Testing

@testable import TickStore

/// The first slice of the command line: `tick show LIST --json` and `tick check`.
@Suite("show and check commands")
struct FoundationCLITests {
    @Test("show --json prints the SPEC's item fields in file order")
    func showJSON() throws {
        let folder = try TemporaryFolder([
            "groceries.md":
                "---\ntitle: Groceries\ncolor: green\nicon: cart\n---\n\n# Groceries\n\n## Dairy\n- [ ] Buy **milk** !high due:2026-11-24 #errand\n  Semi-skimmed, two bottles.\n  - [ ] Check the fridge first\n- [x] Eggs done:2026-11-20\n"
        ])
        let result = try TickRunner.run(["show", "groceries", "--json", "--dir", folder.url.path, "--today", "2026-11-21"])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["today"] as? String == "2026-11-21")
        let items = try #require(json["items"] as? [[String: Any]])
        #expect(items.map { $0["line"] as? Int } == [10, 12, 13])
        let first = items[0]
        let expectedKeys =
            [
                "path", "line", "list", "section", "status", "title", "text", "priority", "due", "scheduled",
                "start", "created", "done", "cancelled", "every", "tags", "color", "icon", "id", "fields",
                "parent", "depth", "notes", "listColor", "listIcon", "dependsOn", "blocked", "urgency",
            ] + JSONShapeTests.addedKeys
        #expect(Set(first.keys) == Set(expectedKeys))
        // Keys come in the SPEC's order.
        let keyOrder = expectedKeys.compactMap { key in result.stdout.range(of: "\"\(key)\":")?.lowerBound }
        #expect(keyOrder == keyOrder.sorted())
        #expect(first["title"] as? String == "Buy milk")
        #expect(first["notes"] as? String == "Semi-skimmed, two bottles.")
        #expect(items[1]["parent"] as? String == "groceries.md:10")
        #expect(items[2]["done"] as? String == "2026-11-20")
    }

    @Test("options may follow the subcommand, and TICK_DIR and TICK_TODAY work")
    func environmentAndOptionOrder() throws {
        let folder = try TemporaryFolder(["a.md": "- [ ] one\n"])
        let result = try TickRunner.run(["show", "a", "--json"], environment: ["TICK_DIR": folder.url.path, "TICK_TODAY": "2030-01-02"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"today\": \"2030-01-02\""))
    }

    @Test("shared options may also come before the subcommand")
    func optionsBeforeTheSubcommand() throws {
        let folder = try TemporaryFolder(["a.md": "- [ ] one due:2026-11-21\n"])
        let before = try TickRunner.run(["--dir", folder.url.path, "--today=2026-11-21", "--json", "today"])
        let after = try TickRunner.run(["today", "--dir", folder.url.path, "--today=2026-11-21", "--json"])
        #expect(before.status == 0)
        #expect(before.stdout == after.stdout)
        #expect(before.stdout.contains("\"one\""))
        let home = try TickRunner.run(["--dir", folder.url.path, "--today", "2026-11-21"])
        #expect(home.status == 0)
        #expect(home.stdout.contains("Today"))
    }

    @Test("check prints path:line:col: warning: message and exits 1")
    func checkReportsProblems() throws {
        let folder = try TemporaryFolder([
            "bad.md": "# Bad\n\n- [ ] pay due:2026-02-30\n- [ ] call !hgih\n",
            "good.md": "- [ ] fine due:2026-02-28\n",
        ])
        let result = try TickRunner.run(["check", "--dir", folder.url.path])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("bad.md:3:15: warning: invalid date"))
        #expect(lines[1].hasPrefix("bad.md:4:12: warning: unknown priority"))
    }

    @Test("check on a clean folder prints nothing and exits 0")
    func checkCleanFolder() throws {
        let folder = try TemporaryFolder(["good.md": "- [ ] fine\n"])
        let result = try TickRunner.run(["check", "--dir", folder.url.path])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.isEmpty)
    }

    @Test("the examples folder checks clean")
    func examplesCheckClean() throws {
        let result = try TickRunner.run(["check", "--dir", TestPaths.examples.path])
        #expect(result.stdout.isEmpty)
        #expect(result.status == 0)
    }

    @Test("a broken file warns and the rest of the folder still parses")
    func brokenFileDoesNotStopTheFolder() throws {
        let folder = try TemporaryFolder(["good.md": "- [ ] fine\n"])
        try folder.writeBytes("binary.md", Data([0x2D, 0x20, 0x5B, 0x20, 0x5D, 0x20, 0xFF, 0x00, 0xFE, 0x0A]))
        let check = try TickRunner.run(["check", "--dir", folder.url.path])
        #expect(check.status == 1)
        #expect(check.stdout.contains("binary.md:1:7: warning: file is not valid UTF-8"))
        let notesFolder = try NotesFolder(path: folder.url.path)
        let loaded = notesFolder.loadAll()
        #expect(loaded.documents.map(\.path) == ["good.md"])
        #expect(loaded.warnings.contains { $0.contains("binary.md") && $0.contains("UTF-8") })
    }

    @Test("exit codes: missing folder 66, unknown list 65, bad --today 64, unknown flag 64")
    func exitCodes() throws {
        let folder = try TemporaryFolder(["a.md": "- [ ] one\n", "x/b.md": "- [ ] two\n", "y/b.md": "- [ ] three\n"])
        let missing = try TickRunner.run(["show", "a", "--dir", folder.url.path + "/nope"])
        #expect(missing.status == 66)
        #expect(missing.stderr.split(separator: "\n").count == 1)
        let unknown = try TickRunner.run(["show", "zzz", "--dir", folder.url.path])
        #expect(unknown.status == 65)
        #expect(unknown.stderr.contains("a.md"))
        let ambiguous = try TickRunner.run(["show", "b", "--dir", folder.url.path])
        #expect(ambiguous.status == 65)
        #expect(ambiguous.stderr.contains("x/b.md") && ambiguous.stderr.contains("y/b.md"))
        let badToday = try TickRunner.run(["show", "a.md", "--dir", folder.url.path, "--today", "2026-02-30"])
        #expect(badToday.status == 64)
        let badFlag = try TickRunner.run(["show", "a.md", "--frobnicate"])
        #expect(badFlag.status == 64)
        let missingFile = try TickRunner.run(["check", folder.url.path + "/missing.md"])
        #expect(missingFile.status == 66)
    }
}

extension TemporaryFolder {
    func writeBytes(_ path: String, _ data: Data) throws {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }
}
