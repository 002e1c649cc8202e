import Foundation
import Testing
@testable import TickKit

/// cmark-gfm parses a copy of the file in which inline-only markup is
/// neutralised; the blocks it finds must be the same as from the real bytes.
@Suite("cmark input neutralisation")
struct CmarkInputTests {
    /// What the block structure decides: items and sections, with ranges.
    func blocks(_ document: Document) -> [String] {
        document.items.map { "\($0.line) \($0.status) \($0.boxRange) \($0.blockRange) \($0.depth) \(String(describing: $0.parent)) \(String(describing: $0.section)) \($0.notes ?? "-")" }
            + document.sections.map { "section \($0.line) \($0.level) \($0.title)" }
    }

    func assertSameBlocks(_ bytes: [UInt8], _ label: String) {
        let fast = DocumentParser.parse(bytes, path: "x.md", neutralizeInlines: true)
        let plain = DocumentParser.parse(bytes, path: "x.md", neutralizeInlines: false)
        #expect(blocks(fast) == blocks(plain), "\(label)")
        #expect(fast.items.map(\.title) == plain.items.map(\.title), "\(label)")
    }

    @Test("fixtures and examples give the same blocks either way", arguments: TestPaths.allMarkdownFiles())
    func sameBlocksOnFixtures(file: URL) throws {
        assertSameBlocks(try FileIO.read(file.path), file.lastPathComponent)
    }

    @Test("tricky block starts give the same blocks either way", arguments: [
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
    ])
    func sameBlocksOnTrickyInput(text: String) {
        assertSameBlocks(Array(text.utf8), text)
    }
}
