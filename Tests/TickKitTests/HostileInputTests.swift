import Foundation
import Testing

@testable import TickModel

/// No input crashes the parser, and odd bytes keep exact positions.
@Suite("Hostile input")
struct HostileInputTests {
    @Test("invalid UTF-8 is flagged, diagnosed, and items around it still parse")
    func invalidUTF8() {
        let bytes = Array("- [ ] before\n- [ ] bad ".utf8) + [0xFF, 0xFE, 0xC3] + Array(" due:2026-11-24\n- [x] after\n".utf8)
        let document = parse(bytes: bytes)
        #expect(!document.isValidUTF8)
        #expect(document.items.map(\.line) == [1, 2, 3])
        #expect(document.items[1].metadata.due == TaskDate(year: 2026, month: 11, day: 24))
        #expect(document.diagnostics.contains { $0.message.contains("UTF-8") && $0.line == 2 && $0.column == 11 })
    }

    @Test("NUL bytes do not shift ranges")
    func nulBytes() {
        let bytes = Array("- [ ] a".utf8) + [0, 0] + Array(" b due:2026-11-24\n".utf8)
        let document = parse(bytes: bytes)
        let token = document.items[0].runs.tokens[0]
        #expect(document.slice(token.range) == "due:2026-11-24")
        #expect(document.isValidUTF8)
    }

    @Test("a 10 MB single line parses without crashing")
    func tenMegabyteLine() {
        var bytes = Array("- [ ] ".utf8)
        let chunk = Array("word *em* [x](y) `c` #tag due:2026-11-24 ".utf8)
        while bytes.count < 10_000_000 { bytes += chunk }
        let document = parse(bytes: bytes)
        #expect(document.items.count == 1)
        #expect(document.items[0].metadata.tags == ["tag"])
    }

    @Test("pathological delimiters and brackets stay linear and do not crash")
    func pathologicalInline() {
        for unit in ["*a_", "[", "](", "<a", "`", "**_", "![", "&#", "~~"] {
            let line = "- [ ] " + String(repeating: unit, count: 100_000)
            let document = parse(line)
            #expect(document.items.count == 1, "\(unit)")
        }
    }

    @Test("1,000 levels of nested items parse, with depth and parent right")
    func deepNesting() {
        var text = ""
        for level in 0..<1000 { text += String(repeating: "  ", count: level) + "- [ ] level \(level)\n" }
        let document = parse(text)
        #expect(document.items.count >= 100)
        for item in document.items.dropFirst() {
            #expect(item.parent == item.index - 1)
            #expect(item.depth == item.index)
        }
    }

    @Test("1,000 nested block quotes and 1,000 nested plain lists do not crash")
    func deepContainers() {
        let quotes = String(repeating: ">", count: 1000) + " - [ ] deep\n"
        #expect(parse(quotes).items.count <= 1)
        var lists = ""
        for level in 0..<1000 { lists += String(repeating: "  ", count: level) + "- level\n" }
        lists += String(repeating: "  ", count: 1000) + "- [ ] leaf\n"
        _ = parse(lists)
    }

    @Test("a list named after its file: the path's last component, without .md or .markdown")
    func namesFromPaths() {
        // What splitting the path String by Character gives (the parser splits ASCII paths by bytes).
        func expected(_ path: String) -> String {
            let stem = path.split(separator: "/").last.map(String.init) ?? path
            return stem.hasSuffix(".markdown") ? String(stem.dropLast(9)) : (stem.hasSuffix(".md") ? String(stem.dropLast(3)) : stem)
        }
        for path in [
            "inbox.md", "a/b/c.md", "a/b/", "a//b.markdown", "/", "", "x", "dir/ü.md", "dir/\u{301}x.md",
            "dir\u{301}/x.md", "é/\u{301}", "a/.md", "a/b.md/", "tab\t/x.md", "cr\r\n/x.md",
        ] {
            #expect(parse("", path: path).name == expected(path), "\(path.debugDescription)")
        }
    }

    @Test("empty files, front matter only, and unterminated front matter")
    func emptyAndFrontMatterOnly() {
        #expect(parse("").items.isEmpty)
        #expect(parse("", path: "inbox.md").name == "inbox")
        let onlyFrontMatter = parse("---\ntitle: T\n---\n")
        #expect(onlyFrontMatter.name == "T")
        #expect(onlyFrontMatter.items.isEmpty)
        let unterminated = parse("---\n- [ ] a\n")
        #expect(unterminated.frontMatter == nil)
        #expect(unterminated.items.count == 1)
    }

    @Test("random bytes never crash and every range stays inside the file")
    func randomBytes() {
        var generator = SeededGenerator(seed: 42)
        let alphabet = Array("- [x]>*_`~\\&#!:\n\r\t 1.)abc📅é".utf8) + [0, 0xFF, 0xC3]
        for _ in 0..<300 {
            let count = Int.random(in: 0..<400, using: &generator)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            let document = parse(bytes: bytes)
            for item in document.items {
                #expect(item.blockRange.upperBound <= bytes.count)
                #expect(item.boxRange.upperBound <= item.titleRange.lowerBound)
                for run in item.runs {
                    #expect(run.range.lowerBound >= item.titleRange.lowerBound && run.range.upperBound <= item.titleRange.upperBound)
                }
            }
        }
    }
}

/// A deterministic random number generator (SplitMix64) for reproducible tests.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
