import ArgumentParser
import TickEngine
import TickModel
import TickRecords

extension Tick {
    /// `tick query EXPR`: the items that match a query.
    struct Query: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "query",
            abstract: "Show the items that match a query.",
            discussion: """
                Quote the query so that the shell leaves < and > alone. Conditions side by side mean \
                `and`; `not` binds tighter than `and`, which binds tighter than `or`. Items of every \
                status match unless the query says otherwise. See docs/QUERY.md for the whole language.

                  open | done | cancelled | in-progress      every (recurring)
                  due < today   due <= +7d   due = tomorrow   has due | no due
                  priority >= high   #work   tag = work   list = groceries
                  path ~ projects/   section ~ "next up"   milk (or "milk": titles)
                  title ~ "/regex/i"   text ~ word

                Examples:
                  tick query milk bread
                  tick query 'open due < today'
                  tick query 'open and (#house or list = home)' --sort priority
                  tick query 'due <= +7d not done' --group-by due --explain
                  tick query '"milk" or "eggs"' --json
                """)

        @OptionGroup var folder: FolderOptions
        @Argument(help: ArgumentHelp("The query (its words are joined by spaces).", valueName: "expr")) var expression: [String]
        @OptionGroup var output: OutputOptions
        @OptionGroup var results: ResultOptions
        @Option(name: .long, help: "Only this list (path, file name or name).", completion: Completions.lists) var list: String?
        @Flag(name: .long, help: "Print the parsed query as a tree, relative dates resolved, before the results.")
        var explain = false
        @Flag(name: .long, help: "Show each item's notes under it.") var notes = false

        func execute() throws {
            let today = folder.todayDate
            let parsed = try QueryInput.parse(expression, today: today)
            // Without --sort, the config file's default sort.
            var results = self.results
            if results.sort == nil, let keys = try Configuration.settings(for: folder).sort { results.sort = SortKeys(keys) }
            let workspace = try folder.workspace()
            let context = ItemContext(today: today) { workspace.dependencies }
            let query = parsed.resolvingDependencies(context.dependencies)
            if list == nil, results.keepsManualOrder, results.isFlatJSON(output: output) {
                // Items are tested and printed in one pass, on every core.
                if explain { Terminal.writeError(QueryExplanation.tree(query) + "\n") }
                Terminal.writeItemsJSON(matching: query, in: workspace, context: context)
                return
            }
            let matches = try ListFilter.items(workspace, list: list, matching: query)
            if explain {
                let tree = QueryExplanation.tree(parsed)
                if output.json {
                    Terminal.writeError(tree + "\n")
                } else {
                    output.display.print(
                        [StyledText("Query:", .strong).rendered(output.display.depth)]
                            + tree.split(separator: "\n").map { "  " + $0 } + [""])
                }
            }
            let arranged = results.arrange(consume matches, isManual: true, today: today)
            if explain, let lines = urgencyExplanation(arranged.items, today: today) {
                if output.json {
                    Terminal.writeError(lines.joined(separator: "\n") + "\n")
                } else {
                    output.display.print([StyledText(lines[0], .strong).rendered(output.display.depth)] + lines.dropFirst() + [""])
                }
            }
            ResultPrinter.print(arranged, context: context, output: output, emptyMessage: "No items match.", showNotes: notes)
        }

        /// With --explain and --sort urgency: each item's score and its parts
        /// (a heading line first), as Obsidian Tasks counts them.
        func urgencyExplanation(_ items: [EncodedListedItem], today: TaskDate) -> [String]? {
            guard results.sort?.keys.contains(.urgency) == true else { return nil }
            return ["Urgency (due + priority + scheduled + start):"]
                + items.map { item in
                    "  " + TerminalText.safe(Urgency(item, today: today).explanation + "   \(item.listPath):\(item.line)  \(item.title.string)")
                }
        }
    }
}
