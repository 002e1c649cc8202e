import ArgumentParser
import Foundation
import TickEngine
import TickModel
import TickOutput
import TickRecords

extension Tick {
    /// `tick agenda`: the coming days, with what is due, scheduled or starting.
    struct Agenda: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "agenda",
            abstract: "Show the coming days: what is overdue, then each day's due, scheduled and starting items.",
            discussion: """
                Open and in-progress items only. Overdue items come first; then each day from today \
                (7 days, or --days N) lists what is due, scheduled or starting that day. Today also \
                shows what was scheduled earlier and is still open, and items due within 14 days \
                after the last day shown (a deadline warning). A query after the command narrows \
                the items, as in `tick query`.

                Examples:
                  tick agenda
                  tick agenda --days 3 '#work'
                  tick agenda --json
                """)

        @OptionGroup var folder: FolderOptions
        @OptionGroup var output: OutputOptions
        @Option(name: .long, help: ArgumentHelp("How many days to show, from today (1 to 366).", valueName: "n")) var days = 7
        @Option(name: .long, help: "Only this list (path, file name or name).", completion: Completions.lists) var list: String?
        @Argument(help: "A query that narrows the items, as in `tick query`.") var expression: [String] = []

        func validate() throws {
            guard (1...366).contains(days) else { throw ValidationError("--days \(days) is out of range; give 1 to 366") }
        }

        func execute() throws {
            let today = folder.todayDate
            let workspace = try folder.workspace()
            let context = ItemContext(today: today) { workspace.dependencies }
            let query = try expression.isEmpty ? nil : QueryInput.parse(expression, today: today).resolvingDependencies(context.dependencies)
            // Over the whole folder, only the items that can be on an
            // agenda are gathered (on every core), not every item.
            let items =
                list == nil && query == nil
                ? workspace.items(where: TickEngine.Agenda.mayShow) : try ListFilter.items(workspace, list: list, matching: query)
            let agenda = TickEngine.Agenda.days(items, today: today, count: days)
            let names = agenda.map { AgendaView.name(of: $0, today: today) }
            if output.json {
                ItemJSON.writeAgendaDocument(agenda, names: names, context: context) { Terminal.writeRaw($0) }
                Terminal.writeRaw([0x0A])
                return
            }
            let display = output.display
            display.print(AgendaView.source(agenda, names: names, context: context, plain: display.depth == .none))
        }
    }
}
