import Foundation
import Testing
@testable import TickKit

/// Items read in place from the cache's encoding (`EncodedListedItem`) give
/// the same answers as the parsed items (`ListedItem`): the same JSON bytes,
/// the same query matches, smart groups and sort orders.
@Suite("Encoded documents")
struct EncodedDocumentTests {
    static let queries = [
        "open", "done", "cancelled", "in-progress", "due <= +7d", "due < today", "due = 2026-11-24", "no due",
        "has scheduled", "has start", "has created", "has done", "has cancelled", "priority >= high", "priority < normal",
        "has priority", "#work", "tag = home", "has tags", "has id", "has notes", "every", "has section", "has subtasks",
        "has parent", "\"milk\"", "title ~ /^[A-Z]/", "text ~ call", "section ~ \"next\"", "list = work", "path ~ .md",
        "id = abc", "not open or priority = urgent", "(open and due <= +30d) or #errand",
    ]

    /// Both kinds of item for one file.
    func records(_ file: URL) throws -> (parsed: [ListedItem], encoded: [EncodedListedItem], payload: ParseCache.Payload) {
        let document = DocumentParser.parse(try FileIO.read(file.path), path: file.lastPathComponent)
        let payload = try #require(ParseCache.Payload(encoding: document))
        let encoded = try EncodedDocument(payload.buffer, owner: payload.storage)
        return (Workspace(documents: [document]).items, EncodedWorkspace(documents: [encoded]).items, payload)
    }

    @Test("the JSON of every item is byte-identical", arguments: TestPaths.allMarkdownFiles())
    func jsonIsIdentical(file: URL) throws {
        let (parsed, encoded, payload) = try records(file)
        try withExtendedLifetime(payload) {
            #expect(encoded.count == parsed.count)
            let today = try #require(TaskDate(iso: "2026-11-21"))
            let fromParsed = ItemJSON.itemsDocumentBytes(parsed, context: ItemContext(today: today, dependencies: .none))
            let fromEncoded = ItemJSON.itemsDocumentBytes(encoded, context: ItemContext(today: today, dependencies: .none))
            #expect(fromEncoded == fromParsed, "\(String(decoding: fromEncoded, as: UTF8.self))")
        }
    }

    @Test("queries, smart groups and sorting pick the same items in the same order", arguments: TestPaths.allMarkdownFiles())
    func queriesAgree(file: URL) throws {
        let (parsed, encoded, payload) = try records(file)
        try withExtendedLifetime(payload) {
            let today = try #require(TaskDate(iso: "2026-11-21"))
            for text in Self.queries {
                let query = try QueryParser.parse(text, today: today)
                #expect(QueryEvaluator.filter(encoded, query).map(\.line) == QueryEvaluator.filter(parsed, query).map(\.line),
                        "\(text)")
            }
            for group in SmartGroup.allCases {
                #expect(group.members(of: encoded, today: today).map(\.line) == group.members(of: parsed, today: today).map(\.line))
            }
            for key in SortKey.allCases {
                #expect(SortKey.sort(encoded, by: [key], today: today).map(\.line) == SortKey.sort(parsed, by: [key], today: today).map(\.line))
            }
        }
    }

    @Test("testing and printing in one pass gives the JSON document of the matching parsed items")
    func onePassMatchesFilterThenPrint() throws {
        let parsed = try TestPaths.allMarkdownFiles().map { DocumentParser.parse(try FileIO.read($0.path), path: $0.path) }
        let payloads = try parsed.map { try #require(ParseCache.Payload(encoding: $0)) }
        let workspace = EncodedWorkspace(documents: try payloads.map { try EncodedDocument($0.buffer, owner: $0.storage) })
        let parsedItems = Workspace(documents: parsed).items
        let today = try #require(TaskDate(iso: "2026-11-21"))
        #expect(workspace.items.count > 200, "enough items for many runs and batches")
        for text in Self.queries + ["id = no-such-id", "open or not open"] {
            let query = try QueryParser.parse(text, today: today)
            // The reference: the parsed items that match, serialised as one JSONValue.
            let expected = ItemJSON.items(QueryEvaluator.filter(parsedItems, query), context: ItemContext(today: today, dependencies: .none)).serializedBytes(pretty: true)
            // Small runs, few in flight: many chunks, written in order as they
            // are done, some of them empty (the comma before the first item
            // is dropped).
            for (runSize, inFlight) in [(1024, 6), (7, 3), (1, 1)] {
                var written: [UInt8] = []
                ItemJSON.writeItemsDocument(matching: query, in: workspace, context: ItemContext(today: today, dependencies: .none), runSize: runSize, inFlight: inFlight) {
                    written.append(contentsOf: $0)
                }
                #expect(written == expected, "\(text), runs of \(runSize), \(inFlight) in flight")
            }
        }
        withExtendedLifetime(payloads) {}
    }
}
