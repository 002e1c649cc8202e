import Testing
import TickEngine
import TickModel
import TickOutput

/// The JSON documents of SPEC §6: keys, their order, and absent values.
@Suite struct JSONShapeTests {
    static let itemKeys =
        [
            "path", "line", "list", "section", "status", "title", "text", "priority", "due", "scheduled",
            "start", "created", "done", "cancelled", "every", "tags", "color", "icon", "id", "fields",
            "parent", "depth", "notes", "listColor", "listIcon", "dependsOn", "blocked", "urgency",
        ] + addedKeys
    /// The keys of the fields the field table adds (`MetadataField.keptInMore`), after the SPEC's.
    static let addedKeys = MetadataField.keptInMore.map { $0.spelling!.jsonKey! }
    static let context = ItemContext(today: Fixture.today, dependencies: .none)

    func keys(_ value: JSONValue?) -> [String] {
        if case .object(let pairs)? = value { return pairs.map(\.0) }
        return []
    }

    let folder = workspace([
        "groceries.md": """
        ---
        title: Groceries
        color: green
        icon: cart
        aisle: 4
        ---

        # Groceries

        ## Dairy
        - [ ] Buy **milk** !high due:2026-11-24 #errand
          Semi-skimmed, two bottles.
          - [ ] Check the fridge first
        - [x] Eggs done:2026-11-20 store:corner
        """,
        "plain.md": "- [ ] Lonely\n",
    ])

    @Test func anItemHasTheSpecsKeysInOrder() {
        let milk = folder.items.first { $0.title.string == "Buy milk" }!
        let json = ItemJSON.item(milk, context: Self.context)
        #expect(keys(json) == Self.itemKeys)
        #expect(
            json.serialized() == #"""
                {"path":"groceries.md","line":11,"list":"Groceries","section":"Dairy","status":"open","title":"Buy milk","text":"Buy **milk** !high due:2026-11-24 #errand","priority":"high","due":"2026-11-24","scheduled":null,"start":null,"created":null,"done":null,"cancelled":null,"every":null,"tags":["errand"],"color":null,"icon":null,"id":null,"fields":{},"parent":null,"depth":0,"notes":"Semi-skimmed, two bottles.","listColor":"green","listIcon":"cart","dependsOn":[],"blocked":false,"urgency":13.42857
                """# + Self.addedKeys.map { ",\"\($0)\":null" }.joined() + "}")
    }

    @Test func subtasksNameTheirParentAndDefaultsAreReported() {
        let fridge = folder.items.first { $0.title.string == "Check the fridge first" }!
        let json = ItemJSON.item(fridge, context: Self.context)
        #expect(json["parent"] == .string("groceries.md:11"))
        #expect(json["depth"] == .int(1))
        #expect(json["notes"] == .null)
        let lonely = folder.items.first { $0.title.string == "Lonely" }!
        let plain = ItemJSON.item(lonely, context: Self.context)
        #expect(plain["listColor"] == .string("blue"))
        #expect(plain["listIcon"] == .string("list.bullet"))
        #expect(plain["section"] == .null)
        let eggs = folder.items.first { $0.title.string == "Eggs" }!
        #expect(ItemJSON.item(eggs, context: Self.context)["fields"] == .object([("store", .string("corner"))]))
    }

    @Test func flatAndGroupedDocuments() {
        let flat = ItemJSON.items(folder.items, context: Self.context)
        #expect(keys(flat) == ["today", "items"])
        #expect(flat["today"] == .string("2026-11-21"))
        let grouped = ItemJSON.groups(Grouping.group(folder.items, by: .status, today: Fixture.today), context: Self.context)
        #expect(keys(grouped) == ["today", "groups"])
        guard case .array(let groups)? = grouped["groups"] else {
            Issue.record("no groups")
            return
        }
        #expect(groups.map(keys) == [["name", "items"], ["name", "items"]])
        #expect(groups.map { $0["name"] } == [.string("open"), .string("done")])
    }

    @Test("the groups document written piece by piece is the groups value pretty-printed, for every key and none")
    func groupsDocumentWrittenInPiecesIsTheValuesBytes() {
        // Lists of more items than a run holds, groups that start and end inside runs.
        let long = workspace(
            Dictionary(
                uniqueKeysWithValues: (0..<3).map { list in
                    (
                        "list\(list).md",
                        "# List \(list)\n" + (0..<150).map { "\($0 % 70 == 0 ? "## Part \($0)\n" : "")- [ ] item \($0) #t\($0 % 4)\n" }.joined()
                    )
                })
        ).items
        for items in [folder.items, Fixture.groups.items, Array(Fixture.groups.items.reversed()), [], long, long.reversed()] {
            for key in GroupKey.allCases {
                let groups = Grouping.group(items, by: key, today: Fixture.today)
                var written: [UInt8] = []
                ItemJSON.writeGroupsDocument(groups, context: Self.context) { written.append(contentsOf: $0) }
                let value = ItemJSON.groups(groups, context: Self.context).serializedBytes(pretty: true)
                #expect(String(decoding: written, as: UTF8.self) == String(decoding: value, as: UTF8.self), "\(key)")
            }
        }
    }

    @Test func listsAndHomeDocuments() {
        let lists = ItemJSON.lists(folder, today: Fixture.today)
        #expect(keys(lists) == ["today", "lists"])
        guard case .array(let entries)? = lists["lists"] else {
            Issue.record("no lists")
            return
        }
        #expect(Array(keys(entries[0]).prefix(6)) == ["name", "path", "color", "icon", "open", "done"])
        #expect(entries[0]["frontMatter"] == .object([("aisle", .int(4))]))
        #expect(entries[0]["open"] == .int(2))
        #expect(entries[0]["done"] == .int(1))
        #expect(entries[1]["name"] == .string("plain"))
        #expect(entries[1]["color"] == .string("blue"))

        let home = ItemJSON.home(folder, today: Fixture.today)
        #expect(keys(home) == ["today", "counts", "lists"])
        #expect(keys(home["counts"]) == ["today", "scheduled", "all", "overdue"])
    }

    /// The escaping written by hand (eight bytes at a time) against the
    /// plainest possible escaper, on strings full of bytes that need escaping
    /// at every position of an eight-byte word.
    @Test func stringsAreEscapedExactlyAsJSONRequires() {
        func reference(_ text: String) -> [UInt8] {
            var bytes: [UInt8] = [0x22]
            for byte in text.utf8 {
                switch byte {
                case 0x22: bytes += Array("\\\"".utf8)
                case 0x5C: bytes += Array("\\\\".utf8)
                case 0x0A: bytes += Array("\\n".utf8)
                case 0x0D: bytes += Array("\\r".utf8)
                case 0x09: bytes += Array("\\t".utf8)
                case 0..<0x20: bytes += Array(String(format: "\\u%04x", byte).utf8)
                default: bytes.append(byte)
                }
            }
            return bytes + [0x22]
        }
        let pieces = ["a", "é", "\"", "\\", "\n", "\u{1}", "\u{1f}", " ", "~", "\u{7f}", "😀", "x\ty", "\r\n", "!", "#"]
        var generator = SeededGenerator(seed: 11)
        for length in 0..<40 {
            for _ in 0..<30 {
                let text = (0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined()
                #expect(JSONValue.string(text).serializedBytes(pretty: false) == reference(text), "\(text.debugDescription)")
            }
        }
    }
}
