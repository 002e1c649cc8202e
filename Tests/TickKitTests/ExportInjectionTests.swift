import Foundation
import Testing
import TickOutput

/// Exports cannot carry formulas into a spreadsheet or control characters
/// into a calendar (issue 13.13).
@Suite("Export injection")
struct ExportInjectionTests {
    let folder = workspace([
        "=cmd.md": """
        ---
        title: "=HYPERLINK(\\"http://x\\")"
        ---
        ## @SUM(A1)
        - [ ] =1+2
        - [ ] +33 calls
        - [ ] -1 is fine? due:2026-11-24
        - [ ] @handle
        - [ ] plain title
          - note that is a bullet
        - [ ] a\u{1B}]0;pwn\u{07}b\u{7F}c\u{9B}d\te
        """
    ])

    @Test("CSV cells starting with =, +, -, @, tab or CR get a leading quote and are quoted, as OWASP recommends")
    func csvNeutralisesFormulas() {
        #expect(CSVWriter.quoted("=1+2") == "\"'=1+2\"")
        #expect(CSVWriter.quoted("+33") == "\"'+33\"")
        #expect(CSVWriter.quoted("-1") == "\"'-1\"")
        #expect(CSVWriter.quoted("@SUM(A1)") == "\"'@SUM(A1)\"")
        #expect(CSVWriter.quoted("\tx") == "\"'\tx\"")
        #expect(CSVWriter.quoted("\rx") == "\"'\rx\"")
        #expect(CSVWriter.quoted("=\"a\"") == "\"'=\"\"a\"\"\"")
        #expect(CSVWriter.quoted("a=b") == "a=b")
        #expect(CSVWriter.quoted("") == "")
    }

    @Test("every text cell of a CSV export is neutralised: titles, list names, sections, notes, paths")
    func csvExportNeutralisesEveryTextCell() {
        let records = CSVWriter.write(folder.items).components(separatedBy: "\r\n")
        #expect(records[1] == #""'=cmd.md",5,"'=HYPERLINK(""http://x"")","'@SUM(A1)",open,"'=1+2",normal,,,,,,,,,,,0,"#)
        #expect(records[2].contains(#","'+33 calls","#))
        #expect(records[3].contains(#","'-1 is fine?",normal,2026-11-24,"#))
        #expect(records[4].contains(#","'@handle","#))
        #expect(records[5].hasSuffix(#",0,"'- note that is a bullet""#))
        // No cell of any record starts a formula.
        for record in records.dropFirst() where !record.isEmpty {
            for cell in record.split(separator: ",", omittingEmptySubsequences: false) {
                #expect(!["=", "+", "-", "@"].contains(cell.first.map(String.init) ?? ""), "\(cell)")
            }
        }
    }

    @Test("the CSV export of the command line neutralises formulas too")
    func csvFromTheCommandLine() throws {
        let notes = try NotesFixture(["a.md": "# =List\n- [ ] =WEBSERVICE(\"http://x\")\n"])
        let result = try notes.tick("export", "--format", "csv")
        #expect(result.status == 0)
        #expect(result.stdout.contains(#"a.md,2,"'=List",,open,"'=WEBSERVICE(""http://x"")",normal"#))
    }

    @Test("iCalendar TEXT drops ESC, DEL, BEL and C1 controls, keeps the tab, escapes line breaks")
    func icsDropsControlCharacters() {
        #expect(ICalendarWriter.escaped("a\u{1B}]0;pwn\u{07}b\u{7F}c\u{9B}d\te") == "a]0\\;pwnbcd\te")
        #expect(ICalendarWriter.escaped("one\r\ntwo\rthree\nfour\u{0}") == "one\\ntwo\\nthree\\nfour")
        let calendar = ICalendarWriter.write(folder.items, stamp: "20261121T000000Z")
        let controls = calendar.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\r" && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
        }
        #expect(controls.isEmpty)
        #expect(calendar.contains("SUMMARY:a]0\\;pwnbcd e\r\n")) // the title collapses its white space
    }

    @Test(.enabled(if: PythonICalendar.isAvailable, "needs Python's icalendar; pip could not install it"))
    func aRealICalendarParserReadsTitlesThatHadControlCharacters() throws {
        let todos = try PythonICalendar.parse(ICalendarWriter.write(folder.items, stamp: "20261121T000000Z"))
        #expect(todos.count == 6)
        #expect(todos[5]["SUMMARY"] as? String == "a]0;pwnbcd e")
        #expect(todos[0]["SUMMARY"] as? String == "=1+2")
    }
}
