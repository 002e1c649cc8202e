import Foundation
import Testing

@testable import TickEngine
@testable import TickModel
@testable import TickOutput
@testable import TickRecords
@testable import TickStore
@testable import TickSyntax

/// The read model (`EncodedDocument`, `EncodedListedItem`: what every read
/// command answers from) agrees with a reference built here, in the tests
/// only, straight from the parsed `Document` and its `TaskItem`s: every
/// field of every item of every fixture, and the lists' own fields.
@Suite("Read model against a reference built from Document")
struct ReadModelReferenceTests {
    static let today = TaskDate(year: 2026, month: 11, day: 21)

    /// SPEC §6's item object, built from a parsed item with none of the
    /// read model's code: the reference. (`blocked` and `urgency` are worked
    /// out from the fields compared here, by the engine, and left out.)
    static func referenceJSON(_ item: TaskItem, in document: Document) -> JSONValue {
        let metadata = item.metadata
        var seenKeys: [String] = []
        var fields: [(String, JSONValue)] = []
        for (key, value) in metadata.fields where !seenKeys.contains(key) {
            seenKeys.append(key)
            fields.append((key, .string(value)))
        }
        return .object(
            [
                ("path", .string(document.path)),
                ("line", .int(item.line)),
                ("list", .string(document.name)),
                ("section", .string(item.section.map { document.sections[$0].title })),
                ("status", .string(item.status.rawValue)),
                ("title", .string(item.title)),
                ("text", .string(item.text)),
                ("priority", .string(metadata.priority.name)),
                ("due", .string(metadata.due?.isoString)),
                ("scheduled", .string(metadata.scheduled?.isoString)),
                ("start", .string(metadata.start?.isoString)),
                ("created", .string(metadata.created?.isoString)),
                ("done", .string(metadata.done?.isoString)),
                ("cancelled", .string(metadata.cancelled?.isoString)),
                ("every", .string(metadata.every)),
                ("tags", .array(metadata.tags.map { .string($0) })),
                ("color", .string(metadata.color)),
                ("icon", .string(metadata.icon)),
                ("id", .string(metadata.id)),
                ("fields", .object(fields)),
                ("parent", .string(item.parent.map { document.address(of: document.items[$0]) })),
                ("depth", .int(item.depth)),
                ("notes", .string(item.notes)),
                ("listColor", .string(document.color)),
                ("listIcon", .string(document.icon)),
                ("dependsOn", .array(metadata.dependsOn.map { .string($0) })),
            ]
                + MetadataField.keptInMore.map { field in
                    let value = metadata.value(field)
                    return (field.spelling!.jsonKey!, .string(value?.date?.isoString ?? value?.text))
                })
    }

    /// An item's JSON without the keys the reference leaves out.
    static func withoutDerivedKeys(_ value: JSONValue) -> JSONValue {
        guard case .object(let pairs) = value else { return value }
        return .object(pairs.filter { $0.0 != "blocked" && $0.0 != "urgency" })
    }

    @Test("every item of every fixture reads as the reference built from its Document", arguments: TestPaths.allMarkdownFiles())
    func itemsAgreeWithReference(file: URL) throws {
        let document = DocumentParser.parse(try FileIO.read(file.path), path: file.lastPathComponent)
        let list = try #require(EncodedDocument(encoding: document))
        let items = list.items()
        #expect(items.count == document.items.count)
        let context = ItemContext(today: Self.today, dependencies: .none)
        for (item, parsed) in zip(items, document.items) {
            let json = Self.withoutDerivedKeys(ItemJSON.item(item, context: context))
            #expect(json == Self.referenceJSON(parsed, in: document), "\(document.path):\(parsed.line)")
            // What the engine reads beyond the JSON.
            #expect(item.fileOffset == parsed.blockRange.lowerBound)
            #expect(item.hasPriority == parsed.metadata.hasPriority)
            #expect(item.hasSubtasks == !parsed.children.isEmpty)
            #expect(item.parentIndex == parsed.parent)
            #expect(item.sectionIndex == parsed.section)
            #expect(item.onCompletion?.string == parsed.metadata.onCompletion)
            #expect(item.runs.map(\.text) == parsed.runs.map(\.text))
            #expect(item.runs.displayTitle == parsed.runs.displayTitle)
            // Whether the text holds markup, asked of its bytes here; the
            // parser learns it while reading the title, and the cache keeps it.
            let textIsPlain = Array(parsed.text.utf8).withUnsafeBufferPointer { TitleParser.isPlain($0, 0..<$0.count) }
            #expect(parsed.textIsPlain == textIsPlain, "\(document.path):\(parsed.line)")
            #expect(item.hasPlainTitle == textIsPlain, "\(document.path):\(parsed.line)")
        }
    }

    @Test(
        "every list of every fixture reads as its Document: name, color, icon, order, sections, diagnostics, front matter",
        arguments: TestPaths.allMarkdownFiles())
    func listsAgreeWithReference(file: URL) throws {
        let document = DocumentParser.parse(try FileIO.read(file.path), path: file.lastPathComponent)
        let list = try #require(EncodedDocument(encoding: document))
        #expect(list.path == document.path)
        #expect(list.name == document.name)
        #expect(list.color == document.color)
        #expect(list.icon == document.icon)
        #expect(list.order == document.order)
        #expect(list.sectionCount == document.sections.count)
        for index in document.sections.indices { #expect(list.section(index) == document.sections[index]) }
        #expect(list.diagnostics == document.diagnostics)
        #expect(list.frontMatter?.values.map { $0.map(\.key) } == document.frontMatter?.values.map { $0.map(\.key) })
        #expect(list.frontMatter?.values.map { $0.map(\.value) } == document.frontMatter?.values.map { $0.map(\.value) })
        #expect(list.count { $0.isOpen } == document.items.filter { $0.status.isOpen }.count)
        #expect(list.count { $0 == .done } == document.items.filter { $0.status == .done }.count)
    }

    @Test("testing and printing in one pass gives the JSON document of the matching items")
    func onePassMatchesFilterThenPrint() throws {
        let parsed = try TestPaths.allMarkdownFiles().map { DocumentParser.parse(try FileIO.read($0.path), path: $0.path) }
        let workspace = EncodedWorkspace(documents: parsed.map(readModel))
        let today = Self.today
        #expect(workspace.items.count > 200, "enough items for many runs and batches")
        let queries = [
            "open", "done", "due <= +7d", "#work", "has notes", "\"milk\"", "title ~ /^[A-Z]/", "has parent",
            "(open and due <= +30d) or #errand", "id = no-such-id", "open or not open",
        ]
        for text in queries {
            let query = try QueryParser.parse(text, today: today)
            // Filtered first, then serialised as one JSONValue.
            let expected = ItemJSON.items(QueryEvaluator.filter(workspace, query), context: ItemContext(today: today, dependencies: .none))
                .serializedBytes(pretty: true)
            // Small runs, few in flight: many chunks, written in order as they
            // are done, some of them empty (the comma before the first item
            // is dropped).
            for (runSize, inFlight) in [(1024, 6), (7, 3), (1, 1)] {
                var written: [UInt8] = []
                ItemJSON.writeItemsDocument(
                    matching: query, in: workspace, context: ItemContext(today: today, dependencies: .none),
                    runSize: runSize, inFlight: inFlight
                ) {
                    written.append(contentsOf: $0)
                }
                #expect(written == expected, "\(text), runs of \(runSize), \(inFlight) in flight")
            }
        }
    }

    @Test("testing and writing to-dos in one pass gives the calendar of the matching items")
    func onePassCalendarMatchesFilterThenWrite() throws {
        let parsed = try TestPaths.allMarkdownFiles().map { DocumentParser.parse(try FileIO.read($0.path), path: $0.path) }
        let workspace = EncodedWorkspace(documents: parsed.map(readModel))
        let today = Self.today
        let stamp = ICalendarWriter.stamp(for: today)
        // Titles repeated within a list: the UIDs count the items above with the same title.
        #expect(workspace.documents.contains { list in Set(list.titles.map(\.string)).count < list.titles.count })
        let queries: [String?] = [nil, "open", "done", "due <= +7d", "#work", "has parent", "id = no-such-id"]
        for text in queries {
            let query = try text.map { try QueryParser.parse($0, today: today) }
            let expected = ICalendarWriter.write(query.map { QueryEvaluator.filter(workspace, $0) } ?? workspace.items, stamp: stamp)
            #expect(expected.contains("BEGIN:VTODO") == (text != "id = no-such-id"), "\(text ?? "every item")")
            for (runSize, inFlight) in [(1024, 6), (7, 3), (1, 1)] {
                var written: [UInt8] = []
                ICalendarWriter.write(matching: query, in: workspace, stamp: stamp, runSize: runSize, inFlight: inFlight) {
                    written.append(contentsOf: $0)
                }
                #expect(String(decoding: written, as: UTF8.self) == expected, "\(text ?? "every item"), runs of \(runSize), \(inFlight) in flight")
            }
        }
    }
}

@Suite("Looking items up by title in the read model")
struct ReadModelTitleLookupTests {
    @Test(
        "the read model's byte comparison of titles answers as lowercasing and comparing Strings does, on every fixture item",
        arguments: TestPaths.allMarkdownFiles())
    func titleSearchAgreesWithStrings(file: URL) throws {
        let document = DocumentParser.parse(try FileIO.read(file.path), path: file.lastPathComponent)
        let list = try #require(EncodedDocument(encoding: document))
        var needles = ["", "a", "milk", "MILK".lowercased(), "buy m", "é", "ß", "🍰", " ", "due"]
        // A stretch of each title, as a user would type it.
        needles += document.items.prefix(20).map { String($0.title.lowercased().prefix(6)) }
        for needle in needles {
            #expect(
                list.items(whoseTitleLowercasedContains: needle) == document.items(whoseTitleLowercasedContains: needle),
                "\(document.path) '\(needle)'")
        }
    }

    @Test("case-folded ASCII search finds a needle at the start, the end, overlapping a false start, and never past the end")
    func asciiCaseFoldedSearch() {
        func contains(_ text: String, _ needle: String) -> Bool {
            Array(text.utf8).withUnsafeBufferPointer { text in
                Array(needle.utf8).withUnsafeBufferPointer { ByteText.containsASCIICaseFolded(text, $0) }
            }
        }
        #expect(contains("Buy Milk", "buy"))
        #expect(contains("Buy Milk", "milk"))
        #expect(contains("aaab", "aab"))
        #expect(contains("anything", ""))
        #expect(!contains("Mil", "milk"))
        #expect(!contains("Buy Milk", "milky"))
        #expect(!contains("[", "{")) // 0x5B folds to nothing: only A-Z are letters
    }

    @Test("a result item is 16 bytes, its place and its list's rank read back as they were made, up to 2³¹ − 1")
    func aResultItemIsSixteenBytes() {
        #expect(MemoryLayout<EncodedListedItem>.stride == 16)
        let document = readModel(DocumentParser.parse("# A\n- [ ] one\n- [ ] two\n", path: "a.md"))
        var item = EncodedListedItem(document: document, index: 0, listRank: Int(Int32.max))
        #expect(item.listRank == Int(Int32.max))
        #expect(item.title.string == "one")
        item.index = 1
        #expect(item.index == 1 && item.title.string == "two")
    }
}
