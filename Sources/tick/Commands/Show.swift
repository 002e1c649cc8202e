import ArgumentParser
import Foundation
import TickKit

extension Tick {
    /// `tick show LIST`: one list in file order.
    struct Show: TickCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show one list in file order, with its sections and subtasks.",
            discussion: """
                LIST is a path, a path without .md, a file name, or the list's name.

                Examples:
                  tick show groceries
                  tick show work.md --notes
                  tick show "Reading list" --json
                """)

        @OptionGroup var folder: FolderOptions
        @Argument(help: "The list: its path, file name or name.") var list: String
        @Flag(name: .long, help: "Print JSON (SPEC §6) instead of text.") var json = false
        @Flag(name: .long, help: "Show each item's notes under it.") var notes = false

        func execute() throws {
            let document = try ListLoader(folder: folder).document(named: list)
            let today = folder.todayDate
            if json {
                let items = document.items.map { ($0, document) }
                print(ItemJSON.items(items, today: today).serialized(pretty: true))
                return
            }
            print(PlainListView.render(document, showNotes: notes))
        }
    }
}

/// Finds a list named on the command line: a file path first, then a name
/// among the notes folder's lists.
struct ListLoader {
    var folder: FolderOptions

    func document(named name: String) throws -> Document {
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
        let (paths, _) = root.listFiles()
        let documents = try paths.map { try root.load($0) }
        return documents[try ListLookup.resolve(name, in: documents)]
    }
}

/// A plain-text rendering of one list (no colors yet).
enum PlainListView {
    static func render(_ document: Document, showNotes: Bool) -> String {
        var lines = ["\(document.name)"]
        var currentSection: Int? = nil
        for item in document.items {
            if item.section != currentSection, let section = item.section {
                lines.append("")
                lines.append("  " + document.sections[section].title)
                currentSection = section
            }
            let box: String
            switch item.status {
            case .open: box = "[ ]"
            case .done: box = "[x]"
            case .cancelled: box = "[-]"
            case .inProgress: box = "[/]"
            }
            var line = String(repeating: "  ", count: item.depth + 2) + box + " " + item.title
            if let due = item.metadata.due { line += "  due \(due.isoString)" }
            if item.metadata.hasPriority { line += "  !\(item.metadata.priority.name)" }
            if !item.metadata.tags.isEmpty { line += "  " + item.metadata.tags.map { "#" + $0 }.joined(separator: " ") }
            lines.append(line)
            if showNotes, let notes = item.notes {
                for note in notes.split(separator: "\n", omittingEmptySubsequences: false) {
                    lines.append(String(repeating: "  ", count: item.depth + 4) + note)
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}
