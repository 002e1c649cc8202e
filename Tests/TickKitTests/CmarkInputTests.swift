import Foundation
import Testing

@testable import TickEngine
@testable import TickModel
@testable import TickOutput
@testable import TickRecords
@testable import TickStore
@testable import TickSyntax

/// cmark-gfm parses a copy of the file in which inline-only markup is
/// neutralised; the blocks it finds must be the same as from the real bytes.
@Suite("cmark input neutralisation")
struct CmarkInputTests {
    /// What the block structure decides: items and sections, with ranges.
    func blocks(_ document: Document) -> [String] {
        document.items.map {
            "\($0.line) \($0.status) \($0.boxRange) \($0.blockRange) \($0.depth) \(String(describing: $0.parent)) \(String(describing: $0.section)) \($0.notes ?? "-")"
        }
            + document.sections.map { "section \($0.line) \($0.level) \($0.title)" }
    }

    func assertSameBlocks(_ bytes: [UInt8], _ label: String) {
        let fast = DocumentParser.parse(bytes, path: "x.md", neutralizeInlines: true)
        let plain = DocumentParser.parse(bytes, path: "x.md", neutralizeInlines: false)
        #expect(blocks(fast) == blocks(plain), "\(label)")
        #expect(fast.items.map(\.title) == plain.items.map(\.title), "\(label)")
    }

    /// `CmarkInput.shortCopy` (one pass from the file's bytes) must give
    /// exactly `shortenLines` of the full-length copy it stands for.
    func assertShortCopyMatches(_ bytes: [UInt8], _ label: String) {
        let source = SourceText(bytes)
        let input = UTF8Check.scan(bytes).sanitized ?? bytes
        let frontMatterEnd = FrontMatterParser.find(in: source)?.frontMatter.range.upperBound ?? 0
        var full = input
        for index in 0..<frontMatterEnd where full[index] != 0x0A && full[index] != 0x0D { full[index] = 0x20 }
        CmarkInput.neutralizeInlineMarkup(in: &full, lines: source)
        let expected = CmarkInput.shortenLines(full, lines: source)
        let fused = input.withUnsafeBufferPointer { CmarkInput.shortCopy(of: $0, blankingUpTo: frontMatterEnd, lines: source) }
        #expect(fused.bytes == expected.bytes, "\(label)")
        #expect(fused.lineStarts == expected.lineStarts, "\(label)")
    }

    @Test("the one-pass short copy equals the short copy of the full copy, on fixtures", arguments: TestPaths.allMarkdownFiles())
    func shortCopyOnFixtures(file: URL) throws {
        assertShortCopyMatches(try FileIO.read(file.path), file.lastPathComponent)
    }

    @Test("the one-pass short copy equals the short copy of the full copy, on random lines")
    func shortCopyOnRandomInput() {
        let pieces = [
            "", "- ", "* ", "1. ", "2) ", "- [ ] ", "- [x] ", "  ", "    ", "> ", "# ", "[", "[a]: ", "]:", "<", "<!-- ",
            "-->", "```", "~~~", "`", "|", "a|b", "\\|", "\\", "*", "_", "~", "!", "&", "12", "3.", "word", "Word", "é", "日本",
            "---", "===", "\u{FEFF}", "\t", "---\ntitle: x\n---\n", "\u{0}", "\u{1F4C5} 2026-11-24",
        ]
        let endings = ["\n", "\n", "\r\n", "\r"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for round in 0..<3000 {
            var text = ""
            for _ in 0..<next(12) {
                for _ in 0..<next(7) { text += pieces[next(pieces.count)] + (next(3) == 0 ? " " : "") }
                text += endings[next(endings.count)]
            }
            var bytes = Array(text.utf8)
            if next(10) == 0, !bytes.isEmpty { bytes[next(bytes.count)] = 0xFF } // invalid UTF-8 now and then
            assertShortCopyMatches(bytes, "round \(round): \(text.debugDescription)")
        }
    }

    @Test("large files parsed in pieces give the same blocks as parsed whole", arguments: TestPaths.allMarkdownFiles())
    func piecesGiveTheSameBlocks(file: URL) throws {
        let bytes = try FileIO.read(file.path)
        let whole = DocumentParser.parse(bytes, path: "x.md", neutralizeInlines: true)
        let pieces = DocumentParser.parse(bytes, path: "x.md", neutralizeInlines: true, chunkThreshold: 2)
        #expect(blocks(pieces) == blocks(whole), "\(file.lastPathComponent)")
    }

    @Test("cuts avoid fences and HTML blocks, and land before headings and task items")
    func cutsAreSafe() {
        let text =
            "# A\n- [ ] one\n```\n# inside fence\n- [ ] inside fence\n```\n- [ ] two\n<pre>\n# in html\n\n- [ ] in html\n</pre>\n\n## B\n> - [ ] quoted\n- [ ] three\n"
        let bytes = Array(text.utf8)
        let source = SourceText(bytes)
        let cuts = bytes.withUnsafeBufferPointer { LargeFiles.cutLines($0, source, threshold: 2) }
        #expect(cuts == [2, 7]) // none after an HTML block starts: it may hold headings
        let whole = DocumentParser.parse(bytes, path: "x.md", neutralizeInlines: true)
        let pieces = DocumentParser.parse(bytes, path: "x.md", neutralizeInlines: true, chunkThreshold: 2)
        #expect(blocks(pieces) == blocks(whole))
        #expect(whole.items.map(\.line) == [2, 7, 15, 16])
    }

    @Test("fixtures and examples give the same blocks either way", arguments: TestPaths.allMarkdownFiles())
    func sameBlocksOnFixtures(file: URL) throws {
        assertSameBlocks(try FileIO.read(file.path), file.lastPathComponent)
    }

    @Test(
        "tricky block starts give the same blocks either way",
        arguments: [
            "- [ ] a\n\n```js `x`\n- [ ] in code?\n```\n",
            "~~~\n- [ ] fenced\n~~~\n- [ ] after\n",
            "* * *\n- [ ] a\n___\n",
            "Heading\n===\n- [ ] a\n",
            "\\- [ ] escaped marker\n- [ ] real\n",
            "<div>\n- [ ] in html\n</div>\n\n- [ ] after html\n",
            "| a_b | c\\|d |\n|---|---|\n| - [ ] x | y |\n\n- [ ] after table\n",
            "[ref]: https://x.example/a_b*c\n- [ ] uses [ref]\n",
            "- [ ] item *with `code` and [link](x)* ~~s~~\n  continuation *a*\n  - [x] sub **b**\n",
            "> - [ ] quoted *a*\n> > - [/] deeper `b`\n",
            "1. [ ] one\n2) [x] two\n",
            "\u{FEFF}* [x] *Ana* after a byte-order mark\n",
            "\u{FEFF}- [ ] **a** and _b_\n",
            // Lines cut short for cmark-gfm (CmarkInput.shortCopy) must keep their blocks.
            "[1]:\nhttp://x.example \"title\ncontinued here\"\n- [ ] a\n",
            "- [foo]: /url\n- [ ] b\n",
            "[foo\nbar]: /url 'the\ntitle'\n\n- [ ] after\n",
            "[not a definition] at all\nsome words\n- [ ] a\n",
            "<!-- start\ntext here -->\n- [ ] a\n",
            "<!--\n\nsome words\n\n- [ ] in comment\nend of it -->\n- [ ] after\n",
            "<pre>\nwords here\n\n- [ ] in pre\nmore words </pre>\n- [ ] after\n",
            "Header words\n|---|\nrow words\n\n- [ ] after table\n",
            "Head one | two\n--- | ---\ncell a | cell b\nplain row words\n- [ ] a\n",
            "1. <div>\n- [ ] in html?\n</div>\n\n- [ ] after\n",
            "```js code words\n- [ ] fake\n```\n- [ ] real\n",
            "~~~ info words\n- [ ] fake\n~~~\n- [ ] real\n",
            "Some title words\n---\n- [ ] a\nUnder words\n===\n",
            "- [ ] é text\n  ü more words\n  - [x] 日本 sub\n",
            "- [ ] a words\r\n  notes here\r\n- [x] b words\r  more\r",
            "\u{FEFF}Title words\n===\n- [ ] a\n",
            "> - [ ] quoted item\ncontinued lazily here\n- [ ] b\n",
            "[ref]: https://x.example\n\n- [ ] uses it\n",
            "- [ ] a\n\n      indented code words\n- [ ] b\n",
            "Para words\n    - [ ] not an item\n1. [ ] one\n",
            "[ ] a\n[x]: /u\n\n- [ ] b\n",
            "- [ ]\n- [x]\n  - [ ] c\n",
            "| [ ] | x |\n|---|---|\n| [x] | y |\n",
            "\\[ ] x\n- [ ] y\n",
            "[ ] # not a heading\n- - [ ] x\n-[ ] y\n",
            "- [ ] x > y\n- [ ] z\n",
            "[a\n]: /url\n- [ ] after\n",
            "- [link](x) words\n- [ ] [nested] box\n",
            "> [ ] quoted\n> [q]: /u\n",
        ])
    func sameBlocksOnTrickyInput(text: String) {
        assertSameBlocks(Array(text.utf8), text)
        assertShortCopyMatches(Array(text.utf8), text)
    }
}

/// The fast JSON paths write exactly what serialising the whole value would.
@Suite("JSON output")
struct JSONOutputTests {
    @Test("items rendered in parallel chunks equal the whole document serialised")
    func parallelItemsDocumentMatchesSerialiser() throws {
        var text = "# L\n\n"
        for index in 0..<1500 { text += "- [ ] item \(index) \"quoted\" \\ tab\there due:2026-11-\(10 + index % 15) #t\(index % 7)\n" }
        let document = parse(text)
        let listed = readModel(document).items()
        let today = TaskDate(year: 2026, month: 11, day: 21)
        #expect(
            ItemJSON.itemsDocumentBytes(listed, context: ItemContext(today: today, dependencies: .none))
                == ItemJSON.items(listed, context: ItemContext(today: today, dependencies: .none)).serializedBytes(pretty: true))
        #expect(
            ItemJSON.itemsDocumentBytes([EncodedListedItem](), context: ItemContext(today: today, dependencies: .none))
                == ItemJSON.items([EncodedListedItem](), context: ItemContext(today: today, dependencies: .none)).serializedBytes(pretty: true))
    }

    @Test("every fixture's items print the same bytes through the fast writer", arguments: TestPaths.allMarkdownFiles())
    func fastWriterMatchesSerialiser(file: URL) throws {
        let document = DocumentParser.parse(try FileIO.read(file.path), path: file.lastPathComponent)
        let listed = readModel(document).items()
        let today = TaskDate(year: 2026, month: 11, day: 21)
        #expect(
            ItemJSON.itemsDocumentBytes(listed, context: ItemContext(today: today, dependencies: .none))
                == ItemJSON.items(listed, context: ItemContext(today: today, dependencies: .none)).serializedBytes(pretty: true))
    }

    @Test("dates print as ISO text")
    func isoDates() {
        #expect(TaskDate(year: 2026, month: 1, day: 5).isoString == "2026-01-05")
        #expect(TaskDate(year: 987, month: 12, day: 31, minuteOfDay: 9 * 60 + 5).isoString == "0987-12-31T09:05")
    }
}
