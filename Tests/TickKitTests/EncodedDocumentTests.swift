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
            let fromParsed = ItemJSON.itemsDocumentBytes(parsed, today: today)
            let fromEncoded = ItemJSON.itemsDocumentBytes(encoded, today: today)
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
                #expect(SortKey.sort(encoded, by: [key]).map(\.line) == SortKey.sort(parsed, by: [key]).map(\.line))
            }
        }
    }
}
