/// Marks items done, cancelled or open again (`tick done`, `cancel`, `reopen`).
///
/// Guarantees: the box's middle byte changes and, in the item's dialect, a
/// dated token is added, replaced or removed on the title line; a recurring
/// item that is completed first gets its next occurrence inserted above it as
/// an open item. Nothing else in the file changes.
public enum StatusEdit {
    /// The state a command asks for, with the date to record.
    public enum Intent: Sendable, Hashable {
        /// `[x]`, with a done date unless `date` is nil.
        case done(date: TaskDate?)
        /// `[-]`, with a cancelled date unless `date` is nil.
        case cancel(date: TaskDate?)
        /// `[ ]`: the done and cancelled dates are removed.
        case reopen
    }

    /// The splices that apply `intent` to `item`; empty when the item is
    /// already in that state. `today` is the date the next occurrence of a
    /// recurring item counts from when its rule says `when done` or it has
    /// no date.
    public static func splices(_ intent: Intent, item: TaskItem, in document: Document, today: TaskDate) -> [Splice] {
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
        }
        if item.status == target || (target == .open && item.status == .inProgress) { return [] }
        var splices = [boxSplice(item, target)]
        splices += TokenEdit.splices(changes, item: item, in: document)
        if target == .done, item.metadata.every != nil, let next = NextOccurrence.line(for: item, in: document, today: today) {
            splices.append(Splice.insert(next, at: lineStart(of: item, in: document)))
        }
        return splices
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
/// removed, a created date set to today, and its due, scheduled and start
/// dates advanced by the rule (month ends clamp). Notes and subtasks are not
/// copied.
public enum NextOccurrence {
    /// The bytes of the new line, line ending included; nil when the rule
    /// does not parse or a date of the new line would fall after
    /// `TaskDate.lastWritable` (see `unwritableDate`).
    public static func line(for item: TaskItem, in document: Document, today: TaskDate) -> [UInt8]? {
        guard let changes = changes(for: item, today: today), unwritableDate(in: changes) == nil else { return nil }
        let source = document.source
        let start = StatusEdit.lineStart(of: item, in: document)
        let end = source.rangeWithEnding(ofLine: item.line).upperBound
        var splices = TokenEdit.splices(changes, item: item, in: document)
        if item.status != .open { splices.append(StatusEdit.boxSplice(item, .open)) }
        let shifted = splices.map { Splice($0.range.lowerBound - start..<$0.range.upperBound - start, $0.replacement) }
        guard var line = try? Splice.apply(shifted, to: Array(source.bytes[start..<end])) else { return nil }
        if source.ending(ofLine: item.line).isEmpty { line += Array(source.lineEnding.utf8) }
        return line
    }

    /// A date the next occurrence of `item` would have that no file can
    /// hold (after `TaskDate.lastWritable`); nil when there is none or the
    /// rule does not parse.
    public static func unwritableDate(for item: TaskItem, today: TaskDate) -> TaskDate? {
        changes(for: item, today: today).flatMap(unwritableDate(in:))
    }

    private static func unwritableDate(in changes: [TokenEdit.Change]) -> TaskDate? {
        for case .setDate(_, let date) in changes where !date.isWritable { return date }
        return nil
    }

    /// The token changes that turn `item`'s title line into its next
    /// occurrence's; nil when the rule does not parse.
    private static func changes(for item: TaskItem, today: TaskDate) -> [TokenEdit.Change]? {
        guard let text = item.metadata.every, let rule = RecurrenceRule(text) else { return nil }
        let whenDone = text.lowercased().contains("when done")
        let metadata = item.metadata
        var changes: [TokenEdit.Change] = [.remove(.done), .remove(.cancelled), .remove(.blockID)]
        let fields: [MetadataField] = [.due, .scheduled, .start]
        let present = fields.filter { metadata.date($0) != nil }
        if let reference = present.first.flatMap({ metadata.date($0) }) {
            let referenceNext = rule.next(after: whenDone ? today : reference)
            let shift = reference.days(until: referenceNext)
            for field in present {
                let old = metadata.date(field)!
                changes.append(.setDate(field, whenDone ? old.adding(shift, .day) : rule.next(after: old)))
            }
        } else {
            changes.append(.setDate(.due, rule.next(after: today)))
        }
        if metadata.created != nil { changes.append(.setDate(.created, today)) }
        return changes
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
        return Array(document.source.bytes[document.source.rangeWithEnding(ofLine: above.line)]) == expected ? above : nil
    }
}
