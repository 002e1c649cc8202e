import ArgumentParser
import Foundation
import TickKit

extension Tick {
    /// `tick show LIST`: one list in file order.
    struct Show: TickCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one list in file order, with its sections and subtasks.",
            discussion: """
                LIST is a path, a path without .md, a file name, or the list's name (any case). \
                Subtasks are indented under their items; --notes prints each item's notes under it.

                Examples:
                  tick show groceries
                  tick show work.md --notes
                  tick show "Reading list" --json
                """)

        @OptionGroup var folder: FolderOptions
        @Argument(help: "The list: its path, file name or name.", completion: Completions.lists) var list: String
        @OptionGroup var output: OutputOptions
        @Flag(name: .long, help: "Show each item's notes under it.") var notes = false

        func execute() throws {
            let document = try ListLoader(folder: folder).document(named: list)
            let today = folder.todayDate
            let items = Workspace(documents: [document]).items
            // Only an item that depends on another can be blocked: the
            // folder's dependencies are read only when the list has one.
            let dependencies = items.contains { !$0.item.metadata.dependsOn.isEmpty } ? try folder.encodedWorkspace().dependencies : .none
            let context = ItemContext(today: today, dependencies: dependencies)
            if output.json {
                Terminal.writeItemsJSON(items, context: context)
                return
            }
            let display = output.display
            display.print(ListView.source(document, items: items, context: context, showNotes: notes))
        }
    }
}

/// Finds a list named on the command line: a file path first, then a name
/// among the notes folder's lists.
struct ListLoader {
    var folder: FolderOptions

    /// The list `name` names; a file that is not UTF-8 is bad data (exit 65).
    func document(named name: String) throws -> Document {
        let document = try find(name)
        guard document.isValidUTF8 else {
            throw TickFailure.badData("\(document.path) is not valid UTF-8; re-save it as UTF-8 to use it with tick")
        }
        return document
    }

    private func find(_ name: String) throws -> Document {
        let root = try folder.folder()
        var isDirectory: ObjCBool = false
        if NotesFolder.isListFile(name), FileManager.default.fileExists(atPath: name, isDirectory: &isDirectory), !isDirectory.boolValue {
            let absolute = URL(fileURLWithPath: name).standardizedFileURL.path
            let relative = root.relative(absolute) ?? name
            let bytes = try FileIO.read(absolute)
            return DocumentParser.parse(bytes, path: relative)
        }
        if NotesFolder.isListFile(name), FileManager.default.fileExists(atPath: root.absolute(name)) {
            return try root.load(name)
        }
        let (documents, warnings) = root.loadAll()
        for warning in warnings { Terminal.warning(warning) }
        do {
            return documents[try ListLookup.resolve(name, in: documents)]
        } catch {
            // Lists that are not UTF-8 were skipped: naming one is refused by
            // `document(named:)` saying why, not with "no list named".
            guard case .unknown = error else { throw error }
            let known = Set(documents.map(\.path))
            let skipped = root.listFiles().paths.filter { !known.contains($0) }.compactMap { try? root.load($0) }
            if let index = try? ListLookup.resolve(name, in: skipped) { return skipped[index] }
            throw error
        }
    }
}
