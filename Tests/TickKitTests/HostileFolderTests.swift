import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Hostile input through the command line: queries carry on (a warning on
/// standard error where something is skipped) and exit 0; edits refuse with
/// SPEC §7's codes; nothing crashes and nothing is written where it should
/// not be. The parser-level cases are in HostileInputTests.
@Suite struct HostileFolderTests {
    static let readCommands: [[String]] = [
        [], ["all"], ["today"], ["lists"], ["query", "open or done"], ["all", "--json"],
        ["export", "--format", "ics"],
    ]

    /// Runs every read command; each must exit 0 and crash nowhere. Returns
    /// the `all --json` output.
    @discardableResult
    static func readEverything(_ notes: NotesFixture, expectWarning: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> String
    {
        let before = snapshot(notes)
        var json = ""
        for command in readCommands {
            let result = try TickProcess.run(command + ["--dir", notes.root.path, "--today", "2026-11-21"])
            #expect(result.status == 0, "tick \(command): exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
            if let expectWarning {
                #expect(
                    result.stderr.contains("warning:") && result.stderr.contains(expectWarning),
                    "tick \(command): stderr \(result.stderr.debugDescription)", sourceLocation: sourceLocation)
            }
            if command == ["all", "--json"] { json = result.stdout }
        }
        #expect(snapshot(notes) == before, "a read command changed the folder", sourceLocation: sourceLocation)
        return json
    }

    /// Every file below the root with its bytes (links as their targets' names).
    static func snapshot(_ notes: NotesFixture) -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for path in notes.allFiles() {
            let url = notes.url(path)
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) {
                result[path] = Array(("link:" + target).utf8)
            } else {
                result[path] = (try? Data(contentsOf: url)).map(Array.init) ?? []
            }
        }
        return result
    }

    /// Runs a change command that must refuse with `code`, leaving every file as it was.
    static func expectRefusal(
        _ notes: NotesFixture, _ arguments: [String], code: Int32, wrapper: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = snapshot(notes)
        let result = try TickProcess.run(arguments + ["--dir", notes.root.path, "--today", "2026-11-21"], wrapper: wrapper)
        #expect(result.status == code, "tick \(arguments): exit \(result.status), expected \(code): \(result.stderr)", sourceLocation: sourceLocation)
        // One line of error, perhaps after warnings about what the scan skipped.
        let lines = result.stderr.split(separator: "\n")
        #expect(
            lines.allSatisfy { $0.hasPrefix("tick: ") } && lines.filter { !$0.hasPrefix("tick: warning:") }.count == 1,
            "tick \(arguments): not one line of error: \(result.stderr.debugDescription)", sourceLocation: sourceLocation)
        #expect(snapshot(notes) == before, "tick \(arguments) changed files while refusing", sourceLocation: sourceLocation)
    }

    static let nobody = geteuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []

    @Test func emptyFileAndFrontMatterOnly() throws {
        let notes = try NotesFixture([
            "empty.md": "", "front.md": "---\ntitle: Only front matter\ncolor: red\n---\n",
            "ok.md": "- [ ] Real item\n",
        ])
        let json = try Self.readEverything(notes)
        #expect(json.contains("Real item"))
        let lists = try notes.tick("lists")
        #expect(lists.stdout.contains("Only front matter") && lists.stdout.contains("empty"))
        try Self.expectRefusal(notes, ["done", "empty.md:1"], code: 65)
        try Self.expectRefusal(notes, ["done", "front.md:2"], code: 65)
        // An edit that makes sense still works on both.
        #expect(try notes.tick("add", "front.md", "First").status == 0)
        #expect(try notes.text("front.md") == "---\ntitle: Only front matter\ncolor: red\n---\n\n- [ ] First\n")
        #expect(try notes.tick("add", "empty.md", "First").status == 0)
        #expect(try notes.text("empty.md") == "- [ ] First\n")
    }

    @Test func binaryInvalidUTF8AndNULBytes() throws {
        var binary: [UInt8] = Array("- [ ] starts like a list\n".utf8)
        var random = SeededGenerator(seed: 7)
        for _ in 0..<4096 { binary.append(UInt8.random(in: 0...255, using: &random)) }
        let latin1 = Array("- [ ] Caf".utf8) + [0xE9] + Array(" au lait\n".utf8)
        let nul = Array("- [ ] before".utf8) + [0, 0, 0] + Array(" after #tag\n- [ ] second\n".utf8)
        let notes = try NotesFixture(["binary.md": binary, "latin1.md": latin1, "nul.md": nul, "ok.md": Array("- [ ] fine\n".utf8)])
        let json = try Self.readEverything(notes, expectWarning: "not valid UTF-8")
        #expect(json.contains("fine") && json.contains("second"))
        #expect(!json.contains("Caf"))
        for file in ["binary.md", "latin1.md"] {
            try Self.expectRefusal(notes, ["done", "\(file):1"], code: 65)
            try Self.expectRefusal(notes, ["add", file, "New item"], code: 65)
            try Self.expectRefusal(notes, ["sort", file, "--by", "title", "--write"], code: 65)
        }
        // NUL bytes are valid UTF-8: the file is read and edited, its NULs kept.
        #expect(try notes.tick("done", "nul.md:2").status == 0)
        #expect(try notes.bytes("nul.md") == Array("- [ ] before".utf8) + [0, 0, 0] + Array(" after #tag\n- [x] second done:2026-11-21\n".utf8))
        let check = try notes.tick("check")
        #expect(check.status == 1 && check.stdout.contains("latin1.md:1:10"))
    }

    @Test func deepNestingAndNestedQuotes() throws {
        var nested = ""
        for level in 0..<1000 { nested += String(repeating: "  ", count: level) + "- [ ] level \(level)\n" }
        let quotes = String(repeating: "> ", count: 200) + "- [ ] deep in quotes\n"
        var quotedList = ""
        for level in 0..<200 { quotedList += String(repeating: ">", count: level + 1) + " - [ ] quote level \(level)\n" }
        let notes = try NotesFixture(["nested.md": nested, "quotes.md": quotes, "quoted-list.md": quotedList])
        let json = try Self.readEverything(notes)
        #expect(json.contains("level 999") || json.contains("level 0"))
        for list in ["nested.md", "quotes.md", "quoted-list.md"] {
            #expect(try notes.tick("show", list).status == 0)
        }
        // Edits on the deepest item either work or refuse cleanly, and the
        // rest of the file stays as it was.
        let deepest = try notes.tick("query", "\"level\"", "--json")
        #expect(deepest.status == 0)
        let done = try notes.tick("done", "nested.md:1000")
        if done.status == 0 {
            #expect(try notes.text("nested.md") == nested.replacingOccurrences(of: "- [ ] level 999\n", with: "- [x] level 999 done:2026-11-21\n"))
        } else {
            #expect(done.status == 65)
            #expect(try notes.text("nested.md") == nested)
        }
        let removed = try notes.tick("rm", "nested.md:2")
        #expect(removed.status == 0 || removed.status == 65, "\(removed.stderr)")
    }

    @Test func fileNamesWithSpacesNewlinesAndNonASCII() throws {
        let names = ["with space.md", "new\nline.md", "café 日本.md", "tab\there.md", "-dash.md", "quote\"'.md"]
        var files: [String: String] = [:]
        for (index, name) in names.enumerated() { files[name] = "- [ ] Item \(index)\n" }
        let notes = try NotesFixture(files)
        let json = try Self.readEverything(notes)
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let paths = ((object?["items"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
        #expect(Set(paths) == Set(names))
        for (index, name) in names.enumerated() {
            // A name that starts with `-` reads as options, as in every
            // command-line tool; `--` ends the options.
            let result = try TickProcess.run(["done", "--dir", notes.root.path, "--today", "2026-11-21", "--", "\(name):1"])
            #expect(result.status == 0, "\(name.debugDescription): \(result.stderr)")
            #expect(try notes.text(name) == "- [x] Item \(index) done:2026-11-21\n")
        }
        #expect(Set(notes.allFiles()) == Set(names))
    }

    @Test func unreadableFileIsSkippedWithAWarningAndEditsExit66() throws {
        let notes = try NotesFixture(["secret.md": "- [ ] hidden\n", "ok.md": "- [ ] visible\n"])
        chmod(notes.url("secret.md").path, 0o000)
        defer { chmod(notes.url("secret.md").path, 0o644) }
        for command in Self.readCommands {
            let result = try TickProcess.run(command + ["--dir", notes.root.path], wrapper: Self.nobody)
            #expect(result.status == 0, "tick \(command): \(result.stderr)")
            #expect(result.stderr.contains("warning:") && result.stderr.contains("secret.md"), "tick \(command): \(result.stderr)")
            #expect(!result.stdout.contains("hidden"))
        }
        try Self.expectRefusal(notes, ["done", "secret.md:1"], code: 66, wrapper: Self.nobody)
        try Self.expectRefusal(notes, ["add", "secret.md", "x"], code: 66, wrapper: Self.nobody)
    }

    @Test func symlinkLoopsAndLinksOutOfTheRoot() throws {
        let outside = try NotesFixture(["elsewhere.md": "- [ ] outside item\n"])
        let notes = try NotesFixture(["ok.md": "- [ ] inside item\n", "sub/inner.md": "- [ ] inner item\n"])
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: notes.url("self.md").path, withDestinationPath: "self.md")
        try manager.createSymbolicLink(atPath: notes.url("a.md").path, withDestinationPath: "b.md")
        try manager.createSymbolicLink(atPath: notes.url("b.md").path, withDestinationPath: "a.md")
        try manager.createSymbolicLink(atPath: notes.url("sub/loop").path, withDestinationPath: "..")
        try manager.createSymbolicLink(atPath: notes.url("out.md").path, withDestinationPath: outside.url("elsewhere.md").path)
        try manager.createSymbolicLink(atPath: notes.url("outdir").path, withDestinationPath: outside.root.path)
        let json = try Self.readEverything(notes, expectWarning: "out")
        #expect(json.contains("inside item") && json.contains("inner item"))
        #expect(!json.contains("outside item"))
        let all = try notes.tick("all")
        #expect(all.stderr.contains("self.md") && all.stderr.contains("out.md"))
        // Each file is listed once, the loop not followed.
        #expect(all.stdout.components(separatedBy: "inner item").count == 2)
        let outsideBefore = try outside.bytes("elsewhere.md")
        try Self.expectRefusal(notes, ["done", "out.md:1"], code: 65)
        try Self.expectRefusal(notes, ["add", "out.md", "x"], code: 65)
        try Self.expectRefusal(notes, ["done", "outdir/elsewhere.md:1"], code: 65)
        // A link that loops names no readable file: no such item.
        try Self.expectRefusal(notes, ["done", "self.md:1"], code: 65)
        #expect(try outside.bytes("elsewhere.md") == outsideBefore)
    }

    // MARK: Large inputs (behind TICK_SLOW_TESTS=1)

    @Test(.enabled(if: SlowTests.enabled, "set TICK_SLOW_TESTS=1"))
    func twentyMegabyteSingleLine() throws {
        var line = Array("- [ ] ".utf8)
        let chunk = Array("word *em* [x](y) `c` #tag due:2026-11-24 ".utf8)
        while line.count < 20_000_000 { line += chunk }
        let notes = try NotesFixture(["huge.md": line + [0x0A], "ok.md": Array("- [ ] small\n".utf8)])
        let query = try notes.tick("query", "#tag", "--json")
        #expect(query.status == 0)
        #expect(query.stdout.contains("\"path\" : \"huge.md\"") || query.stdout.contains("\"path\": \"huge.md\""))
        let done = try notes.tick("done", "huge.md:1")
        #expect(done.status == 0, "\(done.stderr)")
        let after = try notes.bytes("huge.md")
        #expect(after.count == line.count + " done:2026-11-21".utf8.count + 1)
        #expect(after.starts(with: Array("- [x] word".utf8)))
    }

    @Test(.enabled(if: SlowTests.enabled, "set TICK_SLOW_TESTS=1"))
    func hundredThousandItemsInOneFile() throws {
        var text = "# Many\n\n"
        for number in 1...100_000 { text += "- [ ] Item \(number) due:2026-11-\(10 + number % 20) #t\(number % 10)\n" }
        let notes = try NotesFixture(["many.md": text])
        let count = try notes.tick("query", "#t3", "--json")
        #expect(count.status == 0)
        #expect(count.stdout.components(separatedBy: "\"status\"").count - 1 == 10_000)
        let done = try notes.tick("done", "many.md:50002")
        #expect(done.status == 0)
        #expect(
            try notes.text("many.md")
                == text.replacingOccurrences(
                    of: "- [ ] Item 50000 due:2026-11-10 #t0\n",
                    with: "- [x] Item 50000 due:2026-11-10 #t0 done:2026-11-21\n"))
    }

    @Test(.enabled(if: SlowTests.enabled, "set TICK_SLOW_TESTS=1"))
    func folderOfHundredThousandEmptyFiles() throws {
        let notes = try NotesFixture(["real.md": "- [ ] the one item\n"])
        let folder = notes.url("empty").path
        mkdir(folder, 0o755)
        for number in 0..<100_000 {
            let descriptor = open(folder + "/file-\(number).md", O_CREAT | O_WRONLY, 0o644)
            #expect(descriptor >= 0)
            close(descriptor)
        }
        let home = try notes.tick("lists", "--json")
        #expect(home.status == 0)
        #expect(home.stdout.components(separatedBy: "\"path\"").count - 1 == 100_001)
        let all = try notes.tick("all")
        #expect(all.status == 0 && all.stdout.contains("the one item"))
        #expect(try notes.tick("add", "empty/file-99999.md", "First").status == 0)
        #expect(try notes.text("empty/file-99999.md") == "- [ ] First\n")
    }
}
