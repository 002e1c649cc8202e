import ArgumentParser
import Foundation
import TickKit

/// The formats `tick export` writes.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case json, ics, csv
}

extension Tick {
    /// `tick export --format json|ics|csv [EXPR]`: items for other programs.
    struct Export: TickCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write items as JSON, iCalendar to-dos (VTODO) or CSV.",
            discussion: """
                Without a query, every item of every status is written, in list order. The iCalendar \
                output is RFC 5545 (CRLF lines, folded at 75 octets); the CSV output is RFC 4180 with a \
                header row. With --today (or TICK_TODAY) set, DTSTAMP is that day, so output is \
                reproducible.

                Examples:
                  tick export --format ics 'open has due' > tick.ics
                  tick export --format csv > items.csv
                  tick export --format json '#work' --sort due
                """)

        @OptionGroup var folder: FolderOptions
        @Option(name: .long, help: ArgumentHelp("json, ics or csv.", valueName: "format")) var format: ExportFormat
        @Argument(help: ArgumentHelp("A query that selects the items, as in `tick query` (default: all).", valueName: "expr"))
        var expression: [String] = []
        @OptionGroup var results: ResultOptions
        @Option(name: .long, help: "Only this list (path, file name or name).", completion: Completions.lists) var list: String?

        func validate() throws {
            if results.groupBy != nil { throw ValidationError("--group-by does not apply to export; use `tick query --json --group-by`") }
        }

        func execute() throws {
            let today = folder.todayDate
            let query = expression.isEmpty ? nil : try QueryInput.parse(expression, today: today)
            let workspace = try folder.workspace()
            var items = try ListFilter.items(workspace, list: list)
            if let query { items = QueryEvaluator.filter(items, query) }
            let arranged = results.arrange(items, isManual: true, today: today)
            switch format {
            case .json:
                Terminal.writeItemsJSON(arranged.items, today: today)
            case .csv:
                Terminal.write(CSVWriter.write(arranged.items))
            case .ics:
                let stamp = folder.isTodayPinned ? ICalendarWriter.stamp(for: today) : Self.utcNow()
                Terminal.write(ICalendarWriter.write(arranged.items, stamp: stamp))
            }
        }

        static func utcNow() -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
            return formatter.string(from: Date())
        }
    }
}
