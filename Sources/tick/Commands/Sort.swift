import ArgumentParser
import Foundation
import TickEdit
import TickEngine
import TickModel
import TickRecords
import TickStore
import TickSyntax
import TickSystem

extension Tick {
    /// `tick sort LIST --by KEY --write`: reorders sibling items in the file.
    struct Sort: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "sort",
            abstract: "Sort a list's items in the file, whole blocks at a time.",
            discussion: """
                Reorders sibling items (with their notes and subtasks) inside each Markdown list of \
                the file; subtasks are sorted the same way. Headings, paragraphs and blank lines \
                stay where they are, and so do the numbers of an ordered list. Without --write \
                (or --dry-run), prints the items in the new order and changes nothing.

                Keys: manual, title, priority, due, created, done, list; several as due,priority.

                Examples:
                  tick sort groceries --by priority --write
                  tick sort work --by due,priority --dry-run
                """)

        @OptionGroup var folder: FolderOptions
        @OptionGroup var writing: WriteOptions
        @Argument(help: "The list: its path, file name or name.", completion: Completions.lists) var list: String
        @Option(name: .long, help: ArgumentHelp("Sort key(s), comma-separated.", valueName: "key")) var by: String
        @Flag(name: .long, help: "Flip the whole order.") var reverse = false
        @Flag(name: .long, help: "Write the new order into the file.") var write = false

        func execute() throws {
            let keys = try OptionValue.sortKeys(by)
            let session = try EditSession(folder: folder)
            let path = try session.listPath(list)
            let reverse = self.reverse
            if !write && !writing.dryRun {
                // The preview is what --write would write: the same splices
                // applied in memory, the result shown as `tick show` shows it.
                let document = try session.document(at: path)
                guard document.isValidUTF8 else { throw WriteFailure.notUTF8(path: document.path).tickError }
                let splices = SortList.splices(document, by: keys, reverse: reverse, today: session.today)
                let parsed = DocumentParser.parse(try EditSession.apply(splices, to: document), path: path)
                guard let sorted = EncodedDocument(encoding: parsed) else { throw TickError.badData("\(path) is too large to show") }
                let display = Display(choice: .auto, environment: .process)
                // The preview shows the order; whether an item is blocked is not its concern.
                display.print(
                    ListView.source(
                        sorted, items: sorted.items(),
                        context: ItemContext(today: session.today, dependencies: .none),
                        showNotes: false))
                Terminal.note("nothing was written; --write writes this order, --dry-run shows it as a diff")
                return
            }
            let today = session.today
            try session.run(paths: [path], dryRun: writing.dryRun) { inputs in
                guard let document = inputs.document(path) else { throw TickError.noInput("\(path) cannot be read") }
                let splices = SortList.splices(document, by: keys, reverse: reverse, today: today)
                var outcome = EditOutcome(files: [.replace(path: path, bytes: try EditSession.apply(splices, to: document))])
                if splices.isEmpty {
                    outcome.notes.append("\(path) is already in that order")
                } else {
                    outcome.messages.append("sorted \(path) by \(keys.map(\.rawValue).joined(separator: ","))\(reverse ? ", reversed" : "")")
                }
                return outcome
            }
        }
    }
}
