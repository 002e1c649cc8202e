import Foundation
import Testing
import TickModel
import TickOutput
import TickRecords
import TickStore

/// CSV (RFC 4180) and iCalendar (RFC 5545) export.
@Suite struct ExportTests {
    static let errands = """
        # Errands
        ## Shop
        - [ ] Buy milk, eggs; and "cheese" \\ more !urgent due:2026-11-24 #errand #shop/food
          First line of notes.
          Second, with a comma; and a semicolon.
          - [ ] Check the fridge first
        - [x] Post the parcel done:2026-11-20 !low created:2026-11-01
        - [-] Return the lamp cancelled:2026-11-19
        - [/] Paint the fence start:2026-11-20 due:2026-11-28 every:week ^fence
        - [ ] Café crème brûlée séance naïveté façade déjà vu — a very long title that needs folding 🍰🍰🍰 due:2026-11-30T14:30
        """
    let folder = workspace(["errands.md": Self.errands])

    @Test func csvHasAHeaderAndQuotesAsRFC4180Says() {
        let csv = CSVWriter.write(folder.items)
        let records = csv.components(separatedBy: "\r\n")
        #expect(
            records[0] == "path,line,list,section,status,title,priority,due,scheduled,start,created,done,cancelled,every,tags,id,parent,depth,notes")
        // The notes' line break stays inside the quoted field.
        #expect(
            records[1]
                == #"errands.md,3,Errands,Shop,open,"Buy milk, eggs; and ""cheese"" \ more",urgent,2026-11-24,,,,,,,errand shop/food,,,0,"First line of notes."#
                + "\n" + #"Second, with a comma; and a semicolon.""#)
        #expect(records[2] == "errands.md,6,Errands,Shop,open,Check the fridge first,normal,,,,,,,,,,errands.md:3,1,")
        #expect(records.count == 8) // header, six items, and the empty string after the last CRLF
        #expect(csv.hasSuffix("\r\n"))
        #expect(!csv.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
    }

    /// The CSV of `items` built field by field from strings, quoted by
    /// RFC 4180 and the formula rule on characters: the reference the byte
    /// writer is checked against.
    static func referenceCSV(_ items: [EncodedListedItem]) -> String {
        func quoted(_ field: String) -> String {
            if let first = field.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) {
                return "\"'" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return field }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        var text = CSVWriter.columns.map(quoted).joined(separator: ",") + "\r\n"
        for item in items {
            let dates = [MetadataField.due, .scheduled, .start, .created, .done, .cancelled].map { item.date($0)?.isoString ?? "" }
            let fields =
                [
                    item.listPath, String(item.line), item.listName, item.sectionTitle?.string ?? "", item.status.rawValue,
                    item.title.string, item.priority.name,
                ] + dates
                + [
                    item.every?.string ?? "", item.tags.map(\.string).joined(separator: " "), item.id?.string ?? "",
                    item.parentReference ?? "", String(item.depth), item.notes?.string ?? "",
                ]
            text += fields.map(quoted).joined(separator: ",") + "\r\n"
        }
        return text
    }

    @Test("the CSV of every fixture's items is the reference built from their strings", arguments: TestPaths.allMarkdownFiles())
    func csvAgreesWithReference(file: URL) throws {
        let items = workspace([file.lastPathComponent: String(decoding: try FileIO.read(file.path), as: UTF8.self)]).items
        #expect(CSVWriter.write(items) == Self.referenceCSV(items))
    }

    @Test func csvOfFieldsThatNeedQuotingAgreesWithReference() {
        let hostile = workspace([
            "=sum.md": "# @list, \"quoted\"\n## -section\n- [ ] +1 \"a\",b #x #\"y\" ^id1\n  note\r\n  more\n- [ ] -2 every:week\n"
        ]).items
        #expect(CSVWriter.write(hostile) == Self.referenceCSV(hostile))
        #expect(CSVWriter.write(folder.items) == Self.referenceCSV(folder.items))
    }

    @Test func csvQuotingRules() {
        #expect(CSVWriter.quoted("plain") == "plain")
        #expect(CSVWriter.quoted("a,b") == "\"a,b\"")
        #expect(CSVWriter.quoted("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVWriter.quoted("two\nlines") == "\"two\nlines\"")
    }

    @Test func icsLinesEndInCRLFAndFoldAt75Octets() {
        let calendar = ICalendarWriter.write(folder.items, stamp: "20261121T000000Z")
        #expect(calendar.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:"))
        #expect(calendar.hasSuffix("END:VCALENDAR\r\n"))
        let bytes = Array(calendar.utf8)
        var lines: [[UInt8]] = [[]]
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D {
                #expect(index + 1 < bytes.count && bytes[index + 1] == 0x0A, "a CR without LF")
                lines.append([])
                index += 2
                continue
            }
            #expect(bytes[index] != 0x0A, "a bare LF")
            lines[lines.count - 1].append(bytes[index])
            index += 1
        }
        #expect(lines.allSatisfy { $0.count <= 75 })
        #expect(lines.contains { $0.first == 0x20 }, "the long title was not folded")
        // Folding never splits a UTF-8 sequence: every physical line is valid UTF-8.
        #expect(lines.allSatisfy { String(validating: $0.dropFirst(0), as: UTF8.self) != nil })
    }

    @Test func icsEscapesText() {
        #expect(ICalendarWriter.escaped("a,b;c\\d\ne") == "a\\,b\\;c\\\\d\\ne")
        #expect(ICalendarWriter.fold(String(repeating: "x", count: 80)) == String(repeating: "x", count: 75) + "\r\n " + "xxxxx\r\n")
    }

    @Test("every ASCII character, every C1 control and the no-break space are escaped, kept or dropped as TEXT requires")
    func icsEscapingOfEachCharacter() {
        for value in UInt32(0)...0xA0 {
            let character = Character(Unicode.Scalar(value)!)
            let expected: String
            switch value {
            case 0x5C, 0x3B, 0x2C: expected = "\\" + String(character)
            case 0x0D, 0x0A: expected = "\\n"
            case 0x09: expected = "\t"
            case 0x00..<0x20, 0x7F, 0x80...0x9F: expected = ""
            default: expected = String(character)
            }
            // At places of an eight-byte word, and in the bytes after the last whole word.
            for (before, after) in [(0, 9), (1, 9), (3, 9), (7, 9), (8, 9), (0, 0), (8, 0), (9, 1), (17, 2)] {
                let (head, tail) = (String(repeating: "a", count: before), String(repeating: "b", count: after))
                #expect(
                    ICalendarWriter.escaped(head + String(character) + tail) == head + expected + tail,
                    "U+\(String(value, radix: 16)) after \(before) bytes")
            }
        }
    }

    @Test("folding fills each line as far as a whole character allows, and unfolding gives the line back")
    func icsFoldingIsGreedyAndNeverSplitsACharacter() {
        // One-, two-, three- and four-byte characters, so that cuts fall inside each kind.
        for shift in 0..<4 {
            let line = "SUMMARY:" + String(repeating: "a", count: shift) + String(repeating: "aé€😀", count: 40)
            let folded = ICalendarWriter.fold(line)
            #expect(folded.hasSuffix("\r\n"))
            // "\r\n" is one Character.
            let physical = folded.dropLast().components(separatedBy: "\r\n")
            #expect(physical.dropFirst().allSatisfy { $0.hasPrefix(" ") })
            #expect(physical.first! + physical.dropFirst().map { String($0.dropFirst()) }.joined() == line)
            #expect(physical.allSatisfy { $0.utf8.count <= 75 })
            // Greedy: the first character of the next line would not have fitted.
            for (index, text) in physical.dropLast().enumerated() {
                let next = physical[index + 1].dropFirst().first!
                #expect(text.utf8.count + String(next).utf8.count > 75, "line \(index) could have held one more character")
            }
        }
    }

    @Test func icsUIDsAreStable() {
        let first = ICalendarWriter.write(folder.items, stamp: "20261121T000000Z")
        let second = ICalendarWriter.write(
            workspace(["errands.md": Self.errands]).items,
            stamp: "20261121T000000Z")
        #expect(first == second)
        let fence = folder.items.first { $0.title.string == "Paint the fence" }!
        #expect(ICalendarWriter.uid(fence) == "fence@tick")
        let uids = folder.items.map(ICalendarWriter.uid)
        #expect(Set(uids).count == uids.count)
    }

    @Test("a UID counts the items above with the same title as text compares it: composed and decomposed accents are one title")
    func uidsCountCanonicallyEquivalentTitlesAsOne() {
        let composed = "Caf\u{E9}"
        let decomposed = "Cafe\u{301}"
        let items = workspace(["cafe.md": "# Cafe\n- [ ] \(composed)\n- [ ] \(decomposed)\n- [ ] \(decomposed)\n"]).items
        func expected(_ title: String, earlier: Int) -> String {
            let hex = String(FNV1a.hash("cafe.md\u{0}\(title)\u{0}\(earlier)"), radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex + "@tick"
        }
        #expect(
            items.map(ICalendarWriter.uid) == [expected(composed, earlier: 0), expected(decomposed, earlier: 1), expected(decomposed, earlier: 2)])
    }

    @Test("a UID counts the items above with the same title, byte for byte, wherever they are in the list")
    func uidsCountEarlierItemsWithTheSameTitle() {
        let titles = ["Water plants", "Call mum", "Water plants", "Water plant", "Water plants", "Call mum", "water plants"]
        let items = workspace(["chores.md": "# Chores\n" + titles.map { "- [ ] \($0)\n" }.joined()]).items
        func expected(_ title: String, earlier: Int) -> String {
            let hex = String(FNV1a.hash("chores.md\u{0}\(title)\u{0}\(earlier)"), radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex + "@tick"
        }
        let earlier = [0, 0, 1, 0, 2, 1, 0]
        #expect(items.map(ICalendarWriter.uid) == zip(titles, earlier).map { expected($0, earlier: $1) })
    }

    @Test("the cache keeps each item's UID hash, counting the titles above as text compares them, in short and long lists")
    func theCacheKeepsEachItemsUIDHash() {
        func expected(_ path: String, _ titles: [String]) -> [UInt64] {
            var seen: [String: Int] = [:]
            return titles.map { title in
                defer { seen[title, default: 0] += 1 }
                return FNV1a.hash("\(path)\u{0}\(title)\u{0}\(seen[title] ?? 0)")
            }
        }
        let titles = ["Water plants", "Cafe\u{301}", "Water plants", "Caf\u{E9}", "water plants", "Call mum", "Water plants"]
        let short = workspace(["chores.md": "# Chores\n" + titles.map { "- [ ] \($0)\n" }.joined()]).items
        #expect(short.map(\.uidHash) == expected("chores.md", titles))
        // A list past 64 items counts by hash; with a title that is not ASCII, as text compares.
        let long = (0..<100).map { $0 % 40 == 7 ? "Same" : "Chore \($0)" }
        let items = workspace(["long.md": "# Long\n" + long.map { "- [ ] \($0)\n" }.joined()]).items
        #expect(items.map(\.uidHash) == expected("long.md", long))
        let accented = (0..<100).map { $0 == 10 ? "Caf\u{E9}" : $0 == 70 ? "Cafe\u{301}" : $0 == 90 ? "Caf\u{E9}" : "Chore \($0 % 60)" }
        let mixed = workspace(["accents.md": "# Accents\n" + accented.map { "- [ ] \($0)\n" }.joined()]).items
        #expect(mixed.map(\.uidHash) == expected("accents.md", accented))
        // Café in its other spelling counts the one above.
        #expect(mixed[70].uidHash == FNV1a.hash("accents.md\u{0}Cafe\u{301}\u{0}1"))
    }

    @Test("the cache marks a title plain only when it is printable ASCII without quote, backslash, comma or semicolon")
    func theCacheMarksPlainASCIITitles() {
        let titles = [
            "Water plants", "Call mum, then dad", "Pay rent; soon", "Say \"hi\"", "C:\\temp", "Caf\u{E9}", "~!@#$%^&*()_+{}|:<>?`-=[]'./",
        ]
        let items = workspace(["titles.md": "# Titles\n" + titles.map { "- [ ] \($0)\n" }.joined()]).items
        #expect(items.map(\.title.string) == titles)
        #expect(items.map(\.title.isPlainASCII) == [true, false, false, false, false, false, true])
        // Written as it is, or escaped, the same either way.
        let calendar = ICalendarWriter.write(items, stamp: "20261121T000000Z")
        #expect(calendar.contains("SUMMARY:Call mum\\, then dad\r\n") && calendar.contains("SUMMARY:Water plants\r\n"))
    }

    @Test("each subtask's RELATED-TO is its parent's UID, for parents written before it, left out (done) or shared by siblings")
    func relatedToIsTheParentsUIDWhateverWasWrittenBefore() throws {
        let text = """
            # Chores
            - [ ] Paint
              - [ ] Buy paint
              - [ ] Paint
              - [ ] Clean brushes
            - [x] Garden
              - [ ] Rake
              - [ ] Rake
                - [ ] Bag leaves
              - [ ] Water
            - [ ] Paint
              - [ ] Tape edges ^tape
                - [ ] Buy tape
            """
        let items = workspace(["chores.md": text + "\n"]).items
        let parentUID = { (child: EncodedListedItem) -> String? in
            child.parentIndex.map { ICalendarWriter.uid(EncodedListedItem(document: child.document, index: $0, listRank: child.listRank)) }
        }
        for written in [items, items.filter(\.status.isOpen)] {
            let calendar = ICalendarWriter.write(written, stamp: "20261121T000000Z")
            let unfolded = calendar.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
            let components = unfolded.split(separator: "BEGIN:VTODO").dropFirst()
            #expect(components.count == written.count)
            for (item, lines) in zip(written, components) {
                let related = lines.first { $0.hasPrefix("RELATED-TO;RELTYPE=PARENT:") }.map { String($0.dropFirst(26)) }
                #expect(related == parentUID(item), "\(item.title.string)")
            }
        }
        #expect(Set(items.compactMap(parentUID)).count == 5)
    }

    @Test("in a long list too, a UID counts the items above with the same title, byte for byte")
    func uidsCountEarlierItemsWithTheSameTitleInALongList() {
        // 150 items: seven titles, one of them also with a trailing letter, in an order with no period.
        let titles = (0..<150).map { index in index % 11 == 4 ? "Water plants!" : "Chore \(index * index % 7)" }
        let items = workspace(["long/chores.md": "# Chores\n" + titles.map { "- [ ] \($0)\n" }.joined()]).items
        var seen: [String: Int] = [:]
        let expected = titles.map { title in
            defer { seen[title, default: 0] += 1 }
            let hex = String(FNV1a.hash("long/chores.md\u{0}\(title)\u{0}\(seen[title] ?? 0)"), radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex + "@tick"
        }
        #expect(items.map(ICalendarWriter.uid) == expected)
        #expect(seen["Water plants!"]! > 10)
    }

    @Test("a calendar of many items, written a chunk at a time on every core, holds each item once, in order, with its own UID")
    func icsOfManyItemsKeepsTheirOrderAndUIDs() {
        // Three titles over and over: the UIDs count earlier items with the
        // same title, across the chunks each core writes.
        let lines = (0..<1_500).map { "- [ ] Chore \($0 % 3) due:2026-12-0\($0 % 9 + 1)" }
        let items = workspace(["chores.md": "# Chores\n" + lines.joined(separator: "\n") + "\n"]).items
        let calendar = ICalendarWriter.write(items, stamp: "20261121T000000Z")
        let unfolded = calendar.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        let uids = unfolded.filter { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
        #expect(uids == items.map(ICalendarWriter.uid))
        #expect(Set(uids).count == items.count)
        #expect(unfolded.filter { $0.hasPrefix("DUE;VALUE=DATE:") } == items.map { "DUE;VALUE=DATE:202612\($0.date(.due)!.isoString.suffix(2))" })
        #expect(unfolded.first == "BEGIN:VCALENDAR" && unfolded.dropLast().last == "END:VCALENDAR")
    }

    @Test(.enabled(if: PythonICalendar.isAvailable, "needs Python's icalendar; pip could not install it"))
    func aRealICalendarParserReadsTheExport() throws {
        let calendar = ICalendarWriter.write(folder.items, stamp: "20261121T000000Z")
        let todos = try PythonICalendar.parse(calendar)
        #expect(todos.count == 6)

        let milk = todos[0]
        #expect(milk["SUMMARY"] as? String == #"Buy milk, eggs; and "cheese" \ more"#)
        #expect(milk["DESCRIPTION"] as? String == "First line of notes.\nSecond, with a comma; and a semicolon.")
        #expect(milk["DUE"] as? String == "2026-11-24")
        #expect(milk["DUE;TYPE"] as? String == "date")
        #expect(milk["PRIORITY"] as? Int == 1)
        #expect(milk["STATUS"] as? String == "NEEDS-ACTION")
        #expect(milk["CATEGORIES"] as? [String] == ["errand", "shop/food"])
        #expect(milk["DTSTAMP"] as? String == "2026-11-21T00:00:00+00:00")

        let fridge = todos[1]
        #expect(fridge["RELATED-TO"] as? String == milk["UID"] as? String)

        let parcel = todos[2]
        #expect(parcel["STATUS"] as? String == "COMPLETED")
        #expect(parcel["COMPLETED"] as? String == "2026-11-20T12:00:00+00:00")
        #expect(parcel["PRIORITY"] as? Int == 7)

        #expect(todos[3]["STATUS"] as? String == "CANCELLED")

        let fence = todos[4]
        #expect(fence["STATUS"] as? String == "IN-PROCESS")
        #expect(fence["UID"] as? String == "fence@tick")
        #expect(fence["DTSTART"] as? String == "2026-11-20")
        #expect(fence["RRULE"] != nil)

        let cafe = todos[5]
        #expect(cafe["SUMMARY"] as? String == "Café crème brûlée séance naïveté façade déjà vu — a very long title that needs folding 🍰🍰🍰")
        #expect(cafe["DUE"] as? String == "2026-11-30T14:30:00")
    }

    @Test(.enabled(if: PythonICalendar.isAvailable, "needs Python's icalendar; pip could not install it"))
    func theExamplesExportParses() throws {
        let examples = EncodedWorkspace.load(try NotesFolder(path: TickRunner.packageRoot.appendingPathComponent("examples").path))
        let todos = try PythonICalendar.parse(ICalendarWriter.write(examples.items, stamp: "20261121T000000Z"))
        #expect(todos.count == examples.items.count)
        #expect(todos.allSatisfy { $0["UID"] != nil && $0["DTSTAMP"] != nil && $0["SUMMARY"] != nil })
    }
}
