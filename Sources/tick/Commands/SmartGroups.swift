import ArgumentParser
import TickEngine
import TickOutput
import TickRecords

/// A subcommand that shows one smart group (SPEC §4).
protocol SmartGroupCommand: TickCommand {
    static var group: SmartGroup { get }
    static var emptyMessage: String { get }
    var options: SmartGroupOptions { get }
}

/// What every smart-group command takes: the folder, the output and
/// result options, `--list`, and a query that narrows the group.
struct SmartGroupOptions: ParsableArguments {
    @OptionGroup var folder: FolderOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var results: ResultOptions
    @Option(name: .long, help: "Only this list (path, file name or name).", completion: Completions.lists) var list: String?
    @Argument(help: "A query that narrows the group, as in `tick query`.") var expression: [String] = []
}

extension SmartGroupCommand {
    static var parseCacheUse: ParseCacheUse { .reads }

    func execute() throws {
        let today = options.folder.todayDate
        let workspace = try options.folder.workspace()
        let context = ItemContext(today: today) { workspace.dependencies }
        let listItems = try options.list.map { try ListFilter.items(workspace, list: $0) }
        let query =
            options.expression.isEmpty
            ? nil : try QueryInput.parse(options.expression, today: today).resolvingDependencies(context.dependencies)
        let members: [EncodedListedItem]
        if var items = listItems {
            if let query { items = QueryEvaluator.filter(items, query) }
            members = Self.group.members(of: items, today: today)
        } else {
            members = Self.group.members(of: workspace, matching: query, today: today)
        }
        let arranged = options.results.arrange(
            consume members, isManual: Self.group == .all || Self.group == .overdue,
            defaultGrouping: Self.group.defaultGrouping, today: today)
        ResultPrinter.print(arranged, context: context, output: options.output, emptyMessage: Self.emptyMessage)
    }
}

/// Prints arranged results as JSON or as a listing, and keeps them until
/// the process exits (`KeptUntilExit`). (Kept once printed: kept from the
/// moment they were arranged, `today` at 50,000 notes measured 15–20 ms
/// slower, most likely because a second reference while they are printed
/// makes a change to them copy every item.)
enum ResultPrinter {
    static func print(_ arranged: Arranged, context: ItemContext, output: OutputOptions, emptyMessage: String, showNotes: Bool = false) {
        defer { KeptUntilExit.keep(arranged) }
        if output.json {
            if let groups = arranged.groups {
                Terminal.writeGroupsJSON(groups, context: context)
            } else {
                Terminal.writeItemsJSON(arranged.items, context: context)
            }
            return
        }
        let display = output.display
        if arranged.items.isEmpty {
            display.print([StyledText(emptyMessage, .dimmed).rendered(display.depth)])
            return
        }
        display.print(ItemsView.source(arranged, context: context, showNotes: showNotes, plain: display.depth == .none))
    }
}

extension Tick {
    /// `tick today`: open items due today or earlier, overdue first.
    struct Today: SmartGroupCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "today",
            abstract: "Show what is due today or earlier and still open: the overdue items first.",
            discussion: """
                Open and in-progress items due on or before today; overdue ones first, then list order. \
                A query after the command narrows the group.

                Examples:
                  tick today
                  tick today '#work' --sort priority
                  tick today --list groceries --json
                """)
        static let group = SmartGroup.today
        static let emptyMessage = "Nothing due today."
        @OptionGroup var options: SmartGroupOptions
    }

    /// `tick scheduled`: open items with a due date, grouped by day.
    struct Scheduled: SmartGroupCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "scheduled",
            abstract: "Show the open items with a due date, by due date, grouped by day.",
            discussion: """
                Examples:
                  tick scheduled
                  tick scheduled 'due <= +7d'
                  tick scheduled --group-by list
                """)
        static let group = SmartGroup.scheduled
        static let emptyMessage = "Nothing scheduled."
        @OptionGroup var options: SmartGroupOptions
    }

    /// `tick all`: every open item.
    struct All: SmartGroupCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "all",
            abstract: "Show every open item, in list order.",
            discussion: """
                Examples:
                  tick all
                  tick all --group-by list
                  tick all '#house' --sort priority
                """)
        static let group = SmartGroup.all
        static let emptyMessage = "Nothing to do."
        @OptionGroup var options: SmartGroupOptions
    }

    /// `tick overdue`: open items due before today.
    struct Overdue: SmartGroupCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "overdue",
            abstract: "Show the open items due before today.",
            discussion: """
                Examples:
                  tick overdue
                  tick overdue --list work
                  tick overdue --sort due --json
                """)
        static let group = SmartGroup.overdue
        static let emptyMessage = "Nothing overdue."
        @OptionGroup var options: SmartGroupOptions
    }

    /// `tick completed`: done items, newest first.
    struct Completed: SmartGroupCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "completed",
            abstract: "Show the done items, newest completion first (undated ones last).",
            discussion: """
                Examples:
                  tick completed
                  tick completed 'done >= -7d'
                  tick completed --limit 10
                """)
        static let group = SmartGroup.completed
        static let emptyMessage = "Nothing completed yet."
        @OptionGroup var options: SmartGroupOptions
    }
}
