import ArgumentParser
import Foundation
import TickEdit
import TickModel
import TickSyntax

extension Tick {
    /// `tick edit ITEM`: replaces, adds or removes exactly the tokens named.
    struct Edit: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "edit",
            abstract: "Change an item's title, due date, priority, color, icon, tags or dependencies.",
            discussion: """
                Only the bytes of the tokens named change: an existing token keeps its place and \
                dialect, a new one goes at the end of the title (before a trailing ^id) in the \
                item's dialect, and a removed one takes one adjacent space with it. --after ID makes \
                the item wait for the item with that block id (Obsidian Tasks' ⛔ "depends on"); \
                --no-after removes every dependency first.

                Examples:
                  tick edit groceries.md:12 --due friday --priority urgent
                  tick edit ^q4plan --no-due --tag work/q4 --untag work/planning
                  tick edit "Eggs" --title "Free-range eggs" --dry-run
                  tick edit "Prepare slides" --after q4plan
                """)

        @OptionGroup var folder: FolderOptions
        @OptionGroup var write: WriteOptions
        @OptionGroup var search: ItemSearchOptions
        @Argument(help: "The item: PATH:LINE, ^id or title text (none with --where).", completion: Completions.items) var item: String?
        @Option(name: .long, help: ArgumentHelp("New title text; the item's tokens are kept.", valueName: "text")) var title: String?
        @Option(name: .long, help: ArgumentHelp("Due date: YYYY-MM-DD, today, tomorrow, friday, +3d, ...", valueName: "date")) var due: String?
        @Flag(name: .long, help: "Remove the due date.") var noDue = false
        @Option(name: .long, help: ArgumentHelp("Priority: lowest, low, normal (removes it), medium, high or urgent.", valueName: "priority"))
        var priority: String?
        @Option(name: .long, help: ArgumentHelp("Color: red, orange, ..., gray, or #rrggbb.", valueName: "color")) var color: String?
        @Option(name: .long, help: ArgumentHelp("Icon: a symbol name like cart, or an emoji.", valueName: "icon")) var icon: String?
        @Option(name: .long, help: ArgumentHelp("Add a tag (repeatable).", valueName: "tag")) var tag: [String] = []
        @Option(name: .long, help: ArgumentHelp("Remove a tag (repeatable).", valueName: "tag")) var untag: [String] = []
        @Option(name: .long, help: ArgumentHelp("Wait for the item with this block id (repeatable; ^ optional).", valueName: "id"))
        var after: [String] = []
        @Flag(name: .long, help: "Remove every dependency (before --after adds).") var noAfter = false
        @OptionGroup var bulk: BulkOptions

        func validate() throws {
            if due != nil && noDue { throw ValidationError("use --due or --no-due, not both") }
        }

        func execute() throws {
            if title == nil && due == nil && !noDue && priority == nil && color == nil && icon == nil && tag.isEmpty && untag.isEmpty
                && after.isEmpty && !noAfter
            {
                throw TickError.usage(
                    "nothing to change; give --title, --due, --no-due, --priority, --color, --icon, --tag, --untag, --after or --no-after")
            }
            let session = try EditSession(folder: folder)
            var changes: [TokenEdit.Change] = []
            if let title { changes.append(.replaceText(try session.normalizedTitle(title, option: "--title"))) }
            if let priority { changes.append(.setPriority(try OptionValue.priority(priority))) }
            if let due { changes.append(.setDate(.due, try session.date(due, option: "--due"))) }
            if noDue { changes.append(.remove(.due)) }
            if let color { changes.append(.setText(.color, try OptionValue.color(color))) }
            if let icon { changes.append(.setText(.icon, try OptionValue.icon(icon))) }
            for name in untag { changes.append(.removeTag(try OptionValue.tag(name, option: "--untag"))) }
            for name in tag { changes.append(.addTag(try OptionValue.tag(name))) }
            let afterIDs = try after.map { try OptionValue.blockID($0, option: "--after") }
            let noAfter = self.noAfter
            /// The dependency change for one item: its ids, less all with
            /// --no-after, plus --after's, in one token (in place when it has one).
            func dependencyChanges(_ target: TaskItem) -> [TokenEdit.Change] {
                guard noAfter || !afterIDs.isEmpty else { return [] }
                var ids = noAfter ? [] : target.metadata.dependsOn
                for id in afterIDs where !ids.contains(id) { ids.append(id) }
                let tokens = target.runs.tokens.filter { $0.field == .dependsOn }.count
                if ids.isEmpty { return tokens > 0 ? [.remove(.dependsOn)] : [] }
                return (tokens > 1 ? [.remove(.dependsOn)] : []) + [.setText(.dependsOn, ids.joined(separator: ","))]
            }

            guard
                let specs = try Bulk.items(
                    item.map { [$0] } ?? [], bulk: bulk, folder: folder, list: search.list, verb: "Edit",
                    dryRun: write.dryRun)
            else { return }
            let paths = try specs.map { try session.locate($0, list: search.list).document.path }
            try session.run(paths: paths, dryRun: write.dryRun) { inputs in
                // Each file edited once, with all its items' splices.
                var outcome = EditOutcome()
                for (document, targets) in try session.locateAll(specs, list: search.list, in: inputs.documents) {
                    let splices = targets.flatMap { TokenEdit.splices(changes + dependencyChanges($0), item: $0, in: document) }
                    let bytes = try EditSession.apply(splices, to: document)
                    outcome.files.append(.replace(path: document.path, bytes: bytes))
                    let written = DocumentParser.parse(bytes, path: document.path)
                    for target in targets {
                        let edited = written.items[target.index]
                        if edited.text == target.text {
                            outcome.notes.append("\(document.address(of: target)) already reads so; nothing to change")
                        } else {
                            outcome.messages.append("edited \(document.address(of: target))  \(edited.text)")
                            outcome.warnings += EditOutcome.unreadableTokens(in: written, line: target.line)
                        }
                    }
                }
                return outcome
            }
        }
    }
}
