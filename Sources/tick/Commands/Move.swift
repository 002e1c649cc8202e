import ArgumentParser
import Foundation
import TickEdit
import TickModel
import TickSyntax

extension Tick {
    /// `tick mv ITEM LIST`: moves the item with its notes and subtasks.
    struct Move: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
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
        @Argument(
            help: ArgumentHelp(
                "The item (PATH:LINE, ^id or title text), then the list to move it to; with --where, the list alone.",
                valueName: "item> <list"), completion: Completions.itemsAndLists) var words: [String] = []
        @Option(name: .long, help: ArgumentHelp("Move it under this heading (created at the end when missing).", valueName: "heading")) var section:
            String?
        @OptionGroup var bulk: BulkOptions

        func execute() throws {
            if let section { try OptionValue.oneLine(section, option: "--section") }
            let expected = bulk.query == nil ? 2 : 1
            guard words.count == expected else {
                throw TickError.usage(
                    bulk.query == nil
                        ? "name the ITEM and the LIST to move it to: tick mv ITEM LIST"
                        : "with --where, name only the LIST to move the items to: tick mv --where EXPR LIST")
            }
            let destination = words[expected - 1]
            let session = try EditSession(folder: folder)
            let destinationPath = try session.listPath(destination)
            guard
                let specs = try Bulk.items(
                    bulk.query == nil ? [words[0]] : [], bulk: bulk, folder: folder, list: search.list,
                    verb: "Move", dryRun: write.dryRun, leavesOnly: true)
            else { return }
            let sourcePaths = try specs.map { try session.locate($0, list: search.list).document.path }
            let placement: InsertItem.Placement = section.map { .section($0) } ?? .endOfList
            try session.run(paths: sourcePaths + [destinationPath], dryRun: write.dryRun) { inputs in
                let targets = try session.locateAll(specs, list: search.list, in: inputs.documents)
                    .flatMap { group in group.items.map { (document: group.document, item: $0) } }
                var outcome = EditOutcome()
                if targets.count == 1, targets[0].document.path == destinationPath {
                    // Within one list: the block goes to its new place in the same file.
                    let (document, target) = targets[0]
                    guard let move = MoveItem.move(target.index, in: document, to: placement) else {
                        outcome.notes.append("\(document.address(of: target)) is already there; nothing to move")
                        return outcome
                    }
                    let bytes = try EditSession.apply(move.splices, to: document)
                    outcome.files.append(.replace(path: document.path, bytes: bytes))
                    if let created = move.createdSection { outcome.notes.append("created section '## \(created)' in \(document.path)") }
                    outcome.messages.append(
                        "moved \(document.describe(target)) to \(destinationPath):\(EditSession.line(of: move.itemOffset, in: bytes))")
                    return outcome
                }
                guard var other = inputs.document(destinationPath) else { throw TickError.noInput("\(destinationPath) cannot be read") }
                // Each block goes to the destination in turn (read again after each),
                // and every source loses its blocks at once.
                var removals: [String: [Int]] = [:]
                var sourceOrder: [String] = []
                var createdSection: String? = nil
                for (document, target) in targets {
                    if document.path == destinationPath {
                        outcome.notes.append("\(document.address(of: target)) is in \(destinationPath) already; left where it is")
                        continue
                    }
                    let move = MoveItem.move(target.index, from: document, to: other, at: placement)
                    let bytes = try EditSession.apply(move.destination, to: other)
                    other = DocumentParser.parse(bytes, path: other.path)
                    createdSection = createdSection ?? move.createdSection
                    if removals[document.path] == nil { sourceOrder.append(document.path) }
                    removals[document.path, default: []].append(target.index)
                    outcome.messages.append(
                        "moved \(document.describe(target)) to \(destinationPath):\(EditSession.line(of: move.itemOffset, in: bytes))")
                }
                guard !sourceOrder.isEmpty else { return outcome }
                outcome.files.append(.replace(path: other.path, bytes: other.source.bytes))
                for path in sourceOrder {
                    guard let document = inputs.document(path) else { continue }
                    outcome.files.append(
                        .replace(path: path, bytes: try EditSession.apply(RemoveItem.splices(removals[path]!, in: document), to: document)))
                }
                if let created = createdSection { outcome.notes.append("created section '## \(created)' in \(destinationPath)") }
                return outcome
            }
        }
    }

    /// `tick rm ITEM...`: removes items with their notes and subtasks.
    struct Remove: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        /// ", with its 2 note lines and 1 subtask", or nothing when the item
        /// had neither.
        static func carried(_ item: TaskItem, in document: Document) -> String {
            let (notes, subtasks) = RemoveItem.carried(item, in: document)
            let parts = [
                notes == 0 ? nil : "\(notes) note line\(notes == 1 ? "" : "s")",
                subtasks == 0 ? nil : "\(subtasks) subtask\(subtasks == 1 ? "" : "s")",
            ].compactMap { $0 }
            return parts.isEmpty ? "" : ", with its " + parts.joined(separator: " and ")
        }

        static let configuration = CommandConfiguration.subcommand(
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
        @Argument(help: "The items: PATH:LINE, ^id or title text.", completion: Completions.items) var items: [String] = []
        @OptionGroup var bulk: BulkOptions

        func execute() throws {
            guard
                let specs = try Bulk.items(
                    items, bulk: bulk, folder: folder, list: search.list, verb: "Remove",
                    dryRun: write.dryRun, leavesOnly: true)
            else { return }
            let session = try EditSession(folder: folder)
            let paths = try specs.map { try session.locate($0, list: search.list).document.path }
            try session.run(paths: paths, dryRun: write.dryRun) { inputs in
                var outcome = EditOutcome()
                for (document, items) in try session.locateAll(specs, list: search.list, in: inputs.documents) {
                    let path = document.path
                    let splices = RemoveItem.splices(items.map(\.index), in: document)
                    outcome.files.append(.replace(path: path, bytes: try EditSession.apply(splices, to: document)))
                    for item in items { outcome.messages.append("removed \(document.describe(item))" + Self.carried(item, in: document)) }
                }
                return outcome
            }
        }
    }
}
