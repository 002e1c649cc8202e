import ArgumentParser
import Foundation
import TickEngine
import TickModel
import TickOutput
import TickRecords

extension Tick {
    /// `tick agenda`: the coming days, with what is due, scheduled or starting.
    struct Agenda: TickCommand {
        static let configuration = CommandConfiguration(
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
            let workspace = try folder.workspace(readingEveryList: list == nil)
            let context = ItemContext(today: today) { workspace.dependencies }
            var items = try ListFilter.items(workspace, list: list)
            if !expression.isEmpty {
                items = QueryEvaluator.filter(items, try QueryInput.parse(expression, today: today).resolvingDependencies(context.dependencies))
            }
            let agenda = TickEngine.Agenda.days(items, today: today, count: days)
            if output.json {
                Terminal.writeJSON(
                    .object([
                        ("today", .string(today.isoString)),
                        (
                            "days",
                            .array(
                                agenda.map { day in
                                    .object([
                                        ("date", .string(day.date?.isoString)),
                                        ("name", .string(name(of: day, today: today))),
                                        (
                                            "entries",
                                            .array(
                                                day.entries.map { entry in
                                                    .object([
                                                        ("reasons", .array(entry.reasons.map { .string($0.rawValue) })),
                                                        ("item", ItemJSON.item(entry.record, context: context)),
                                                    ])
                                                })
                                        ),
                                    ])
                                })
                        ),
                    ]))
                return
            }
            let prefixes = ItemStyle.RowPrefixes(for: items)
            var lines: [ListingLine] = []
            for day in agenda {
                if !lines.isEmpty { lines.append(.blank) }
                lines.append(.heading(StyledText(name(of: day, today: today), TextStyle(bold: true, color: day.date == nil ? .red : nil))))
                if day.entries.isEmpty { lines.append(.heading(StyledText("  nothing", .dimmed))) }
                for entry in day.entries {
                    var row = ItemsView.row(entry.record, context: context, depth: 0, prefixes: prefixes, showList: true, showNotes: false)
                    row.due = StyledText(
                        entry.reasons.map { why($0, entry.record, today: today) }.joined(separator: ", "),
                        entry.reasons.contains(.overdue) ? TextStyle(color: .red) : .plain)
                    lines.append(.row(row))
                }
            }
            let display = output.display
            display.print(ItemTable.render(lines, width: display.width, depth: display.depth))
        }

        /// `Overdue`, or the day's heading (`Sat 2026-11-21 · today`).
        func name(of day: TickEngine.Agenda.Day, today: TaskDate) -> String {
            day.date.map { RelativeDate.heading($0, today: today) } ?? "Overdue"
        }

        /// Why an item is on its day, in words.
        func why(_ reason: TickEngine.Agenda.Reason, _ item: EncodedListedItem, today: TaskDate) -> String {
            switch reason {
            case .overdue: return item.date(.due).map { RelativeDate.describe($0, today: today).text } ?? "overdue"
            case .due: return "due"
            case .scheduled: return "scheduled"
            case .start: return "starts"
            case .scheduledEarlier:
                let days = item.date(.scheduled).map { $0.dayOnly.days(until: today) } ?? 0
                return "scheduled \(days) day\(days == 1 ? "" : "s") ago"
            case .dueSoon: return item.date(.due).map { "due " + RelativeDate.describe($0, today: today).text } ?? "due soon"
            }
        }
    }
}
