import ArgumentParser
import Foundation
import TickEdit
import TickModel
import TickSystem

extension Tick {
    /// `tick done ITEM...`: box `[x]` and a done date; a recurring item first
    /// gets its next occurrence above it.
    struct Done: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "done",
            abstract: "Mark items done, with today's date; a recurring item gets its next occurrence.",
            discussion: """
                ITEM is PATH:LINE, ^id, or part of exactly one item's title. The done date goes at \
                the end of the title line (before a trailing ^id) in the item's dialect. An item \
                with a recurrence rule first gets a new open copy above it, with its dates moved \
                by its rule. An item whose rule tick cannot read (tick check reports it) is not \
                completed: fix the rule, or give --no-repeat to complete it without a next \
                occurrence.

                  done:DATE    ✅ DATE         [completion:: DATE]    (tick, Obsidian, Dataview)
                  every:week   🔁 every week   [repeat:: every week]

                Examples:
                  tick done groceries.md:12
                  tick done ^q4plan "status update" --dry-run
                  tick done milk --no-date
                  tick done "council tax" --no-repeat
                """)

        @OptionGroup var folder: FolderOptions
        @OptionGroup var write: WriteOptions
        @OptionGroup var search: ItemSearchOptions
        @Argument(help: "The items: PATH:LINE, ^id or title text.", completion: Completions.items) var items: [String] = []
        @Flag(name: .long, help: "Do not add a done date.") var noDate = false
        @Flag(name: .long, help: "Complete a recurring item without adding its next occurrence.") var noRepeat = false
        @OptionGroup var bulk: BulkOptions

        func execute() throws {
            guard
                let specs = try Bulk.items(
                    items, bulk: bulk, folder: folder, list: search.list, verb: "Mark done",
                    dryRun: write.dryRun)
            else { return }
            try StatusChange.run(specs, folder: folder, write: write, search: search, repeating: !noRepeat) { today in
                .done(date: noDate ? nil : today)
            }
        }
    }

    /// `tick reopen ITEM...`: box `[ ]`, done and cancelled dates removed.
    struct Reopen: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "reopen",
            abstract: "Open items again: the box becomes [ ] and the done or cancelled date goes.",
            discussion: """
                A title names done and cancelled items first. Reopening a done recurring item \
                also removes the next occurrence that done added right above it, when that line \
                is unchanged.

                Examples:
                  tick reopen groceries.md:16
                  tick reopen Eggs --list groceries
                """)

        @OptionGroup var folder: FolderOptions
        @OptionGroup var write: WriteOptions
        @OptionGroup var search: ItemSearchOptions
        @Argument(help: "The items: PATH:LINE, ^id or title text.", completion: Completions.items) var items: [String] = []

        func execute() throws {
            try StatusChange.run(items, folder: folder, write: write, search: search) { _ in .reopen }
        }
    }

    /// `tick cancel ITEM...`: box `[-]` and a cancelled date.
    struct Cancel: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "cancel",
            abstract: "Cancel items: the box becomes [-] and a cancelled date is added.",
            discussion: """
                A recurring item that is cancelled gets no next occurrence.

                Examples:
                  tick cancel work.md:15
                  tick cancel "feature flags" --no-date
                """)

        @OptionGroup var folder: FolderOptions
        @OptionGroup var write: WriteOptions
        @OptionGroup var search: ItemSearchOptions
        @Argument(help: "The items: PATH:LINE, ^id or title text.", completion: Completions.items) var items: [String] = []
        @Flag(name: .long, help: "Do not add a cancelled date.") var noDate = false
        @OptionGroup var bulk: BulkOptions

        func execute() throws {
            guard
                let specs = try Bulk.items(
                    items, bulk: bulk, folder: folder, list: search.list, verb: "Cancel",
                    dryRun: write.dryRun)
            else { return }
            try StatusChange.run(specs, folder: folder, write: write, search: search) { today in
                .cancel(date: noDate ? nil : today)
            }
        }
    }
}

extension Tick {
    /// `tick start ITEM...`: box `[/]`, in progress.
    struct Start: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "start",
            abstract: "Start items: the box becomes [/] (in progress).",
            discussion: """
                An in-progress item stays in Today, Scheduled and All, and is shown with ◐. \
                Starting a done or cancelled item opens it again, without its done or cancelled \
                date. `tick reopen` makes it [ ] again.

                Examples:
                  tick start work.md:13
                  tick start "runbook" --list work
                """)

        @OptionGroup var folder: FolderOptions
        @OptionGroup var write: WriteOptions
        @OptionGroup var search: ItemSearchOptions
        @Argument(help: "The items: PATH:LINE, ^id or title text.", completion: Completions.items) var items: [String] = []

        func execute() throws {
            try StatusChange.run(items, folder: folder, write: write, search: search) { _ in .start }
        }
    }
}

/// The shared work of done, reopen, cancel and start.
enum StatusChange {
    static func run(
        _ specs: [String], folder: FolderOptions, write: WriteOptions, search: ItemSearchOptions,
        repeating: Bool = true, intent: (TaskDate) -> StatusEdit.Intent
    ) throws {
        guard !specs.isEmpty else { throw TickError.usage("name at least one ITEM: PATH:LINE, ^id or title text") }
        let session = try EditSession(folder: folder)
        let today = session.today
        let chosen = intent(today)
        // Resolve every item before anything is written: a bad name changes nothing.
        let reopening = chosen == .reopen
        let paths = try specs.map { try session.locate($0, list: search.list, preferringCompleted: reopening).document.path }
        try session.run(paths: paths, dryRun: write.dryRun) { inputs in
            var outcome = EditOutcome()
            for (document, items) in try session.locateAll(specs, list: search.list, in: inputs.documents, preferringCompleted: reopening) {
                let path = document.path
                let named = Set(items.map(\.index))
                var splices: [Splice] = []
                var lines = LineShifts()
                // What to say about each item, with its line to be given its new number.
                var reports: [(item: TaskItem, lines: [(text: String, line: Int?)])] = []
                for item in items {
                    let edit = try Self.edit(
                        chosen, item: item, in: document, today: today, repeating: repeating,
                        keeping: named)
                    if edit.splices.isEmpty {
                        outcome.notes.append("\(document.address(of: item)) is already \(Self.state(chosen)); left as it is")
                        continue
                    }
                    splices += edit.splices
                    var report: [(text: String, line: Int?)] = [("\(Self.word(chosen)) \(document.path):", item.line)]
                    if edit.deletesItem {
                        lines.removed(item.line)
                        report = [
                            (
                                "\(Self.word(chosen)) \(document.address(of: item))  \(item.title), and removed it (its on-completion action is delete)",
                                nil
                            )
                        ]
                    }
                    if case .done = chosen, item.metadata.every != nil || NextOccurrence.unreadableRule(of: item, in: document) != nil {
                        if edit.addsNextOccurrence {
                            let above = item.line // the new line goes in just above the item's
                            lines.inserted(before: above)
                            report.append(("  its next occurrence was added above it as \(document.path):", -above))
                        } else {
                            report.append(("  no next occurrence was added (--no-repeat)", nil))
                        }
                    }
                    if let occurrence = edit.removedOccurrence {
                        lines.removed(occurrence.line)
                        let start = NextOccurrence.removal(of: occurrence, in: document).range.lowerBound
                        let text = String(
                            decoding: document.source.bytes[start..<document.source.range(ofLine: occurrence.line).upperBound], as: UTF8.self)
                        report.append(
                            ("  removed its next occurrence, which done had added above it: \(text.trimmingWhiteSpace())", nil))
                    }
                    if let note = edit.note { outcome.notes.append(note) }
                    reports.append((item, report))
                }
                for (item, report) in reports {
                    for (index, entry) in report.enumerated() {
                        guard let line = entry.line else {
                            outcome.messages.append(entry.text)
                            continue
                        }
                        // A negative line is an inserted line's place: the line it was inserted before.
                        let number = line < 0 ? lines.newLine(ofInsertionBefore: -line) : lines.newLine(of: line)
                        outcome.messages.append(entry.text + "\(number)" + (index == 0 ? "  \(item.title)" : ""))
                    }
                }
                if !splices.isEmpty {
                    outcome.files.append(.replace(path: path, bytes: try EditSession.apply(splices, to: document)))
                }
            }
            return outcome
        }
    }

    /// What done, cancel, start or reopen does to one item: the splices
    /// (empty when it is already in that state) and what to say about them.
    /// Shared by the commands and the language server's code actions, so
    /// both make the same bytes.
    struct ItemEdit {
        var splices: [Splice]
        /// A recurring item's next occurrence is inserted above it.
        var addsNextOccurrence = false
        /// `reopen` removes the unchanged next occurrence `done` had added above the item.
        var removedOccurrence: TaskItem?
        /// A note for the user (an open copy above that changed since `done` added it).
        var note: String?
        /// `done` removed the item's line, as its on-completion action says (`🏁 delete`).
        var deletesItem = false
    }

    /// The edit `intent` makes to `item`. A `done` that would end a series
    /// silently (a rule tick cannot read, no next date) throws instead;
    /// `keeping` holds the indexes of items named too, whose lines `reopen`
    /// must not remove as next occurrences.
    static func edit(
        _ intent: StatusEdit.Intent, item: TaskItem, in document: Document, today: TaskDate,
        repeating: Bool = true, keeping: Set<Int> = []
    ) throws -> ItemEdit {
        if case .done = intent, repeating, item.status != .done {
            // A series never ends silently: no next occurrence, no completion.
            if let problem = NextOccurrence.unreadableRule(of: item, in: document) {
                throw TickError.badData(
                    "\(document.address(of: item)):\(problem.column): \(problem.message); "
                        + "nothing was changed: fix the rule, or use --no-repeat to complete it without a next occurrence")
            }
            if item.metadata.every != nil, case .failure(let failure) = NextOccurrence.make(for: item, in: document, today: today) {
                throw TickError.badData(
                    "\(document.address(of: item)): \(failure); nothing was changed: "
                        + "change its dates or its rule, or use --no-repeat to complete it without a next occurrence")
            }
        }
        var result = ItemEdit(splices: StatusEdit.splices(intent, item: item, in: document, today: today, repeating: repeating))
        if result.splices.isEmpty { return result }
        if case .done = intent, repeating, item.metadata.every != nil,
            NextOccurrence.line(for: item, in: document, today: today) != nil
        {
            result.addsNextOccurrence = true
        }
        if case .done = intent, item.metadata.onCompletion == "delete" {
            if StatusEdit.deletesOnCompletion(item) {
                result.deletesItem = true
            } else {
                result.note =
                    "\(document.address(of: item)) says 🏁 delete but has subtasks or notes: it is marked done and kept "
                    + "(`tick rm \(document.address(of: item))` removes it with them)"
            }
        }
        if intent == .reopen, let occurrence = NextOccurrence.added(above: item, in: document, today: today),
            !keeping.contains(occurrence.index)
        {
            result.splices.append(NextOccurrence.removal(of: occurrence, in: document))
            result.removedOccurrence = occurrence
        } else if intent == .reopen, item.status == .done, item.metadata.every != nil,
            let copy = document.items.last(where: { $0.line == item.line - 1 }),
            copy.status.isOpen, copy.title == item.title
        {
            result.note =
                "\(document.address(of: copy)) above it is an open copy that changed since done added it; "
                + "left as it is (`tick rm \(document.address(of: copy))` removes it)"
        }
        return result
    }

    static func state(_ intent: StatusEdit.Intent) -> String {
        switch intent {
        case .done: "done"
        case .cancel: "cancelled"
        case .reopen: "open"
        case .start: "in progress"
        }
    }

    static func word(_ intent: StatusEdit.Intent) -> String {
        switch intent {
        case .done: "done"
        case .cancel: "cancelled"
        case .reopen: "reopened"
        case .start: "started"
        }
    }
}

/// Where lines end up after one-line insertions and removals in a file:
/// the new numbers `done` and `reopen` print.
struct LineShifts {
    private var insertions: [Int] = [] // old line numbers a line was inserted before
    private var removals: [Int] = [] // old line numbers removed

    mutating func inserted(before line: Int) { insertions.append(line) }
    mutating func removed(_ line: Int) { removals.append(line) }

    /// The new number of old line `line` (not a removed one).
    func newLine(of line: Int) -> Int {
        line + insertions.filter { $0 <= line }.count - removals.filter { $0 < line }.count
    }

    /// The new number of the line inserted before old line `line`.
    func newLine(ofInsertionBefore line: Int) -> Int { newLine(of: line) - 1 }
}
