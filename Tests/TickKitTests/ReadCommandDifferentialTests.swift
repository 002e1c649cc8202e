import Foundation
import Testing

@testable import TickModel

/// Every read command prints the same bytes whether tick parsed the files
/// (an empty cache), read them from a warm cache, or read a cache one file
/// of which changed since (issue 15's differential check; the parse cache
/// must never change an answer).
@Suite struct ReadCommandDifferentialTests {
    static let commands: [[String]] = [
        [], ["--json"], ["lists"], ["lists", "--json"], ["show", "groceries"], ["show", "work", "--json", "--notes"],
        ["today"], ["scheduled"], ["all"], ["overdue"], ["completed"], ["today", "--json"],
        ["query", "open"], ["query", "open", "--json"], ["query", "open and due <= +7d", "--sort", "due,priority", "--json"],
        ["query", "open", "--group-by", "list"], ["query", "open", "--group-by", "due", "--json"],
        ["query", "open and not blocked", "--sort", "urgency", "--json"], ["query", "blocked or blocking", "--json"],
        ["agenda"], ["agenda", "--json"], ["export", "--format", "json"], ["export", "--format", "csv"],
        ["export", "--format", "ics"], ["check", "--dependencies"],
    ]

    /// A copy of examples/ with a dependency between two lists.
    func notes() throws -> NotesFixture {
        var files: [String: [UInt8]] = [:]
        let root = TestPaths.examples.path
        for path in try FileManager.default.subpathsOfDirectory(atPath: root) where path.hasSuffix(".md") {
            files[path] = Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + path)))
        }
        files["deps.md"] = Array("# Deps\n\n- [ ] Draft the plan 🆔 plan1\n- [ ] Review the plan ⛔ plan1 ⏫ 📅 2026-11-22\n".utf8)
        return try NotesFixture(files)
    }

    func run(_ notes: NotesFixture, _ arguments: [String], cache: String) throws -> String {
        let result = try TickProcess.run(
            arguments + ["--dir", notes.root.path, "--today", "2026-11-21"],
            environment: ["XDG_CACHE_HOME": cache])
        return "exit \(result.status)\n\(result.stdout)\n--- stderr\n\(result.stderr)"
    }

    @Test("each read command prints the same bytes cold, warm, and right after a file changed", arguments: commands)
    func coldWarmAndAfterAnEditAgree(_ arguments: [String]) throws {
        let notes = try notes()
        let cache = ScratchFolders.make("tick-differential-\(UUID().uuidString)").path
        let cold = try run(notes, arguments, cache: cache)
        let warm = try run(notes, arguments, cache: cache)
        #expect(warm == cold, "\(arguments): warm differs from cold")
        #expect(cold.hasPrefix("exit 0") || (arguments.first == "check" && cold.hasPrefix("exit 1")), "\(cold)")

        // An editor saves one list: a new item due today, one item's box ticked.
        let path = "groceries.md"
        var text = try notes.text(path)
        text = text.replacingOccurrences(of: "- [ ] ", with: "- [x] ", options: [], range: text.range(of: "- [ ] "))
        text += "- [ ] Differential check item due:2026-11-21 #errand\n"
        try notes.write(path, Array(text.utf8))
        let afterEdit = try run(notes, arguments, cache: cache)
        let fresh = try run(notes, arguments, cache: ScratchFolders.make("tick-differential-\(UUID().uuidString)").path)
        #expect(afterEdit == fresh, "\(arguments): the run after an edit differs from a cold one")
        if ["today", "all", "export"].contains(arguments.first ?? "") || arguments.contains("open") {
            #expect(afterEdit.contains("Differential check item"), "\(arguments): the edit is not seen")
        }
    }
}
