import Testing

@testable import TickModel
@testable import TickSyntax
@testable import TickSystem

/// cmark-gfm allocates from a per-parse arena (`ParseArena`): blocks that
/// grow in place, blocks copied when they grow, blocks too large for a chunk,
/// and parses on several threads at once must all give the same outline.
@Suite("Parse arena")
struct ParseArenaTests {
    func describe(_ outline: BlockOutline) -> String {
        let items = outline.items.map {
            "\($0.startLine):\($0.startColumn)-\($0.endLine) p\(String(describing: $0.paragraphLine)):\(String(describing: $0.paragraphColumn)) e\(String(describing: $0.enclosingItem)) q\($0.quoteDepth) o\($0.isOrdered)"
        }
        let headings = outline.headings.map { "h\($0.level) \($0.startLine):\($0.startColumn)-\($0.endLine)" }
        return (items + headings).joined(separator: "\n")
    }

    func outline(_ text: String, useArena: Bool = true) -> BlockOutline {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { CmarkBlockParser.outline(of: $0, useArena: useArena) }
    }

    @Test("large and growing blocks, and parses on every core, give the same outline")
    func sameOutline() {
        var texts: [String] = []
        // A paragraph of many lines grows its buffer past a chunk; a long line is a large block.
        texts.append("# Head\n\n- [ ] item\n" + String(repeating: "  continued line of the item\n", count: 5_000))
        texts.append("- [ ] " + String(repeating: "x", count: 200_000) + "\n- [x] next\n")
        texts.append(
            (0..<2_000).map { "\($0 % 7 == 0 ? "## Section \($0)" : "\(String(repeating: "  ", count: $0 % 4))- [ ] task \($0)")\n" }.joined())
        texts.append("> - [ ] quoted\n>   > 1. [x] deeper\n\n| a | b |\n| - | - |\n| 1 | 2 |\n")
        let expected = texts.map { describe(outline($0, useArena: false)) }
        #expect(expected[0].hasPrefix("3:1-5003 "))
        let again = Parallel.map(texts.count * 8) { index in describe(outline(texts[index % texts.count])) }
        for (index, result) in again.enumerated() { #expect(result == expected[index % texts.count]) }
    }
}
