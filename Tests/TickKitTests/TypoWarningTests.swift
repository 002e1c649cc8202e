import Foundation
import Testing

@testable import TickModel
@testable import TickSyntax

/// A token tick cannot read in added or edited text is written as typed,
/// with a warning that names the nearest valid token (issue 14.6).
@Suite("Typo warnings")
struct TypoWarningTests {
    @Test("tick add warns about !hgih and every:fortnight, names !high and every:2w, and writes the text as typed")
    func addWarns() throws {
        let notes = try NotesFixture(["groceries.md": "# Groceries\n- [ ] a\n"])
        let result = try notes.tick("add", "groceries", "Test !hgih every:fortnight")
        #expect(result.status == 0)
        #expect(try notes.text("groceries.md") == "# Groceries\n- [ ] a\n- [ ] Test !hgih every:fortnight\n")
        let warnings = result.stderr.split(separator: "\n")
        try #require(warnings.count == 2, "\(result.stderr)")
        #expect(warnings[0].hasPrefix("tick: warning: groceries.md:3:12: unknown priority '!hgih' (did you mean !high?)"))
        #expect(
            warnings[1].hasPrefix("tick: warning: groceries.md:3:24: \(RecurrenceRule.diagnosticPrefix) 'fortnight'")
                && warnings[1].contains("(did you mean every:2w?)"), "\(warnings[1])")
    }

    @Test("tick edit warns about a typo in the new title, in every dialect's token")
    func editWarns() throws {
        let notes = try NotesFixture(["a.md": "- [ ] a\n"])
        let result = try notes.tick("edit", "a.md:1", "--title", "b !lwo color:gren [priority:: hihg]")
        #expect(result.status == 0)
        #expect(try notes.text("a.md") == "- [ ] b !lwo color:gren [priority:: hihg]\n")
        #expect(result.stderr.contains("'!lwo' (did you mean !low?)"))
        #expect(result.stderr.contains("'gren' (did you mean green?)"))
        #expect(result.stderr.contains("'hihg' (did you mean high?)"))
        #expect(result.stderr.split(separator: "\n").count == 3)
    }

    @Test("text whose tokens all read gives no warning")
    func cleanTextIsQuiet() throws {
        let notes = try NotesFixture(["a.md": "- [ ] a\n"])
        let result = try notes.tick("add", "a.md", "b !high every:2w color:green")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test("the nearest word allows a slip or a swap, never a guess")
    func nearestWord() {
        #expect(NearestWord.nearest(to: "hgih", among: MetadataScanner.priorityWords) == "high")
        #expect(NearestWord.nearest(to: "urgnet", among: MetadataScanner.priorityWords) == "urgent")
        #expect(NearestWord.nearest(to: "lw", among: MetadataScanner.priorityWords) == "low")
        #expect(NearestWord.nearest(to: "xyzzy", among: MetadataScanner.priorityWords) == nil)
        #expect(NearestWord.nearest(to: "gren", among: ListColor.names) == "green")
        #expect(MetadataScanner.recurrenceHint("fortnight") == " (did you mean every:2w?)")
        #expect(MetadataScanner.recurrenceHint("bananas") == "")
    }
}
