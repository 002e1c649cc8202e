import Testing

@testable import TickModel

/// Template placeholders after a date signifier (issue 18: `tick check`
/// reports nothing Obsidian reads without complaint).
@Suite struct TemplatePlaceholderTests {
    @Test(
        "a Templater or Templates placeholder after a date signifier is text, with no diagnostic",
        arguments: [
            "- [ ] #task weekly review 🛫 <% tp.date.now(\"YYYY-MM-DD\", -9) %> 📅 <% tp.date.now() %>\n",
            "- [ ] #task call back 📅 {{date}}\n",
            "- [ ] #task call back ⏳ {{date:YYYY-MM-DD}} ➕ <%tp.file.creation_date()%>\n",
        ])
    func placeholdersAreText(line: String) {
        let document = parse(line)
        #expect(document.diagnostics.isEmpty, "\(document.diagnostics.map(\.message))")
        #expect(document.items.first?.metadata.due == nil && document.items.first?.metadata.start == nil)
        #expect(document.items.first?.title.contains("<%") == true || document.items.first?.title.contains("{{") == true)
    }

    @Test("a date that does not exist is still reported, as Obsidian Tasks shows it invalid")
    func impossibleDatesAreStillReported() {
        let document = parse("- [ ] pay 📅 2024-02-31\n")
        #expect(document.diagnostics.map(\.message) == ["invalid date in '📅 2024-02-31'; write the date as YYYY-MM-DD, e.g. 📅 2026-11-24"])
    }
}
