import ArgumentParser
import Foundation
import TickEngine
import TickModel
import TickOutput

/// The formats `tick export` writes.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case json, ics, csv
}

extension Tick {
    /// `tick export --format json|ics|csv [EXPR]`: items for other programs.
    struct Export: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "export",
            abstract: "Write items as JSON, iCalendar to-dos (VTODO) or events (VEVENT), or CSV.",
            discussion: """
                Without a query, every item of every status is written, in list order. The iCalendar \
                output is RFC 5545 (CRLF lines, folded at 75 octets); the CSV output is RFC 4180 with a \
                header row. With --today (or TICK_TODAY) set, DTSTAMP is that day, so output is \
                reproducible.

                Calendar apps (Google Calendar, Apple's Calendar, Fastmail) show events, not to-dos: \
                --events writes each open item with a due date as an event on that day (at its time, \
                for an hour, when it has one), recurring ones with their RRULE, and --alarm adds a \
                reminder that long before. --output FILE writes the file atomically and only when \
                something in it changed, and raises the SEQUENCE of each event that changed since \
                the file was last written: run it from cron and subscribe to the file.

                Examples:
                  tick export --format ics 'open has due' > tick.ics
                  tick export --format ics --events --alarm 1h --output tick-events.ics
                  tick export --format csv > items.csv
                  tick export --format json '#work' --sort due
                """)

        @OptionGroup var folder: FolderOptions
        @Option(name: .long, help: ArgumentHelp("json, ics or csv.", valueName: "format")) var format: ExportFormat
        @Argument(help: ArgumentHelp("A query that selects the items, as in `tick query` (default: all).", valueName: "expr"))
        var expression: [String] = []
        @OptionGroup var results: ResultOptions
        @Option(name: .long, help: "Only this list (path, file name or name).", completion: Completions.lists) var list: String?
        @Flag(name: .long, help: "With --format ics: events (VEVENT) on the due dates, for calendar apps, instead of to-dos.")
        var events = false
        @Option(name: .long, help: ArgumentHelp("With --events: a reminder this long before each event (30m, 2h, 1d).", valueName: "duration"))
        var alarm: String?
        @Option(
            name: .long,
            help: ArgumentHelp(
                "Write to this file (atomically, and only when its content changes) instead of standard output.",
                valueName: "file"), completion: .file())
        var output: String?

        func validate() throws {
            if results.groupBy != nil { throw ValidationError("--group-by does not apply to export; use `tick query --json --group-by`") }
            if events && format != .ics { throw ValidationError("--events needs --format ics") }
            if alarm != nil && !events { throw ValidationError("--alarm needs --events (a reminder before each event)") }
            if let alarm, Self.minutes(alarm) == nil {
                throw ValidationError("--alarm '\(alarm)' is not a duration; write minutes, hours or days, e.g. 30m, 2h, 1d")
            }
        }

        /// `30m`, `2h`, `1d` (or plain minutes) as minutes; nil when not a duration of at most a year.
        static func minutes(_ text: String) -> Int? {
            let units: [Character: Int] = ["m": 1, "h": 60, "d": 1440]
            var digits = text.lowercased()
            var unit = 1
            if let last = digits.last, let factor = units[last] {
                unit = factor
                digits.removeLast()
            }
            guard let count = Int(digits), count > 0, count * unit <= 366 * 1440 else { return nil }
            return count * unit
        }

        func execute() throws {
            let today = folder.todayDate
            let parsed = expression.isEmpty ? nil : try QueryInput.parse(expression, today: today)
            let workspace = try folder.workspace()
            let context = ItemContext(today: today) { workspace.dependencies }
            let query = parsed?.resolvingDependencies(context.dependencies)
            if format == .ics, !events, list == nil, results.keepsManualOrder, results.groupBy == nil {
                // To-dos in manual order: tested and written in one pass, on every core.
                let stamp = folder.isTodayPinned ? ICalendarWriter.stamp(for: today) : Self.utcNow()
                return try deliver { ICalendarWriter.write(matching: query, in: workspace, stamp: stamp, to: $0) }
            }
            let items = try ListFilter.items(workspace, list: list, matching: query)
            let arranged = results.arrange(consume items, isManual: true, today: today)
            defer { KeptUntilExit.keep(arranged) } // once written (`ResultPrinter`)
            switch format {
            case .json:
                if output == nil {
                    Terminal.writeItemsJSON(arranged.items, context: context)
                } else {
                    try deliver(String(decoding: ItemJSON.itemsDocumentBytes(arranged.items, context: context), as: UTF8.self))
                }
            case .csv:
                try deliver { CSVWriter.write(arranged.items, to: $0) }
            case .ics:
                let stamp = folder.isTodayPinned ? ICalendarWriter.stamp(for: today) : Self.utcNow()
                if !events {
                    try deliver { ICalendarWriter.write(arranged.items, stamp: stamp, to: $0) }
                    return
                }
                // SEQUENCE: kept for an event that did not change since the file
                // was last written, one more for one that did, 0 for a new one.
                let previous = output.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }.map(ICalendarWriter.events) ?? [:]
                try deliver {
                    ICalendarWriter.writeEvents(arranged.items, stamp: stamp, previous: previous, alarm: alarm.flatMap(Self.minutes), to: $0)
                }
            }
        }

        /// Streams what `write` emits to standard output in pieces of at
        /// least 64 KB (the whole export is never in memory): a piece that
        /// large is written as it is, smaller ones are gathered first. Or
        /// collects it for --output and hands it to `deliver(_:)`.
        private func deliver(_ write: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void) throws {
            guard output == nil else {
                var text: [UInt8] = []
                write { text.append(contentsOf: $0) }
                try deliver(String(decoding: text, as: UTF8.self))
                return
            }
            var pending: [UInt8] = []
            pending.reserveCapacity(80 * 1024)
            write { piece in
                if pending.isEmpty, piece.count >= 64 * 1024 {
                    // A run of components: written without a copy.
                    Terminal.writeRaw(piece)
                    return
                }
                pending.append(contentsOf: piece)
                if pending.count >= 64 * 1024 {
                    Terminal.writeRaw(pending)
                    pending.removeAll(keepingCapacity: true)
                }
            }
            Terminal.writeRaw(pending)
        }

        /// Writes `text` to standard output, or to --output: atomically, and
        /// not at all when only its DTSTAMPs would change.
        private func deliver(_ text: String) throws {
            guard let output else {
                Terminal.write(text)
                return
            }
            func withoutStamps(_ text: String) -> [Substring] {
                text.split(separator: "\r\n").filter { !$0.hasPrefix("DTSTAMP:") }
            }
            if let previous = try? String(contentsOfFile: output, encoding: .utf8), withoutStamps(previous) == withoutStamps(text) {
                Terminal.note("\(output) is up to date; not written")
                return
            }
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw TickError.cannotWrite("cannot write \(output): \(error.localizedDescription)")
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
