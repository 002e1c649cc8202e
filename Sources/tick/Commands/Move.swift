import ArgumentParser
import Foundation
import TickKit

extension Tick {
    /// `tick mv ITEM LIST`: moves the item with its notes and subtasks.
    struct Move: TickCommand {
        static let configuration = CommandConfiguration(
            commandName: "mv",
            abstract: "Move an item, with its notes and subtasks, to another list or section.",
            discussion: """
                The item goes where `tick add` would put a new item, re-indented as a whole to \
                its new depth and given its new neighbours' bullet or number. Its tokens are kept \
                as written.

                Examples:
                  tick mv home.md:20 groceries
                  tick mv "Try pairing" work --section "This week"
                """)

        @OptionGroup var folder: FolderOptions
        @OptionGroup var write: WriteOptions
        @OptionGroup var search: ItemSearchOptions
        @Argument(help: "The item: PATH:LINE, ^id or title text.") var item: String
        @Argument(help: "The list to move it to.") var destination: String
        @Option(name: .long, help: ArgumentHelp("Move it under this heading (created at the end when missing).", valueName: "heading")) var section: String?

        func execute() throws {
            if let section { try OptionValue.oneLine(section, option: "--section") }
            let session = try EditSession(folder: folder)
            let sourcePath = try session.locate(item, list: search.list).document.path
            let destinationPath = try session.listPath(destination)
            let spec = item
            let placement: InsertItem.Placement = section.map { .section($0) } ?? .endOfList
            try session.run(paths: [sourcePath, destinationPath], dryRun: write.dryRun) { inputs in
                let (document, target) = try session.locate(spec, list: search.list, in: inputs.documents)
                var outcome = EditOutcome()
                let newLine: Int
                if document.path == destinationPath {
                    guard let move = MoveItem.move(target.index, in: document, to: placement) else {
                        outcome.notes.append("\(document.address(of: target)) is already there; nothing to move")
                        return outcome
                    }
                    let bytes = try EditSession.apply(move.splices, to: document)
                    outcome.files.append(.replace(path: document.path, bytes: bytes))
                    newLine = EditSession.line(of: move.itemOffset, in: bytes)
                    if let created = move.createdSection { outcome.notes.append("created section '## \(created)' in \(document.path)") }
                } else {
                    guard let other = inputs.document(destinationPath) else { throw TickFailure.noInput("\(destinationPath) cannot be read") }
                    let move = MoveItem.move(target.index, from: document, to: other, at: placement)
                    let bytes = try EditSession.apply(move.destination, to: other)
                    outcome.files.append(.replace(path: other.path, bytes: bytes))
                    outcome.files.append(.replace(path: document.path, bytes: try EditSession.apply(move.source, to: document)))
                    newLine = EditSession.line(of: move.itemOffset, in: bytes)
                    if let created = move.createdSection { outcome.notes.append("created section '## \(created)' in \(other.path)") }
                }
                outcome.messages.append("moved \(document.describe(target)) to \(destinationPath):\(newLine)")
                return outcome
            }
        }
    }

    /// `tick rm ITEM...`: removes items with their notes and subtasks.
    struct Remove: TickCommand {
        /// ", with its 2 note lines and 1 subtask", or nothing when the item
        /// had neither.
        static func carried(_ item: TaskItem, in document: Document) -> String {
            let (notes, subtasks) = RemoveItem.carried(item, in: document)
            let parts = [notes == 0 ? nil : "\(notes) note line\(notes == 1 ? "" : "s")",
                         subtasks == 0 ? nil : "\(subtasks) subtask\(subtasks == 1 ? "" : "s")"].compactMap { $0 }
            return parts.isEmpty ? "" : ", with its " + parts.joined(separator: " and ")
        }

        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Remove items with their notes and subtasks.",
            discussion: """
                Examples:
                  tick rm groceries.md:15
                  tick rm "old CRM" --dry-run
                """)

        @OptionGroup var folder: FolderOptions
        @OptionGroup var write: WriteOptions
        @OptionGroup var search: ItemSearchOptions
        @Argument(help: "The items: PATH:LINE, ^id or title text.") var items: [String] = []

        func execute() throws {
            guard !items.isEmpty else { throw TickFailure.usage("name at least one ITEM: PATH:LINE, ^id or title text") }
            let session = try EditSession(folder: folder)
            let paths = try items.map { try session.locate($0, list: search.list).document.path }
            let specs = items
            try session.run(paths: paths, dryRun: write.dryRun) { inputs in
                var chosen: [String: [TaskItem]] = [:]
                var order: [String] = []
                for spec in specs {
                    let (document, item) = try session.locate(spec, list: search.list, in: inputs.documents)
                    if chosen[document.path] == nil { order.append(document.path) }
                    chosen[document.path, default: []].append(item)
                }
                var outcome = EditOutcome()
                for path in order {
                    guard let document = inputs.document(path) else { continue }
                    let splices = RemoveItem.splices(chosen[path]!.map(\.index), in: document)
                    outcome.files.append(.replace(path: path, bytes: try EditSession.apply(splices, to: document)))
                    for item in chosen[path]! { outcome.messages.append("removed \(document.describe(item))" + Self.carried(item, in: document)) }
                }
                return outcome
            }
        }
    }
}
