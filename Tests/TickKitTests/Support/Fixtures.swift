import Foundation
import TickModel
import TickRecords
import TickStore
import TickSyntax

/// The fixture notes folders beside the tests.
enum Fixture {
    /// Saturday 2026-11-21: the day the fixtures' expectations are pinned to.
    static let today = TaskDate(year: 2026, month: 11, day: 21)

    /// The folder `Fixtures/NAME`, as copied into the test bundle.
    static func path(_ name: String) -> String {
        guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            fatalError("the Fixtures folder is missing from the test bundle")
        }
        return url.appendingPathComponent(name).path
    }

    /// `Fixtures/groups`, loaded.
    static let groups: EncodedWorkspace = {
        do { return EncodedWorkspace.load(try NotesFolder(path: path("groups"))) } catch { fatalError("\(error)") }
    }()
}

/// A workspace made from Markdown texts, keyed by path.
func workspace(_ files: [String: String]) -> EncodedWorkspace {
    EncodedWorkspace(documents: files.keys.sorted().map { readModel(DocumentParser.parse(files[$0]!, path: $0)) })
}

/// A parsed list as the read model holds it.
func readModel(_ document: Document) -> EncodedDocument {
    guard let encoded = EncodedDocument(encoding: document) else { fatalError("\(document.path) is too large to encode") }
    return encoded
}

/// The display titles of items, in order.
func titles(_ items: some Sequence<EncodedListedItem>) -> [String] { items.map(\.title.string) }

func date(_ text: String) -> TaskDate { TaskDate(iso: text)! }
