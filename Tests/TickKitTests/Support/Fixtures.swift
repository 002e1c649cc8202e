import Foundation
import TickKit

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
    static let groups: Workspace = {
        do { return Workspace.load(try NotesFolder(path: path("groups"))) } catch { fatalError("\(error)") }
    }()
}

/// A workspace made from Markdown texts, keyed by path.
func workspace(_ files: [String: String]) -> Workspace {
    Workspace(documents: files.keys.sorted().map { DocumentParser.parse(files[$0]!, path: $0) })
}

/// The display titles of items, in order.
func titles(_ items: [ListedItem]) -> [String] { items.map(\.item.title) }

func date(_ text: String) -> TaskDate { TaskDate(iso: text)! }
