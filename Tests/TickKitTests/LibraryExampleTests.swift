import Foundation
import Testing
import TickEngine
import TickModel
import TickRecords
import TickStore

/// The first example of TickKit's documentation (`TickKit.docc/TickKit.md`),
/// run on examples/: the calls it shows exist and answer the query.
@Suite("the library's documented example")
struct LibraryExampleTests {
    @Test("reading examples/ and querying it as the DocC overview shows finds the open items due within a week")
    func overviewExampleAnswersItsQuery() throws {
        let cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("tick-example-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cacheFolder) }
        let today = TaskDate(iso: "2026-11-21")!
        // As the overview, with the cache in a folder of the test's own.
        let folder = try NotesFolder(path: TickRunner.packageRoot.appendingPathComponent("examples").path)
        let workspace = EncodedWorkspace.load(folder, cache: ParseCache(root: folder.root, environment: ["XDG_CACHE_HOME": cacheFolder.path]))
        let expression = try QueryParser.parse("open and due <= +7d", today: today)
        let found = QueryEvaluator.filter(workspace, expression)
        #expect(!found.isEmpty)
        let weekAhead = today.adding(7, .day)
        for item in found {
            #expect(item.status.isOpen)
            #expect(try #require(item.date(.due)).compareDay(weekAhead) <= 0)
            #expect(!item.title.string.isEmpty && !item.listName.isEmpty)
        }
        #expect(found.count == workspace.items.filter { $0.status.isOpen && ($0.date(.due)?.compareDay(weekAhead) ?? 1) <= 0 }.count)
    }
}
