import Foundation
import Testing

@testable import TickModel
@testable import TickSyntax

/// Inline styles become runs with exact byte ranges (SPEC §3.1).
@Suite("Title runs")
struct TitleRunTests {
    /// The runs of the only item of `- [ ] TITLE`, as (text, styles, sliced bytes).
    func runs(_ title: String) -> [(String, InlineStyles, String)] {
        let document = parse("- [ ] " + title)
        return document.items[0].runs.map { ($0.text, $0.styles, document.slice($0.range)) }
    }

    @Test("strong, emphasis, code and strikethrough keep their content bytes only")
    func stylesExcludeTheirMarkup() {
        let result = runs("a **b** *c* `d` ~~e~~")
        #expect(result.map(\.0) == ["a ", "b", " ", "c", " ", "d", " ", "e"])
        #expect(result[1].1 == .strong)
        #expect(result[3].1 == .emphasis)
        #expect(result[5].1 == .code)
        #expect(result[7].1 == .strikethrough)
        #expect(result.allSatisfy { $0.0 == $0.2 })
    }

    @Test("nested emphasis inside strong carries both styles")
    func nestedStyles() {
        let result = runs("***both*** and **strong *inner***")
        #expect(result[0].0 == "both")
        #expect(result[0].1 == [.strong, .emphasis])
        #expect(result.last?.0 == "inner")
        #expect(result.last?.1 == [.strong, .emphasis])
    }

    @Test("a link's text carries the link style and its URL; the URL is not a run")
    func linkRuns() {
        let document = parse("- [ ] see [the **docs**](https://example.com/a_(b)) now")
        let runs = document.items[0].runs
        #expect(runs.map(\.text) == ["see ", "the ", "docs", " now"])
        #expect(runs[1].url == "https://example.com/a_(b)")
        #expect(runs[2].styles == [.link, .strong])
        #expect(document.items[0].title == "see the docs now")
    }

    @Test("autolinks and bare URLs are runs whose text is the URL")
    func autolinks() {
        let document = parse("- [ ] <https://a.example> and https://b.example/x.")
        let runs = document.items[0].runs
        #expect(runs[0].styles == .autolink)
        #expect(runs[0].text == "https://a.example")
        #expect(document.slice(runs[0].range) == "https://a.example")
        #expect(runs[2].text == "https://b.example/x")
        #expect(runs[3].text == ".")
    }

    @Test("backslash escapes and entities are decoded in the text but kept in the range")
    func escapesAndEntities() {
        let document = parse("- [ ] Tom \\& Jerry &amp; \\*stars\\*")
        let run = document.items[0].runs[0]
        #expect(run.text == "Tom & Jerry & *stars*")
        #expect(document.slice(run.range) == "Tom \\& Jerry &amp; \\*stars\\*")
    }

    @Test("unmatched delimiters and brackets stay literal text")
    func unmatchedDelimitersAreText() {
        #expect(parse("- [ ] 2 * 3 = 6 [sic").items[0].title == "2 * 3 = 6 [sic")
        #expect(parse("- [ ] snake_case_name").items[0].title == "snake_case_name")
        #expect(parse("- [ ] `unclosed code").items[0].title == "`unclosed code")
    }

    @Test("code spans strip one space on each side, as CommonMark does")
    func codeSpanSpaces() {
        let document = parse("- [ ] `` a ` b ``")
        let code = document.items[0].runs[0]
        #expect(code.text == "a ` b")
        #expect(document.slice(code.range) == "a ` b")
    }

    @Test("a title converts to an AttributedString with styles, source ranges and tokens")
    func attributedStringBridge() {
        let document = parse("- [ ] Buy **milk** due:2026-11-24 [docs](https://x.example)")
        let title = AttributedString(title: document.items[0].runs)
        #expect(String(title.characters) == "Buy milk due:2026-11-24 docs")
        let attributes = title.runs.map { ($0.tick.inlineStyles, $0.tick.metadataField, $0.tick.metadataValue, $0.link) }
        #expect(attributes.contains { $0.0 == .strong })
        #expect(attributes.contains { $0.1 == "due" && $0.2 == "2026-11-24" })
        #expect(attributes.contains { $0.3 == URL(string: "https://x.example") })
        let ranges = title.runs.compactMap { $0.tick.sourceRange }
        #expect(ranges.map { document.slice($0) } == ["Buy ", "milk", " ", "due:2026-11-24", " ", "docs"])
        let display = AttributedString(title: document.items[0].runs, includingTokens: false)
        #expect(String(display.characters) == "Buy milk docs")
    }
}

/// The shortcut for titles without markup must give what the full scan gives.
@Suite("Plain-title shortcut")
struct PlainTitleShortcutTests {
    @Test(
        "titles with and without markup give the same runs either way",
        arguments: [
            "Buy milk !high due:2026-11-24 #errand ^id1", "a 📅 2026-11-24 ⏫ [priority:: high]", "see https://x.example now",
            "visit www.example.com", "a\\#b", "`code` due:2026-01-01", "x & y", "a_b*c~d", "[link](u)", "Café 东京 🛒",
        ])
    func shortcutAgreesWithScanner(title: String) {
        let bytes = Array(title.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            let range = 0..<buffer.count
            var scanner = InlineScanner(bytes: buffer, range: range)
            let pieces = scanner.scan().filter { $0.kind != .markup && !$0.range.isEmpty }
            let onePlainPiece =
                pieces.count == 1 && pieces[0].styles.isEmpty && pieces[0].range == range
                && [InlineScanner.PieceKind.text, .delimiter, .bracket].contains(pieces[0].kind)
            // The shortcut may only be taken where the scanner finds one plain stretch.
            if TitleParser.isPlain(buffer, range) { #expect(onePlainPiece, "\(title)") }
        }
        let document = parse("- [ ] " + title)
        #expect(document.items[0].title == document.items[0].runs.displayTitle)
    }

    @Test("a parsed item knows whether its text holds markup, in a file that is not valid UTF-8 too")
    func parsedItemKnowsWhetherItsTextIsPlain() {
        let lines = [
            ("Buy milk due:2026-11-24 #errand", true), ("Buy *milk*", false), ("see www.example.com", false),
            ("a `code` span", false), ("Café 🛒 ⏫", true),
        ]
        for (line, plain) in lines {
            for validUTF8 in [true, false] {
                // A byte that is never UTF-8 in the title makes the whole file invalid.
                let bytes = Array("- [ ] \(line)".utf8) + (validUTF8 ? [] : [0x20, 0xFF, 0x7A]) + [0x0A]
                let document = parse(bytes: bytes)
                #expect(document.items.count == 1)
                #expect(document.items.first?.textIsPlain == plain, "\(line), valid UTF-8: \(validUTF8)")
            }
        }
    }

    @Test("the shortcut's display title, metadata and diagnostics are the full walk's, on generated titles")
    func shortcutSummaryAgreesWithWalk() {
        // Words that are, almost are, or are not tokens, in every dialect,
        // with markup now and then (then the shortcut must step aside).
        let words = [
            "Buy", "milk", "due:2026-11-24", "due:2026-02-30", "due:", "x:y", "a:b:c", "http://x.example", "key:/v",
            "every:week", "every:sometimes", "color:red", "color:nope", "icon:cart", "priority:high", "#tag", "#1",
            "#a/b-c_d", "#", "!high", "!nope", "!", "^id-1", "^", "📅", "2026-11-24", "⏫", "🔼", "✅", "🛒", "Café",
            "东京", "[due:: 2026-11-24]", "[priority:: high]", "[x::", "a_b", "*em*", "`code`", "www.example.com",
            "a.b", "x/y", "&amp;", "<b>", "done:2026-11-20T14:30", "created:2026-1-1", "\t", "  ", "z", "foo:bar",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let count = Int.random(in: 1...8, using: &generator)
            var title = (0..<count).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")
            if Bool.random(using: &generator) { title = title.replacingOccurrences(of: " ", with: "  ") }
            let bytes = Array(title.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                let shortcut = TitleParser.summarize(buffer, title: 0..<buffer.count, isValidUTF8: true)
                let walked = TitleParser.summarize(buffer, title: 0..<buffer.count, isValidUTF8: false)
                #expect(shortcut.title == walked.title, "\(title.debugDescription)")
                #expect(shortcut.metadata == walked.metadata, "\(title.debugDescription)")
                #expect(shortcut.diagnostics.map(\.offset) == walked.diagnostics.map(\.offset), "\(title.debugDescription)")
                #expect(shortcut.diagnostics.map(\.message) == walked.diagnostics.map(\.message), "\(title.debugDescription)")
                // Both paths say whether the title is plain, as `isPlain` does.
                let isPlain = TitleParser.isPlain(buffer, 0..<buffer.count)
                #expect(shortcut.isPlain == isPlain, "\(title.debugDescription)")
                #expect(walked.isPlain == isPlain, "\(title.debugDescription)")
            }
        }
    }
}
