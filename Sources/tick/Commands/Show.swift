import ArgumentParser
import Foundation
import TickEngine
import TickModel
import TickRecords
import TickStore
import TickSyntax

extension Tick {
    /// `tick show LIST`: one list in file order.
    struct Show: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
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
            let loader = ListLoader(folder: folder)
            let document = try loader.list(named: list)
            let today = folder.todayDate
            let items = document.items()
            // Only an item that depends on another can be blocked: the
            // folder's dependencies are read only when the list has one.
            let dependencies = items.contains { $0.dependsOnText != nil } ? try loader.workspace().dependencies : .none
            let context = ItemContext(today: today, dependencies: dependencies)
            if output.json {
                Terminal.writeItemsJSON(items, context: context)
                return
            }
            let display = output.display
            display.print(ListView.source(document, items: items, context: context, showNotes: notes, plain: display.depth == .none))
        }
    }
}

/// Finds a list named on the command line: a file path first (that one
/// file is read), then a name among the notes folder's lists (from the
/// read model, `EncodedWorkspace`).
final class ListLoader {
    let folder: FolderOptions
    private var loaded: EncodedWorkspace?

    init(folder: FolderOptions) { self.folder = folder }

    /// The notes folder's lists, read once.
    func workspace() throws -> EncodedWorkspace {
        if let loaded { return loaded }
        let workspace = try folder.workspace()
        loaded = workspace
        return workspace
    }

    /// The list `name` names; a file that is not UTF-8 is bad data (exit 65).
    func list(named name: String) throws -> EncodedDocument {
        if let document = try file(named: name) {
            try Self.requireUTF8(document)
            guard let encoded = EncodedDocument(encoding: document) else {
                throw TickError.badData("\(document.path) is too large for tick to show")
            }
            return encoded
        }
        // Names and paths are in the cache's index: only the list found is read.
        let workspace = try workspace()
        let lists = workspace.documents
        do {
            return workspace.checked(lists[try ListLookup.resolve(name, in: lists)])
        } catch {
            // Lists that are not UTF-8 were skipped: naming one is refused
            // saying why, not with "no list named".
            guard case .unknown = error else { throw error }
            let skipped = workspace.skipped.notUTF8
            if let index = try? ListLookup.resolve(name, in: skipped) { throw Self.notUTF8(skipped[index].path) }
            throw error
        }
    }

    private static func requireUTF8(_ document: Document) throws {
        guard document.isValidUTF8 else { throw notUTF8(document.path) }
    }

    private static func notUTF8(_ path: String) -> TickError {
        .badData("\(path) is not valid UTF-8; re-save it as UTF-8 to use it with tick")
    }

    /// The list file `name` is a path of (from the current folder, or from
    /// the notes folder), parsed; nil when it is no such path.
    private func file(named name: String) throws -> Document? {
        guard NotesFolder.isListFile(name) else { return nil }
        let root = try folder.folder()
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: name, isDirectory: &isDirectory), !isDirectory.boolValue {
            let absolute = URL(fileURLWithPath: name).standardizedFileURL.path
            let relative = root.relative(absolute) ?? name
            let bytes = try FileIO.read(absolute)
            return DocumentParser.parse(bytes, path: relative)
        }
        if FileManager.default.fileExists(atPath: root.absolute(name)) { return try root.load(name) }
        return nil
    }
}
