import Foundation
import Testing
import TickModel

/// One display title everywhere (issue 14.11): the JSON `title`, the text
/// `tick show` prints, the `AttributedString` without tokens and the runs'
/// display title agree on tricky white space, as `TitleWhiteSpace` says.
@Suite struct DisplayTitleTests {
    /// Titles as written after `- [ ] `, and the display title each must give.
    static let table: [(source: String, display: String)] = [
        ("a  \u{301}b", "a \u{301}b"), // two spaces, then a combining accent
        ("a\u{A0}\u{A0}b", "a\u{A0}\u{A0}b"), // no-break spaces are kept as written
        ("a \u{A0} b", "a \u{A0} b"),
        ("a&nbsp;&nbsp;b", "a\u{A0}\u{A0}b"), // the same, from entities
        ("a\t\tb\t \tc", "a b c"), // tabs are white space
        ("tab\t\u{301}x", "tab \u{301}x"),
        ("end \u{301}", "end \u{301}"),
        ("e\u{301}  \u{20DD} ring", "e\u{301} \u{20DD} ring"),
        ("a due:2026-11-24 b", "a b"), // tokens between words
        ("a  #tag  b", "a b"),
        ("🛒 milk 📅 2026-11-24 more  🔁 every week", "🛒 milk more"), // emoji tokens
        (
            "**bold**  *it*   `code  x`  ~~old~~ [link  text](https://x.example) end",
            "bold it code x old link text end"
        ),
        ("x **a \u{301}** y", "x a \u{301} y"), // a combining mark after a space inside a styled run
        ("**a** \u{301}b", "a \u{301}b"),
        ("**a** \t *b*  c", "a b c"), // white space across runs: one space
        ("a \\# b", "a # b"),
    ]

    /// The table as one list, one item per line.
    static var file: String { table.map { "- [ ] " + $0.source + "\n" }.joined() }

    @Test("the runs' display title, item.title and the AttributedString's characters follow the rule")
    func inProcessAgree() {
        let document = parse(Self.file)
        #expect(document.items.count == Self.table.count)
        for (item, row) in zip(document.items, Self.table) {
            let attributed = AttributedString(title: item.runs, includingTokens: false)
            #expect(item.title == row.display, "\(row.source.debugDescription): title \(item.title.debugDescription)")
            #expect(item.runs.displayTitle == row.display, "\(row.source.debugDescription)")
            #expect(
                String(attributed.characters) == row.display,
                "\(row.source.debugDescription): AttributedString \(String(attributed.characters).debugDescription)")
        }
    }

    @Test("tick show --color never prints each JSON title exactly, and --color always the same characters")
    func jsonAndTerminalAgree() throws {
        let notes = try NotesFixture(["t.md": Self.file])
        let json = try notes.tick("show", "t", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let titles = try #require((object["items"] as? [[String: Any]])?.map { $0["title"] as? String ?? "" })
        #expect(titles == Self.table.map(\.display))
        for color in ["never", "always"] {
            var rows = try notes.tick("show", "t", "--color", color).stdout.split(separator: "\n").map(String.init)
            rows.removeFirst() // the list's heading
            if color == "always" {
                rows = rows.map {
                    $0.replacingOccurrences(
                        of: "\u{1B}\\[[0-9;]*m|\u{1B}\\]8;;[^\u{1B}]*\u{1B}\\\\", with: "",
                        options: .regularExpression)
                }
            }
            #expect(rows.count == titles.count)
            for (row, title) in zip(rows, titles) {
                // The box, the title, then nothing or the gap before the next column.
                let prefix = "☐ " + title
                let rest = row.hasPrefix(prefix) ? String(row.dropFirst(prefix.count)) : nil
                #expect(
                    rest.map { $0.isEmpty || $0.hasPrefix("  ") } == true,
                    "--color \(color): \(row.debugDescription) does not show \(title.debugDescription)")
            }
        }
    }
}
