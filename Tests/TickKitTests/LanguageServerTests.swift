import Foundation
import Testing

@testable import TickModel
@testable import TickSyntax

/// `tick lsp` (SPEC §10, docs/EDITORS.md), spoken to over pipes as an editor
/// would: the built binary, real JSON-RPC frames, and every answer checked
/// against what tick's own commands do.
@Suite struct LanguageServerTests {
    static let tickList = """
        ---
        title: Groceries
        ---
        # Groceries

        ## Dairy
        - [ ] Buy **milk** !high due:2026-11-24 #errand
        - [x] Eggs done:2026-11-20
        - [ ] Post the weekly update every:week due:2026-11-20 ^weekly
        - [/] Cheese started !lowest
        - [-] Butter cancelled:2026-11-19 !urgent

        """
    /// The Obsidian Tasks dialect with CRLF endings, tabs and emoji in titles.
    static let emojiList =
        "# Tasks 📋\r\n\r\n- [ ] 🎉 Party\tprep ⏫ 📅 2026-11-23 #fun\r\n"
        + "\t- [ ] Balloons 🎈 🔁 every month on the last 📅 2026-11-30\r\n"
        + "- [x] Done thing ✅ 2026-11-20\r\n- [ ] No dates here 🙂\r\n"
    static let dataviewList =
        "- [ ] Water plants [priority:: high] [repeat:: every week] [due:: 2026-11-21]\n"
        + "- [ ] Call mum [due:: 2026-11-25]\n"

    static func uri(_ notes: NotesFixture, _ path: String) -> String { notes.url(path).absoluteString }

    // MARK: Initialize

    @Test(
        "initialize answers utf-8 when the client offers it, else utf-16, with the capabilities tick has",
        arguments: [(["utf-8", "utf-16"] as [String]?, "utf-8"), (["utf-16"], "utf-16"), (nil, "utf-16"), (["utf-32", "utf-8"], "utf-8")])
    func initializeNegotiatesThePositionEncoding(offered: [String]?, expected: String) throws {
        let notes = try NotesFixture(["a.md": "- [ ] a\n"])
        let client = try LSPClient()
        let response = try client.initialize(root: notes.root, encodings: offered)
        let result = try #require(response["result"] as? [String: Any])
        let capabilities = try #require(result["capabilities"] as? [String: Any])
        #expect(capabilities["positionEncoding"] as? String == expected)
        #expect(capabilities["hoverProvider"] as? Bool == true)
        #expect(capabilities["workspaceSymbolProvider"] as? Bool == true)
        #expect(capabilities["codeActionProvider"] != nil && capabilities["completionProvider"] != nil)
        let commands = (capabilities["executeCommandProvider"] as? [String: Any])?["commands"] as? [String]
        #expect(commands == ["tick.query"])
        #expect(try client.shutDown() == 0)
    }

    // MARK: Diagnostics

    /// The range LSP should give `bad` on line `line` (0-based) of `text` in `encoding`.
    static func expectedRange(of bad: String, line: Int, in text: String, encoding: String) -> [Int] {
        let lines = text.components(separatedBy: "\r\n").flatMap { $0.components(separatedBy: "\n") }
        let lineText = lines[line]
        let prefix = String(lineText[..<lineText.range(of: bad)!.lowerBound])
        func units(_ string: String) -> Int { encoding == "utf-8" ? string.utf8.count : string.utf16.count }
        return [line, units(prefix), line, units(prefix) + units(bad)]
    }

    static func ranges(_ diagnostics: [[String: Any]]) -> [[Int]] {
        diagnostics.map { diagnostic in
            let range = diagnostic["range"] as! [String: Any]
            let start = range["start"] as! [String: Any]
            let end = range["end"] as! [String: Any]
            return [start["line"] as! Int, start["character"] as! Int, end["line"] as! Int, end["character"] as! Int]
        }
    }

    @Test(
        "didOpen and every didChange publish tick check's diagnostics for the unsaved text, with exact ranges",
        arguments: ["utf-8", "utf-16"])
    func diagnosticsFollowTheEditorsText(encoding: String) throws {
        let text =
            "# Läst\r\n\r\n- [ ] 🎉 fête\tdue:2026-02-30 !hgih\r\n- [ ] x 📅 2026-13-01\r\n\t- [ ] ok [due:: 2026-11-31]\r\n"
            + "- [ ] 🔁 every fortnight 📅 2026-11-24\r\n"
        // On disk the file is clean: the server must read the editor's text, not the file.
        let notes = try NotesFixture(["a.md": "- [ ] clean\n", "copy.md": text])
        let check = try notes.tick("check", "copy.md", "--json")
        let checked = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        let reported = try #require(checked["diagnostics"] as? [[String: Any]])
        #expect(reported.count == 5)

        let client = try LSPClient()
        try client.initialize(root: notes.root, encodings: [encoding])
        let uri = Self.uri(notes, "a.md")
        client.open(uri, text, version: 1)
        let opened = try client.notification("textDocument/publishDiagnostics")
        let params = try #require(opened["params"] as? [String: Any])
        #expect(params["uri"] as? String == uri)
        #expect(params["version"] as? Int == 1)
        let diagnostics = try #require(params["diagnostics"] as? [[String: Any]])
        // The same problems as tick check, in the same order, starting where it says.
        #expect(diagnostics.map { $0["message"] as? String } == reported.map { $0["message"] as? String })
        if encoding == "utf-8" {
            #expect(Self.ranges(diagnostics).map { [$0[0] + 1, $0[1] + 1] } == reported.map { [$0["line"] as! Int, $0["column"] as! Int] })
        }
        #expect(
            Self.ranges(diagnostics) == [
                Self.expectedRange(of: "2026-02-30", line: 2, in: text, encoding: encoding),
                Self.expectedRange(of: "!hgih", line: 2, in: text, encoding: encoding),
                Self.expectedRange(of: "📅 2026-13-01", line: 3, in: text, encoding: encoding),
                Self.expectedRange(of: "2026-11-31", line: 4, in: text, encoding: encoding),
                Self.expectedRange(of: "every fortnight", line: 5, in: text, encoding: encoding),
            ])
        #expect(diagnostics.allSatisfy { $0["severity"] as? Int == 2 && $0["source"] as? String == "tick" })

        let fixed = text.replacingOccurrences(of: "!hgih", with: "!high").replacingOccurrences(of: "2026-13-01", with: "2026-12-01")
        client.change(uri, fixed, version: 2)
        let changed = try #require(try client.notification("textDocument/publishDiagnostics")["params"] as? [String: Any])
        #expect(changed["version"] as? Int == 2)
        let remaining = try #require(changed["diagnostics"] as? [[String: Any]])
        #expect(
            Self.ranges(remaining) == [
                Self.expectedRange(of: "2026-02-30", line: 2, in: fixed, encoding: encoding),
                Self.expectedRange(of: "2026-11-31", line: 4, in: fixed, encoding: encoding),
                Self.expectedRange(of: "every fortnight", line: 5, in: fixed, encoding: encoding),
            ])
        client.change(uri, "- [ ] clean\n", version: 3)
        let clean = try #require(try client.notification("textDocument/publishDiagnostics")["params"] as? [String: Any])
        #expect((clean["diagnostics"] as? [Any])?.isEmpty == true)
        #expect(try client.shutDown() == 0)
    }

    @Test("dependency problems (tick check --dependencies) are information, resolved against the folder and the unsaved text")
    func dependencyProblemsAreInformation() throws {
        let notes = try NotesFixture(["a.md": "- [ ] first ⛔ b1\n", "b.md": "- [ ] other 🆔 b1\n"])
        let client = try LSPClient()
        try client.initialize(root: notes.root, encodings: ["utf-8"])
        let uri = Self.uri(notes, "a.md")
        client.open(uri, "- [ ] first ⛔ b1\n", version: 1)
        let opened = try #require(try client.notification("textDocument/publishDiagnostics")["params"] as? [String: Any])
        #expect((opened["diagnostics"] as? [Any])?.isEmpty == true)
        client.change(uri, "- [ ] first ⛔ b1,nope\n", version: 2)
        let changed = try #require(try client.notification("textDocument/publishDiagnostics")["params"] as? [String: Any])
        let diagnostics = try #require(changed["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?["severity"] as? Int == 3)
        #expect((diagnostics.first?["message"] as? String)?.hasPrefix("depends on 'nope', an id no item has") == true)
        #expect(try client.shutDown() == 0)
    }

    // MARK: Code actions

    /// The tick command that makes the change a code action titled `title` makes.
    static func command(for title: String, address: String) -> [String]? {
        if title.hasPrefix("Mark done") { return ["done", address] }
        if title.hasPrefix("Start") { return ["start", address] }
        if title.hasPrefix("Reopen") { return ["reopen", address] }
        if title.hasPrefix("Cancel") { return ["cancel", address] }
        if title.hasPrefix("Priority up: ") || title.hasPrefix("Priority down: ") {
            return ["edit", address, "--priority", String(title.split(separator: " ").last!)]
        }
        if title.hasPrefix("Postpone to tomorrow") { return ["edit", address, "--due", "tomorrow"] }
        if title.hasPrefix("Postpone to next week") { return ["edit", address, "--due", "next week"] }
        if title == "Clear the due date" { return ["edit", address, "--no-due"] }
        return nil
    }

    /// What running `arguments` writes to a fresh copy of `bytes` as `path`.
    static func commandResult(_ arguments: [String], path: String, bytes: [UInt8]) throws -> [UInt8] {
        let copy = try NotesFixture([path: bytes])
        let result = try TickProcess.run(arguments + ["--dir", copy.root.path, "--today", "2026-11-21"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try copy.bytes(path)
    }

    /// A list after `tick done` on its first item: the done recurring item with its next occurrence above it.
    static func afterRecurringDone() throws -> [UInt8] {
        try commandResult(["done", "d.md:1"], path: "d.md", bytes: Array(dataviewList.utf8))
    }

    @Test("every code action's WorkspaceEdit, applied to the text, gives the bytes the matching tick command writes (utf-8 and utf-16)")
    func codeActionsMakeTheCommandsBytes() throws {
        let lists: [(String, [UInt8])] = [
            ("t.md", Array(Self.tickList.utf8)), ("e.md", Array(Self.emojiList.utf8)),
            ("d.md", Array(Self.dataviewList.utf8)), ("r.md", try Self.afterRecurringDone()),
        ]
        let notes = try NotesFixture(Dictionary(uniqueKeysWithValues: lists))
        /// An action's result: where, which, and the bytes its edit gives.
        struct Applied {
            var path: String
            var line: Int
            var title: String
            var encoding: String
            var bytes: [UInt8]
        }
        var applied: [Applied] = []
        var titles: [String: [String]] = [:]
        for encoding in ["utf-8", "utf-16"] {
            let client = try LSPClient()
            try client.initialize(root: notes.root, encodings: [encoding])
            for (path, bytes) in lists {
                let uri = Self.uri(notes, path)
                let text = String(decoding: bytes, as: UTF8.self)
                client.open(uri, text, version: 1)
                client.change(uri, text, version: 7)
                _ = try client.notification("textDocument/publishDiagnostics")
                _ = try client.notification("textDocument/publishDiagnostics")
                for item in DocumentParser.parse(bytes, path: path).items {
                    let response = try client.request(
                        "textDocument/codeAction",
                        [
                            "textDocument": ["uri": uri],
                            "range": ["start": ["line": item.line - 1, "character": 2], "end": ["line": item.line - 1, "character": 2]],
                            "context": ["diagnostics": [Any]()],
                        ])
                    let actions = try #require(response["result"] as? [[String: Any]], "\(response)")
                    titles["\(path):\(item.line)"] = actions.map { $0["title"] as! String }
                    for action in actions {
                        let edit = try #require(action["edit"] as? [String: Any])
                        let changes = try #require(edit["documentChanges"] as? [[String: Any]])
                        #expect(changes.count == 1)
                        let identifier = try #require(changes[0]["textDocument"] as? [String: Any])
                        #expect(identifier["uri"] as? String == uri)
                        #expect(identifier["version"] as? Int == 7)
                        let edits = try #require(changes[0]["edits"] as? [[String: Any]])
                        applied.append(
                            Applied(
                                path: path, line: item.line, title: action["title"] as! String, encoding: encoding,
                                bytes: TextEdits.apply(edits, to: bytes, encoding: encoding)))
                    }
                }
            }
            #expect(try client.shutDown() == 0)
        }
        // What each command writes, once per action, on both cores.
        let keys = Array(Set(applied.map { "\($0.path):\($0.line)\t\($0.title)" })).sorted()
        let originals = Dictionary(uniqueKeysWithValues: lists)
        nonisolated(unsafe) var expected: [[UInt8]?] = Array(repeating: nil, count: keys.count)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: keys.count) { index in
            let parts = keys[index].split(separator: "\t", maxSplits: 1).map(String.init)
            let path = String(parts[0].split(separator: ":")[0])
            guard let arguments = Self.command(for: parts[1], address: parts[0]),
                let bytes = try? Self.commandResult(arguments, path: path, bytes: originals[path]!)
            else { return }
            lock.lock()
            expected[index] = bytes
            lock.unlock()
        }
        for result in applied {
            let index = keys.firstIndex(of: "\(result.path):\(result.line)\t\(result.title)")!
            let wanted = try #require(expected[index], "no command for \(result.title)")
            #expect(
                result.bytes == wanted,
                "\(result.path):\(result.line) \(result.title) (\(result.encoding)): \(String(decoding: result.bytes, as: UTF8.self).debugDescription) != \(String(decoding: wanted, as: UTF8.self).debugDescription)"
            )
        }
        #expect(applied.count > 80)
        // What each item is offered.
        #expect(
            titles["t.md:7"] == [
                "Mark done", "Start (in progress)", "Cancel", "Priority up: urgent", "Priority down: medium",
                "Postpone to tomorrow (2026-11-22, Sun)", "Postpone to next week (2026-11-23, Mon)",
                "Clear the due date",
            ])
        #expect(titles["t.md:8"]?.contains("Reopen") == true && titles["t.md:8"]?.contains("Mark done") == false)
        #expect(titles["t.md:9"]?.first == "Mark done (adds the next occurrence above)")
        #expect(titles["t.md:11"]?.contains("Priority up: urgent") == false) // already urgent
        #expect(titles["t.md:10"]?.contains("Priority down: lowest") == false)
        #expect(titles["e.md:6"]?.contains("Clear the due date") == false)
        #expect(titles["r.md:2"]?.contains("Reopen (removes the next occurrence done added)") == true)
    }

    @Test("no code action is offered off item lines, or on a file with git conflict markers")
    func codeActionsOnlyWhereTickWouldEdit() throws {
        let notes = try NotesFixture([String: String]())
        let client = try LSPClient()
        try client.initialize(root: notes.root)
        let uri = Self.uri(notes, "a.md")
        client.open(uri, "# Head\n- [ ] item\n<<<<<<< ours\n- [ ] x\n=======\n- [ ] y\n>>>>>>> theirs\n")
        func actions(line: Int) throws -> [Any] {
            let response = try client.request(
                "textDocument/codeAction",
                [
                    "textDocument": ["uri": uri], "range": ["start": ["line": line, "character": 0], "end": ["line": line, "character": 0]],
                    "context": ["diagnostics": [Any]()],
                ])
            return try #require(response["result"] as? [Any], "\(response)")
        }
        #expect(try actions(line: 1).isEmpty)
        client.change(uri, "# Head\n- [ ] item\n", version: 2)
        #expect(try actions(line: 0).isEmpty)
        // Done, start, cancel, priority up and down, postpone to tomorrow and to next week.
        #expect(try actions(line: 1).count == 7)
        #expect(try client.shutDown() == 0)
    }

    // MARK: Completion

    /// The completion items at the end of `line` (0-based) of `text`, opened as `path`.
    static func completions(
        _ client: LSPClient, _ notes: NotesFixture, _ path: String, _ text: String,
        line: Int, character: Int
    ) throws -> [[String: Any]] {
        let uri = uri(notes, path)
        client.open(uri, text, version: 1)
        _ = try client.notification("textDocument/publishDiagnostics")
        let response = try client.request(
            "textDocument/completion",
            [
                "textDocument": ["uri": uri], "position": ["line": line, "character": character],
            ])
        return try #require(response["result"] as? [[String: Any]], "\(response)")
    }

    static func newText(_ item: [String: Any]) -> String? { (item["textEdit"] as? [String: Any])?["newText"] as? String }

    @Test("after a date field, dates in the field's dialect with their ISO form; after ! priorities; after # the folder's tags")
    func completionOffersDatesPrioritiesAndTags() throws {
        let notes = try NotesFixture(["tags.md": "- [ ] a #work #home\n- [ ] b #work\n"])
        let client = try LSPClient()
        try client.initialize(root: notes.root, encodings: ["utf-16"])
        // (text, expected newText for "tomorrow")
        let cases: [(String, String)] = [
            ("- [ ] 🎉 x due:", "2026-11-22"), ("- [ ] x due:tom", "2026-11-22"), ("- [ ] 🎉 x 📅 ", "2026-11-22"),
            ("- [ ] x 📅", " 2026-11-22"), ("- [ ] x ⏳️ tom", "2026-11-22"), ("- [ ] x [due:: ", "2026-11-22]"),
            ("- [ ] x [scheduled::", " 2026-11-22]"), ("- [ ] x (start:: ", "2026-11-22)"),
        ]
        for (index, (text, expected)) in cases.enumerated() {
            let items = try Self.completions(client, notes, "c\(index).md", text, line: 0, character: text.utf16.count)
            let tomorrow = try #require(items.first { $0["label"] as? String == "tomorrow" }, "\(text): \(items)")
            #expect(tomorrow["detail"] as? String == "2026-11-22 (Sun)")
            #expect(Self.newText(tomorrow) == expected, "\(text)")
            #expect(items.contains { $0["label"] as? String == "next week" && $0["detail"] as? String == "2026-11-23 (Mon)" })
        }
        // A typed date expression is offered resolved too.
        let typed = try Self.completions(client, notes, "typed.md", "- [ ] x due:+3d", line: 0, character: 15)
        #expect(typed.first?["label"] as? String == "+3d")
        #expect(typed.first.flatMap(Self.newText) == "2026-11-24")

        let tick = try Self.completions(client, notes, "p1.md", "- [ ] x !h", line: 0, character: 10)
        #expect(tick.compactMap(Self.newText).contains("!high"))
        #expect(tick.compactMap(Self.newText).count == 6)
        let emoji = try Self.completions(client, notes, "p2.md", "- [ ] x 📅 2026-11-24 !", line: 0, character: "- [ ] x 📅 2026-11-24 !".utf16.count)
        #expect(emoji.compactMap(Self.newText) == ["⏬", "🔽", "🔼", "⏫", "🔺"])
        let dataview = try Self.completions(client, notes, "p3.md", "- [ ] x [priority:: ", line: 0, character: 20)
        #expect(dataview.compactMap(Self.newText).contains("highest]"))

        let tags = try Self.completions(client, notes, "t.md", "- [ ] y #new\n- [ ] z #w", line: 1, character: 10)
        #expect(tags.compactMap { $0["label"] as? String } == ["#work", "#home", "#new"])
        #expect(tags.first?["detail"] as? String == "used 2 times")
        #expect(try client.shutDown() == 0)
    }

    @Test(
        "tag and id completion count the lists the editor has open as it has them, and a list changed on disk once the editor says it changed"
    )
    func completionFollowsOpenAndChangedLists() throws {
        let notes = try NotesFixture(["a.md": "- [ ] a #Work 🆔 one\n", "b.md": "- [ ] b #work #home\n"])
        let client = try LSPClient()
        try client.initialize(root: notes.root, encodings: ["utf-16"])
        var version = 1
        /// The completions at the end of `text`, typed into t.md.
        func completions(_ text: String) throws -> [[String: Any]] {
            version += 1
            client.change(Self.uri(notes, "t.md"), text, version: version)
            _ = try client.notification("textDocument/publishDiagnostics")
            let response = try client.request(
                "textDocument/completion",
                ["textDocument": ["uri": Self.uri(notes, "t.md")], "position": ["line": 0, "character": text.utf16.count]])
            return try #require(response["result"] as? [[String: Any]], "\(response)")
        }
        func tags() throws -> [String] {
            try completions("- [ ] x #").map { "\($0["label"] as? String ?? "?") \($0["detail"] as? String ?? "?")" }
        }
        func ids() throws -> [String] { try completions("- [ ] x ⛔ ").compactMap { $0["label"] as? String } }
        client.open(Self.uri(notes, "t.md"), "- [ ] x #", version: 1)
        _ = try client.notification("textDocument/publishDiagnostics")
        // A tag is shown as it is first written, in path order.
        #expect(try tags() == ["#Work used 2 times", "#home used 1 time"])
        #expect(try ids() == ["one"])
        // An open list counts as the editor has it, saved or not.
        client.open(Self.uri(notes, "b.md"), "- [ ] b #home #errand\n- [ ] c #errand 🆔 two\n", version: 1)
        _ = try client.notification("textDocument/publishDiagnostics")
        #expect(try tags() == ["#errand used 2 times", "#Work used 1 time", "#home used 1 time"])
        #expect(try ids() == ["one", "two"])
        client.change(Self.uri(notes, "b.md"), "- [ ] b #home\n", version: 2)
        _ = try client.notification("textDocument/publishDiagnostics")
        #expect(try tags() == ["#Work used 1 time", "#home used 1 time"])
        #expect(try ids() == ["one"])
        // A list changed on disk counts once the editor says files changed.
        try notes.write("a.md", Array("- [ ] a #later 🆔 three\n".utf8))
        client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": Self.uri(notes, "a.md"), "type": 2]]])
        #expect(try tags() == ["#home used 1 time", "#later used 1 time"])
        #expect(try ids() == ["three"])
        // A closed list counts as it is on disk again.
        client.notify("textDocument/didClose", ["textDocument": ["uri": Self.uri(notes, "b.md")]])
        _ = try client.notification("textDocument/publishDiagnostics")
        #expect(try tags() == ["#home used 1 time", "#later used 1 time", "#work used 1 time"])
        #expect(try client.shutDown() == 0)
    }

    // MARK: Hover, symbols, query

    @Test("after a dependency token (⛔, [dependsOn:: ], after:) the folder's block ids, open items first, with their titles")
    func completionOffersDependencyIDs() throws {
        let notes = try NotesFixture(["ids.md": "- [ ] Build draft 🆔 draft1\n- [x] Old 🆔 old1\n- [ ] Ship ^ship1\n"])
        let client = try LSPClient()
        try client.initialize(root: notes.root, encodings: ["utf-16"])
        let cases: [(String, [String])] = [
            ("- [ ] Test ⛔", [" draft1", " ship1", " old1"]), ("- [ ] Test ⛔ dr", ["draft1", "ship1", "old1"]),
            ("- [ ] Test ⛔ draft1, ", ["draft1", "ship1", "old1"]), ("- [ ] Test [dependsOn:: ", ["draft1]", "ship1]", "old1]"]),
            ("- [ ] Test after:draft1,", ["draft1", "ship1", "old1"]),
        ]
        for (index, (text, expected)) in cases.enumerated() {
            let items = try Self.completions(client, notes, "d\(index).md", text, line: 0, character: text.utf16.count)
            #expect(items.compactMap(Self.newText) == expected, "\(text)")
            #expect(items.first?["detail"] as? String == "Build draft", "\(text)")
        }
        // A word after the ids (no comma) ends the token: no ids there.
        let ended = try Self.completions(client, notes, "e.md", "- [ ] Test ⛔ draft1 now", line: 0, character: 24)
        #expect(ended.compactMap(Self.newText).contains("draft1") == false)
        #expect(try client.shutDown() == 0)
    }

    @Test("hover on an item shows its fields, the relative due date, its list and section")
    func hoverDescribesTheItem() throws {
        let notes = try NotesFixture(["g.md": Self.tickList])
        let client = try LSPClient()
        try client.initialize(root: notes.root)
        let uri = Self.uri(notes, "g.md")
        client.open(uri, Self.tickList)
        let response = try client.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 6, "character": 12]])
        let result = try #require(response["result"] as? [String: Any], "\(response)")
        let value = try #require((result["contents"] as? [String: Any])?["value"] as? String)
        #expect(value.contains("**Buy milk** (open)"))
        #expect(value.contains("- priority: high"))
        #expect(value.contains("- due: 2026-11-24 (Tue), in 3 days"))
        #expect(value.contains("- tags: `#errand`"))
        #expect(value.contains("- list: Groceries (`g.md`)"))
        #expect(value.contains("- section: Dairy"))
        let overdue = try client.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 8, "character": 0]])
        #expect(
            (((overdue["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String)?
                .contains("- due: 2026-11-20 (Fri), 1 day overdue") == true)
        let none = try client.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 3, "character": 0]])
        #expect(none["result"] is NSNull)
        #expect(try client.shutDown() == 0)
    }

    @Test("hover's range is the title, in UTF-16 units past emoji and tabs on a CRLF line", arguments: ["utf-8", "utf-16"])
    func hoverRangeCountsInTheNegotiatedEncoding(encoding: String) throws {
        let notes = try NotesFixture(["e.md": Self.emojiList])
        let client = try LSPClient()
        try client.initialize(root: notes.root, encodings: [encoding])
        let uri = Self.uri(notes, "e.md")
        client.open(uri, Self.emojiList)
        let response = try client.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 2, "character": 30]])
        let result = try #require(response["result"] as? [String: Any], "\(response)")
        let title = "🎉 Party\tprep ⏫ 📅 2026-11-23 #fun"
        let length = encoding == "utf-8" ? title.utf8.count : title.utf16.count
        #expect(Self.ranges([result]) == [[2, 6, 2, 6 + length]])
        let value = (result["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(value.contains("- priority: high") && value.contains("- due: 2026-11-23 (Mon), in 2 days") && value.contains("- list: Tasks 📋"))
        #expect(try client.shutDown() == 0)
    }

    @Test("workspace/symbol finds items by title across the folder, open documents as the editor has them")
    func workspaceSymbolsSearchTheFolder() throws {
        let notes = try NotesFixture(["a.md": "# A\n- [ ] Buy milk\n", "sub/b.md": "- [ ] Milk the cow\n- [ ] other\n"])
        let client = try LSPClient()
        try client.initialize(root: notes.root)
        client.open(Self.uri(notes, "a.md"), "# A\n- [ ] Buy oat milk\n")
        let response = try client.request("workspace/symbol", ["query": "MILK"])
        let symbols = try #require(response["result"] as? [[String: Any]], "\(response)")
        #expect(symbols.map { $0["name"] as? String } == ["Buy oat milk", "Milk the cow"])
        let location = try #require(symbols[1]["location"] as? [String: Any])
        #expect(location["uri"] as? String == Self.uri(notes, "sub/b.md"))
        #expect(Self.ranges([location]) == [[0, 0, 0, 18]])
        #expect(symbols[0]["containerName"] as? String == "A")
        #expect(try client.shutDown() == 0)
    }

    @Test("tick.query returns the locations of the matching items; a bad query is invalid params")
    func queryCommandReturnsLocations() throws {
        let notes = try NotesFixture(["a.md": "- [ ] late due:2026-11-01\n- [ ] later due:2026-12-01\n- [x] done due:2026-11-02\n"])
        let client = try LSPClient()
        try client.initialize(root: notes.root)
        let response = try client.request("workspace/executeCommand", ["command": "tick.query", "arguments": ["open due < today"]])
        let locations = try #require(response["result"] as? [[String: Any]], "\(response)")
        #expect(locations.count == 1)
        #expect(locations.first?["uri"] as? String == Self.uri(notes, "a.md"))
        #expect(Self.ranges(locations) == [[0, 0, 0, 25]])
        let bad = try client.request("workspace/executeCommand", ["command": "tick.query", "arguments": ["due <"]])
        #expect((bad["error"] as? [String: Any])?["code"] as? Int == -32602)
        #expect(try client.shutDown() == 0)
    }

    // MARK: Protocol errors and lifecycle

    static func errorCode(_ message: [String: Any]) -> Int? { (message["error"] as? [String: Any])?["code"] as? Int }

    @Test("malformed messages get -32700 or -32600, unknown methods -32601, notifications nothing; the server reads on")
    func malformedInputGetsProtocolErrors() throws {
        let client = try LSPClient()
        let early = try client.request("workspace/symbol", ["query": ""])
        #expect(Self.errorCode(early) == -32002) // not initialized yet
        try client.initialize(root: nil)
        client.sendFramed(Array("{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\"".utf8))
        let notJSON = try client.nextMessage()
        #expect(Self.errorCode(notJSON) == -32700 && notJSON["id"] is NSNull)
        client.sendRaw(Array("Content-Type: text/plain\r\n\r\n".utf8))
        #expect(Self.errorCode(try client.nextMessage()) == -32700)
        client.sendRaw(Array("Content-Length: twelve\r\n\r\n".utf8))
        #expect(Self.errorCode(try client.nextMessage()) == -32700)
        client.sendFramed(Array("[1, 2]".utf8))
        #expect(Self.errorCode(try client.nextMessage()) == -32600)
        client.sendFramed(Array("{\"id\": 9, \"method\": \"shutdown\"}".utf8)) // no jsonrpc
        let noVersion = try client.nextMessage()
        #expect(Self.errorCode(noVersion) == -32600 && noVersion["id"] as? Int == 9)
        client.sendFramed(Array("{\"jsonrpc\": \"2.0\", \"id\": {\"a\": 1}, \"method\": \"x\"}".utf8))
        #expect(Self.errorCode(try client.nextMessage()) == -32600)
        // Nesting deep enough to overflow a recursive reader's stack.
        client.sendFramed(Array(String(repeating: "[", count: 200_000).utf8) + Array(String(repeating: "]", count: 200_000).utf8))
        #expect(Self.errorCode(try client.nextMessage()) == -32700)
        client.sendFramed([0xFF, 0xFE] + Array("{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"shutdown\"}".utf8))
        #expect(Self.errorCode(try client.nextMessage()) == -32700)
        // Positions far outside the document are clamped, not looped over.
        client.open("file:///tmp/far.md", "- [ ] far\n")
        _ = try client.notification("textDocument/publishDiagnostics")
        let far = try client.request(
            "textDocument/codeAction",
            [
                "textDocument": ["uri": "file:///tmp/far.md"],
                "range": ["start": ["line": -5, "character": -1], "end": ["line": 1_000_000_000_000_000, "character": 7]],
            ])
        #expect((far["result"] as? [Any])?.count == 7)
        let unknown = try client.request("textDocument/frobnicate", ["x": 1])
        #expect(Self.errorCode(unknown) == -32601)
        client.send(["id": "text-id", "method": "$/unknownRequest"])
        let textID = try client.response(id: "text-id")
        #expect(Self.errorCode(textID) == -32601 && textID["id"] as? String == "text-id")
        // Notifications, known or not, well-formed or not, get no answer.
        client.notify("textDocument/unknownNotification", ["a": 1])
        client.notify("textDocument/didChange", ["nonsense": true])
        client.notify("textDocument/didOpen", ["textDocument": ["uri": 42]])
        client.notify("$/cancelRequest", ["id": 1])
        let hoverOnUnknown = try client.request(
            "textDocument/hover", ["textDocument": ["uri": "file:///nowhere.md"], "position": ["line": 0, "character": 0]])
        #expect(Self.errorCode(hoverOnUnknown) == -32803)
        let badParams = try client.request("textDocument/completion", ["textDocument": ["uri": "file:///nowhere.md"]])
        #expect(Self.errorCode(badParams) != nil)
        #expect(client.pending.isEmpty, "\(client.pending)")
        #expect(client.unreadableOutput.isEmpty)
        #expect(try client.shutDown() == 0)
    }

    @Test("requests after shutdown are refused; exit then ends with 0")
    func shutdownThenExit() throws {
        let client = try LSPClient()
        try client.initialize(root: nil)
        let response = try client.request("shutdown", NSNull())
        #expect(response["result"] is NSNull)
        #expect(Self.errorCode(try client.request("workspace/symbol", ["query": ""])) == -32600)
        client.notify("exit")
        #expect(client.waitForExit() == 0)
    }

    @Test("exit without shutdown ends with 1")
    func exitWithoutShutdown() throws {
        let client = try LSPClient()
        try client.initialize(root: nil)
        client.notify("exit")
        #expect(client.waitForExit() == 1)
    }

    @Test("the server ends when its input closes, mid-message too (0 after shutdown, else 1)", arguments: [true, false])
    func inputClosedEndsTheServer(afterShutdown: Bool) throws {
        let client = try LSPClient()
        try client.initialize(root: nil)
        if afterShutdown { try client.request("shutdown", NSNull()) }
        client.sendRaw(Array("Content-Length: 100\r\n\r\n{\"jsonrpc\"".utf8))
        client.closeInput()
        #expect(client.waitForExit() == (afterShutdown ? 0 : 1))
    }

    @Test("a body longer than the limit is skipped with a parse error, and the next message is still read")
    func oversizedBodyIsSkipped() throws {
        let client = try LSPClient()
        try client.initialize(root: nil)
        let size = (64 << 20) + 1
        client.sendRaw(Array("Content-Length: \(size)\r\n\r\n".utf8))
        let chunk = [UInt8](repeating: 0x20, count: 1 << 20)
        DispatchQueue.global().async {
            for _ in 0..<64 { client.sendRaw(chunk) }
            client.sendRaw([0x20])
            client.send(["id": 77, "method": "workspace/symbol", "params": ["query": "x"]])
        }
        #expect(Self.errorCode(try client.nextMessage(timeout: 20)) == -32700)
        #expect(try client.response(id: 77, timeout: 20)["result"] is [Any])
        #expect(try client.shutDown() == 0)
    }
}
