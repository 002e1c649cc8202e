import TickModel
import TickSyntax

/// Marks items done, cancelled, in progress or open again (`tick done`,
/// `cancel`, `start`, `reopen`).
///
/// Guarantees: the box's middle byte changes and, in the item's dialect, a
/// dated token is added, replaced or removed on the title line; a recurring
/// item that is completed first gets its next occurrence inserted above it as
/// an open item; an item whose on-completion action is `delete` is removed
/// when done instead (see `deletesOnCompletion`). Nothing else in the file
/// changes.
public enum StatusEdit {
    /// The state a command asks for, with the date to record.
    public enum Intent: Sendable, Hashable {
        /// `[x]`, with a done date unless `date` is nil.
        case done(date: TaskDate?)
        /// `[-]`, with a cancelled date unless `date` is nil.
        case cancel(date: TaskDate?)
        /// `[ ]`: the done and cancelled dates are removed.
        case reopen
        /// `[/]` (in progress): the done and cancelled dates are removed.
        case start
    }

    /// The splices that apply `intent` to `item`; empty when the item is
    /// already in that state. `today` is the date the next occurrence of a
    /// recurring item counts from when its rule says `when done` or it has
    /// no date. With `repeating` false a recurring item is completed without
    /// a next occurrence (`tick done --no-repeat`).
    public static func splices(
        _ intent: Intent, item: TaskItem, in document: Document, today: TaskDate,
        repeating: Bool = true
    ) -> [Splice] {
        let target: TaskStatus
        var changes: [TokenEdit.Change] = []
        switch intent {
        case .done(let date):
            target = .done
            changes.append(.remove(.cancelled))
            if let date { changes.append(.setDate(.done, date)) }
        case .cancel(let date):
            target = .cancelled
            changes.append(.remove(.done))
            if let date { changes.append(.setDate(.cancelled, date)) }
        case .reopen:
            target = .open
            changes += [.remove(.done), .remove(.cancelled)]
        case .start:
            target = .inProgress
            changes += [.remove(.done), .remove(.cancelled)]
        }
        if item.status == target || (target == .open && item.status == .inProgress) { return [] }
        var splices = [boxSplice(item, target)]
        splices += TokenEdit.splices(changes, item: item, in: document)
        if target == .done, repeating, item.metadata.every != nil, let next = NextOccurrence.line(for: item, in: document, today: today) {
            splices.append(Splice.insert(next, at: lineStart(of: item, in: document)))
        }
        if target == .done, deletesOnCompletion(item) {
            // `🏁 delete`: the completed line goes; a next occurrence inserted above it stays.
            let start = lineStart(of: item, in: document)
            splices = splices.filter { $0.range.isEmpty && $0.range.lowerBound == start } + [.delete(start..<item.blockRange.upperBound)]
        }
        return splices
    }

    /// True when completing `item` removes it: its on-completion action is
    /// `delete` (Obsidian Tasks' `🏁 delete`) and it has no subtasks or notes
    /// to lose with it (such an item is completed and kept).
    public static func deletesOnCompletion(_ item: TaskItem) -> Bool {
        item.metadata.onCompletion == "delete" && item.children.isEmpty && item.notes == nil
    }

    /// The splice that writes `status`'s byte between the brackets.
    static func boxSplice(_ item: TaskItem, _ status: TaskStatus) -> Splice {
        Splice(item.boxRange.lowerBound + 1..<item.boxRange.lowerBound + 2, [status.boxByte])
    }

    static func lineStart(of item: TaskItem, in document: Document) -> Int {
        EditStyle.blockStart(item, in: document.source)
    }
}

/// The next occurrence of a recurring item (SPEC §5, `tick done`).
///
/// It is the item's title line (indentation, marker and quote markers
/// included) with an open box, its done, cancelled and block-id tokens
/// removed, a created date set to today when it had one, and its dates
/// moved as Obsidian Tasks moves them: the reference date (due, else
/// scheduled, else start) goes to the rule's next date after it (after
/// today for `when done`), and the other dates keep their distance in days
/// from it. An item without any of those dates gets a due date, the rule's
/// next date after today. Notes and subtasks are not copied.
public enum NextOccurrence {
    /// Why a completed recurring item gets no next occurrence.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The rule cannot be read: the text and why.
        case unreadableRule(String, String)
        /// A next date would fall after 9999-12-31 (or before 1583).
        case noNextDate(String)

        public var description: String {
            switch self {
            case .unreadableRule(let rule, let why): "cannot read the recurrence rule '\(rule)': \(why)"
            case .noNextDate(let rule): "the rule '\(rule)' has no next date on or before 9999-12-31"
            }
        }
    }

    /// The bytes of the new line, line ending included; nil when there is
    /// none (see `make`).
    public static func line(for item: TaskItem, in document: Document, today: TaskDate) -> [UInt8]? {
        try? make(for: item, in: document, today: today).get()
    }

    /// The unreadable rule of the item's title line, as the parser reported
    /// it: such an item has no `every`, and completing it must not end the
    /// series silently.
    public static func unreadableRule(of item: TaskItem, in document: Document) -> Diagnostic? {
        document.diagnostics.first { $0.line == item.line && $0.message.hasPrefix(RecurrenceRule.diagnosticPrefix) }
    }

    /// The new line, or why there is none.
    public static func make(for item: TaskItem, in document: Document, today: TaskDate) -> Result<[UInt8], Failure> {
        guard let text = item.metadata.every else { return .failure(.unreadableRule("", "the item has no rule")) }
        let rule: RecurrenceRule
        switch RecurrenceRule.parse(text) {
        case .success(let parsed): rule = parsed
        case .failure(let error): return .failure(.unreadableRule(text, error.description))
        }
        let metadata = item.metadata
        var changes: [TokenEdit.Change] = [.remove(.done), .remove(.cancelled), .remove(.blockID)]
        let fields: [MetadataField] = [.due, .scheduled, .start]
        let present = fields.filter { metadata.date($0) != nil }
        if let reference = present.first.flatMap({ metadata.date($0) }) {
            guard let referenceNext = rule.next(after: rule.whenDone ? today : reference) else { return .failure(.noNextDate(text)) }
            for field in present {
                let old = metadata.date(field)!
                let distance = reference.dayOnly.days(until: old.dayOnly)
                let moved = referenceNext.dayOnly.adding(distance, .day)
                guard moved <= RecurrenceRule.lastDate else { return .failure(.noNextDate(text)) }
                changes.append(.setDate(field, TaskDate(year: moved.year, month: moved.month, day: moved.day, minuteOfDay: old.minuteOfDay)))
            }
        } else {
            guard let due = rule.next(after: today) else { return .failure(.noNextDate(text)) }
            changes.append(.setDate(.due, due))
        }
        if metadata.created != nil { changes.append(.setDate(.created, today)) }

        let source = document.source
        let start = StatusEdit.lineStart(of: item, in: document)
        let end = source.rangeWithEnding(ofLine: item.line).upperBound
        var splices = TokenEdit.splices(changes, item: item, in: document)
        if item.status != .open { splices.append(StatusEdit.boxSplice(item, .open)) }
        let shifted = splices.map { Splice($0.range.lowerBound - start..<$0.range.upperBound - start, $0.replacement) }
        guard var line = try? Splice.apply(shifted, to: Array(source.bytes[start..<end])) else {
            return .failure(.unreadableRule(text, "the line cannot be copied"))
        }
        if source.ending(ofLine: item.line).isEmpty { line += Array(source.lineEnding.utf8) }
        return .success(line)
    }

    /// The deletion of a next occurrence found by `added(above:)`: its
    /// line, from where `done` inserted it (after a byte-order mark) to its
    /// line ending.
    public static func removal(of occurrence: TaskItem, in document: Document) -> Splice {
        .delete(StatusEdit.lineStart(of: occurrence, in: document)..<document.source.rangeWithEnding(ofLine: occurrence.line).upperBound)
    }

    /// The open item right above done `item` that `done` added as its next
    /// occurrence: a one-line item directly above it whose line is byte for
    /// byte the line `done` adds for `item` (counting from `item`'s done
    /// date, else `today`). Nil when there is none, or it was changed since.
    public static func added(above item: TaskItem, in document: Document, today: TaskDate) -> TaskItem? {
        guard item.status == .done, item.metadata.every != nil else { return nil }
        let start = document.source.line(containing: StatusEdit.lineStart(of: item, in: document))
        guard start > 1, let above = document.items.last(where: { $0.line == start - 1 }),
            above.status == .open, above.lastLine == above.line, above.children.isEmpty,
            let expected = line(for: item, in: document, today: item.metadata.done?.dayOnly ?? today)
        else { return nil }
        var written = Array(document.source.bytes[document.source.rangeWithEnding(ofLine: above.line)])
        // `done` inserts after a byte-order mark: the mark is not part of the line.
        if above.line == 1, written.starts(with: [0xEF, 0xBB, 0xBF]) { written.removeFirst(3) }
        return written == expected ? above : nil
    }
}
