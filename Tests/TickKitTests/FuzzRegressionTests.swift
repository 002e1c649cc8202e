import Foundation
import Testing

@testable import TickEdit
@testable import TickFuzzChecks
@testable import TickModel
@testable import TickSyntax

/// Every input a fuzzer once failed on, and the seeds `make fuzz` starts
/// from, replayed through the same invariant checks the fuzzers use
/// (`Sources/TickFuzzChecks`). A fixture that breaks an invariant again
/// fails here with the broken invariants as the message.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static func inputs(_ folder: String) -> [URL] {
        let url = TestPaths.fixtures.appendingPathComponent("fuzz").appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.sorted().map { url.appendingPathComponent($0) }
    }

    @Test("parser: saved inputs keep every range inside the file", arguments: inputs("parser"))
    func parser(file: URL) throws {
        let problems = ParserInvariants.violations(of: Array(try Data(contentsOf: file)))
        #expect(problems.isEmpty, "\(file.lastPathComponent): \(problems)")
    }

    @Test("query: saved inputs parse or fail cleanly", arguments: inputs("query"))
    func query(file: URL) throws {
        let problems = QueryInvariants.violations(of: String(decoding: try Data(contentsOf: file), as: UTF8.self))
        #expect(problems.isEmpty, "\(file.lastPathComponent): \(problems)")
    }

    @Test("editor: saved inputs keep SPEC §5", arguments: inputs("edit"))
    func editor(file: URL) throws {
        let problems = EditInvariants.violations(of: Array(try Data(contentsOf: file)))
        #expect(problems.isEmpty, "\(file.lastPathComponent): \(problems)")
    }

    @Test("the folders of saved inputs are there")
    func foldersExist() {
        #expect(Self.inputs("parser").count >= 1)
        #expect(Self.inputs("query").count >= 20)
        #expect(Self.inputs("edit").count >= 3)
    }

    @Test("the checks catch what they are for")
    func checksCanFail() {
        // A query error pointing past the end is caught.
        #expect(QueryInvariants.violations(of: "due <").isEmpty)
        // An edit whose splices overlap is reported, not applied.
        let document = parse("- [ ] a\n")
        let overlapping = [Splice(0..<4, "x"), Splice(2..<6, "y")]
        #expect(!EditInvariants.check(document, splices: overlapping, kind: 8, target: document.items[0]).isEmpty)
        // An "rm" that leaves the item is reported.
        #expect(!EditInvariants.check(document, splices: [], kind: 8, target: document.items[0]).isEmpty)
        // A splice outside the title for a status edit is reported.
        #expect(!EditInvariants.check(document, splices: [Splice(0..<1, "*")], kind: 0, target: document.items[0]).isEmpty)
    }

    @Test("rm keeps an item numbered 2 that followed a paragraph an item")
    func removeBeforeOrderedItemKeepsItAnItem() throws {
        let document = parse("Steps:\n1. [ ] first\n2. [ ] second\n")
        let after = try Splice.apply(RemoveItem.splices([0], in: document), to: document.source.bytes)
        #expect(String(decoding: after, as: UTF8.self) == "Steps:\n\n2. [ ] second\n")
        // Where nothing joins, the lines just go.
        let plain = parse("Steps:\n\n1. [ ] first\n2. [ ] second\n")
        let removed = try Splice.apply(RemoveItem.splices([0], in: plain), to: plain.source.bytes)
        #expect(String(decoding: removed, as: UTF8.self) == "Steps:\n\n2. [ ] second\n")
    }

    @Test("add to a file of white space without a line ending starts a new line")
    func addAfterTrailingTab() throws {
        let document = parse("\t")
        let after = try Splice.apply([InsertItem.add("New", to: document, at: .endOfList).splice], to: document.source.bytes)
        #expect(String(decoding: after, as: UTF8.self) == "\t\n- [ ] New")
        #expect(parse(String(decoding: after, as: UTF8.self)).items.map(\.title) == ["New"])
    }

    @Test("in a file that is not UTF-8, a title's broken sequences read the same in the runs and the title")
    func brokenSequenceAroundMarkup() {
        let document = parse(bytes: Array("- [ ] ~".utf8) + [0xC3] + Array("~".utf8) + [0xA9])
        #expect(document.items[0].title == document.items[0].runs.displayTitle)
        #expect(document.items[0].title == "\u{FFFD}\u{FFFD}")
    }

    @Test("a list item whose paragraph cmark-gfm turned into a table does not crash the parser")
    func paragraphTurnedIntoTable() {
        // cmark-gfm leaves an empty paragraph without a position (line 0)
        // before the table; the parser used to index line 0 and trap.
        let document = parse("- ?\n[ ] Child\n  -:\n")
        #expect(document.items.isEmpty)
        #expect(ParserInvariants.check(document).isEmpty)
    }

    @Test("a space before a combining mark collapses in the title and in the runs alike")
    func spaceBeforeCombiningMark() {
        let document = parse("- [ ] u  \u{07ED}")
        #expect(document.items[0].title == "u \u{07ED}")
        #expect(document.items[0].runs.displayTitle == document.items[0].title)
    }

    @Test("a relative date with two signs or a huge count is not a date, not an overflow trap")
    func relativeDateOverflow() throws {
        let today = TaskDate(year: 2026, month: 11, day: 21)
        for text in ["+-6148914691236517196w", "+-2000000000000000000d", "in -2000000000000000000 weeks", "+--1d", "+99999999w"] {
            #expect(DateExpression.resolve(text, today: today) == nil, "\(text)")
        }
        #expect(DateExpression.resolve("+2w", today: today) == TaskDate(year: 2026, month: 12, day: 5))
        let notes = try NotesFixture(["a.md": "- [ ] a\n"])
        let query = try notes.tick("query", "due < +-2000000000000000000w")
        #expect(query.status == 64 && query.stderr.contains("not a date"))
        let add = try notes.tick("add", "a.md", "b due:+-2000000000000000000w")
        #expect(add.status == 64)
        #expect(try notes.text("a.md") == "- [ ] a\n")
    }

    @Test("moving the last block of a CRLF file without a final line ending writes CRLF")
    func moveKeepsCRLFWhenNothingElseHasALineEnding() throws {
        let document = parse("Intro\r\n- [ ] a")
        let move = try #require(MoveItem.move(0, in: document, to: .section("S")))
        let after = String(decoding: try Splice.apply(move.splices, to: document.source.bytes), as: UTF8.self)
        #expect(after == "Intro\r\n\r\n## S\r\n- [ ] a")
    }

    @Test("new tokens go first when a bare 🔁 ends the title, which would read them as its rule")
    func tokensBeforeABareRecurrenceSign() throws {
        let document = parse("- [ ] Water 🔁\n")
        let after = try Splice.apply(TokenEdit.splices([.setPriority(.high)], item: document.items[0], in: document), to: document.source.bytes)
        #expect(String(decoding: after, as: UTF8.self) == "- [ ] !high Water 🔁\n")
        #expect(parse(String(decoding: after, as: UTF8.self)).items[0].title == "Water 🔁")
    }

    @Test("a new title right after an emoji rule goes first, so the rule does not read it")
    func titleAfterAnEmojiRule() throws {
        let document = parse("- [ ] 🔁 every week monday[x] old words\n")
        let rule = try #require(document.items[0].metadata.every)
        #expect(document.items[0].title.hasSuffix("old words"))
        let after = try Splice.apply(TokenEdit.splices([.replaceText("New")], item: document.items[0], in: document), to: document.source.bytes)
        let edited = parse(String(decoding: after, as: UTF8.self))
        #expect(edited.items[0].title == "New")
        #expect(edited.items[0].metadata.every == rule)
    }

    @Test("emoji tokens are whole words: a value that runs on into markup ends the rule or is no token")
    func emojiTokensEndAtWholeWords() throws {
        // `🔁 daily*if hot*` used to read `daily` as the rule although the word
        // runs on into the emphasis; removing the text glued to it then joined
        // the rule to the next token (`🔁 dailydue:2026-11-24`).
        let document = parse("- [ ] Water 🔁 daily*if hot* then due:2026-11-24\n")
        #expect(document.items[0].metadata.every == nil)
        #expect(document.items[0].metadata.due == TaskDate(year: 2026, month: 11, day: 24))
        // The rule stops before `week*b*`; `every` alone cannot be read: no rule, a diagnostic.
        let runOn = parse("- [ ] a 🔁 every week*b* c\n")
        #expect(runOn.items[0].metadata.every == nil)
        #expect(runOn.diagnostics.count == 1)
        #expect(parse("- [ ] a 🔁 every week *b* c\n").items[0].metadata.every == "every week")
        #expect(parse("- [ ] a 📅 2026-11-24*b* c\n").items[0].metadata.due == nil)
        #expect(parse("- [ ] a 🆔 abc*b* c\n").items[0].metadata.id == nil)
        let after = try Splice.apply(TokenEdit.splices([.replaceText("New")], item: document.items[0], in: document), to: document.source.bytes)
        let edited = parse(String(decoding: after, as: UTF8.self))
        #expect(edited.items[0].title == "New")
        #expect(edited.items[0].metadata.due == TaskDate(year: 2026, month: 11, day: 24))
    }

    @Test("the editor fuzzer's lazy-line check finds lazy lines in block quotes, and only lazy lines")
    func lazyLines() {
        func lazy(_ text: String, item: Int = 0) -> Bool {
            let document = parse(text)
            return EditInvariants.hasLazyLines(document.items[item], in: document)
        }
        // Lazy: paragraph text continued without the item's indentation or
        // without all of its `>` markers.
        #expect(lazy("> - [ ] A\n    - [ ] not an item\n"))
        #expect(lazy("> - [ ] A\r\n\t- [ ] not an item\r\n"))
        #expect(lazy("> - [ ] A\nlazy\n"))
        #expect(lazy("> - [ ] A\n> lazy\n"))
        #expect(lazy("> > - [ ] A\n> lazy\n"))
        #expect(lazy("> > - [ ] A\n>   lazy\n"))
        #expect(lazy("- [ ] A\n--\n"))
        #expect(lazy("1. [ ] A\n  lazy\n"))
        #expect(lazy("- [ ] A\n  - [ ] B\nlazy\n"))
        #expect(lazy("- > - [ ] A\n  > lazy\n"))
        // Not lazy: every line carries the item's markers and indentation.
        #expect(!lazy("- [ ] A\n  note\n"))
        #expect(!lazy("> - [ ] A\n>   note\n"))
        #expect(!lazy("> - [ ] A\n>\tnote\n"))
        #expect(!lazy(" > - [ ] A\n>   note\n>\n>   more\n"))
        #expect(!lazy("> > - [ ] A\n> >   note\n>>   note\n"))
        #expect(!lazy("> - [ ] A\n>   > quoted note\n"))
        #expect(!lazy("- > - [ ] A\n  >   note\n"))
        #expect(!lazy("1. [ ] A\n   note\n"))
        #expect(!lazy("-\n  [ ] A\n  note\n"))
        #expect(!lazy("\u{FEFF}- [ ] A\n  note\n"))
        #expect(!lazy("- [ ] A\n  - [ ] B\n  note of A\n"))
        #expect(!lazy("> - [ ] A\n>   - [ ] B\n>   note of A\n"))
    }
}
