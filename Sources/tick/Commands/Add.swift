import ArgumentParser
import Foundation
import TickEdit
import TickModel
import TickSyntax

extension Tick {
    /// `tick add LIST TEXT`: a new open item after the last item of the list,
    /// section or parent item.
    struct Add: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "add",
            abstract: "Add an open item after the last item of a list, section or parent item.",
            discussion: """
                Tokens in TEXT are read as in the file (due:friday becomes an ISO date) and written \
                in the list's dialect. Dates may be ISO, today, friday, next friday, +3d, in 3 \
                days, next week, dec 5 and more (all forms: docs/QUERY.md, "Typing dates"), in \
                TEXT as after --due. The new item copies the bullet, indentation, numbering and \
                line ending of the items around it. Prints the new item's PATH:LINE.

                  due:D   📅 D   [due:: D]      (tick, Obsidian Tasks, Dataview)

                Examples:
                  tick add groceries "Buy bread due:tomorrow #errand"
                  tick add work "Call Ana" --due friday --priority high --section "Next up"
                  tick add work "Check the numbers" --under ^q4plan --dry-run
                """)

        @OptionGroup var folder: FolderOptions
        @OptionGroup var write: WriteOptions
        @Argument(help: "The list: its path, file name or name.", completion: Completions.lists) var list: String
        @Argument(help: "The item's text, with tokens if you like (several words are joined by spaces).") var text: [String] = []
        @Option(name: .long, help: ArgumentHelp("Due date: YYYY-MM-DD, today, tomorrow, friday, +3d, ...", valueName: "date")) var due: String?
        @Option(name: .long, help: ArgumentHelp("Priority: lowest, low, normal, medium, high or urgent.", valueName: "priority")) var priority:
            String?
        @Option(name: .long, help: ArgumentHelp("Add under this heading (created at the end when missing).", valueName: "heading")) var section:
            String?
        @Option(name: .long, help: ArgumentHelp("Add as the last subtask of this item (of the same list).", valueName: "item")) var under: String?

        func validate() throws {
            if section != nil && under != nil { throw ValidationError("use --section or --under, not both") }
        }

        func execute() throws {
            if text.isEmpty { throw TickError.usage("missing TEXT: the item's text, e.g. tick add \(list) \"Buy bread\"") }
            if let section { try OptionValue.oneLine(section, option: "--section") }
            let session = try EditSession(folder: folder)
            let title = try session.normalizedTitle(text.joined(separator: " "), option: "TEXT")
            let dueDate = try due.map { try session.date($0, option: "--due") }
            let wantedPriority = try priority.map(OptionValue.priority)
            let path = try session.listPath(list)
            let configuredDialect = try Configuration.settings(for: folder).dialect
            let underSpec = under
            let sectionName = section

            try session.run(paths: [path], dryRun: write.dryRun) { inputs in
                guard let document = inputs.document(path) else { throw TickError.noInput("\(path) cannot be read") }
                var placement = InsertItem.Placement.endOfList
                // A list without items yet takes the config file's dialect, if it names one.
                var dialect = EditStyle.dialect(of: document)
                if document.items.isEmpty, let configured = configuredDialect { dialect = configured }
                if let sectionName { placement = .section(sectionName) }
                if let underSpec {
                    let (_, parent) = try session.locate(underSpec, list: nil, in: [document])
                    placement = .under(parent.index)
                    dialect = EditStyle.dialect(of: parent, in: document)
                }
                let finalTitle = InsertItem.title(title, due: dueDate, priority: wantedPriority, dialect: dialect)
                let insertion = InsertItem.add(finalTitle, to: document, at: placement)
                let bytes = try EditSession.apply([insertion.splice], to: document)
                let line = EditSession.line(of: insertion.itemOffset, in: bytes)
                var outcome = EditOutcome(files: [.replace(path: path, bytes: bytes)])
                let written = DocumentParser.parse(bytes, path: path)
                let added = written.items.first { $0.line == line }
                outcome.messages.append("added \(path):\(line)  \(added?.title ?? finalTitle)")
                outcome.warnings = EditOutcome.unreadableTokens(in: written, line: line)
                if let created = insertion.createdSection { outcome.notes.append("created section '## \(created)' in \(path)") }
                return outcome
            }
        }
    }
}
