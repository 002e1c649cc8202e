import TickEngine
import TickModel
import TickRecords
import TickSystem

/// The JSON documents of the read commands (SPEC §6), keys in a fixed order.
extension ItemJSON {
    /// `{"today": "...", "items": [...]}`
    public static func items(_ items: [EncodedListedItem], context: ItemContext) -> JSONValue {
        .object([
            ("today", .string(context.today.isoString)),
            ("items", .array(items.map { item($0, context: context) })),
        ])
    }

    /// The bytes of `items(items, today:)` pretty-printed, the items rendered
    /// in parallel: the same bytes as serialising the whole document, in a
    /// fraction of the time for tens of thousands of items.
    public static func itemsDocumentBytes(_ items: [EncodedListedItem], context: ItemContext) -> [UInt8] {
        var output: [UInt8] = []
        writeItemsDocument(items, context: context) { output.append(contentsOf: $0) }
        return output
    }

    /// Writes `items(items, today:)` pretty-printed, piece by piece, in order:
    /// runs of items are rendered on every core (`ItemRuns`) and handed to
    /// `write` as soon as they are ready, so the whole document is never in
    /// memory.
    public static func writeItemsDocument(
        _ items: [EncodedListedItem], context: ItemContext,
        to writeBuffer: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        writeItemsDocument(today: context.today, to: writeBuffer) { deliver in
            ItemRuns.write(items, runsOfAtMost: 64, bytesPerItem: 1024) { positions, output, itemEnded in
                for position in positions {
                    appendItem(items[position], context: context, to: &output)
                    itemEnded(output.count)
                }
            } deliver: {
                deliver($0)
            }
        }
    }

    /// Writes `groups(groups, context:)` pretty-printed, piece by piece, in
    /// order: the groups' items are cut into runs (`ItemRuns`, which gives
    /// the cache's pages back as they are written) rendered on every core,
    /// each group's name and brackets written where its first and last
    /// items fall, so the whole document is never in memory.
    /// (`span` is `ItemRuns`'s: how much of the cache a run's lists may
    /// span; tests make it small.)
    public static func writeGroupsDocument(
        _ groups: ItemGroups, context: ItemContext, spanningAtMost span: Int = 8 << 20,
        to writeBuffer: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        func write(_ text: String) { Array(text.utf8).withUnsafeBufferPointer { writeBuffer($0) } }
        write("{\n  \"today\": \"\(context.today.isoString)\",\n  \"groups\": ")
        guard !groups.isEmpty else { return write("[]\n}") }
        let items = groups.items
        write("[")
        ItemRuns.write(items, runsOfAtMost: 64, bytesPerItem: 1024, spanningAtMost: span) { positions, output, itemEnded in
            for position in positions {
                // Each item writes its group's opening if it is the first,
                // and its closing if the last (the items may come scattered).
                let group = groups.group(containing: position)
                let range = groups.range(of: group)
                if position == range.lowerBound {
                    output.append(group == 0 ? "\n    {\n      \"name\": " : ",\n    {\n      \"name\": ")
                    JSONValue.appendString(groups[group].name, to: &output)
                    output.append(",\n      \"items\": [\n        ")
                } else {
                    output.append(",\n        ")
                }
                ItemJSON.write(items[position], context: context, at: .groupsDocument, to: &output)
                if position == range.upperBound - 1 { output.append("\n      ]\n    }") }
                itemEnded(output.count)
            }
        } deliver: {
            writeBuffer($0)
        }
        write("\n  ]\n}")
    }

    /// Writes the agenda document (`tick agenda --json`) pretty-printed,
    /// piece by piece, in order: `{"today": "...", "days": [{"date": "...",
    /// "name": "...", "entries": [{"reasons": [...], "item": {...}}]}]}`,
    /// each day named by `names`. The entries' items are cut into runs
    /// rendered on every core (`ItemRuns`), each day's opening and closing
    /// written where its first and last entries fall (the days without
    /// entries before it with a day's first entry, or at the end), so the
    /// whole document is never in memory.
    public static func writeAgendaDocument(
        _ days: [Agenda.Day], names: [String], context: ItemContext, to writeBuffer: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        func write(_ text: String) { Array(text.utf8).withUnsafeBufferPointer { writeBuffer($0) } }
        /// A day up to its entries' array, after a comma unless it is the first.
        func appendOpening(of day: Int, to output: inout ByteOutput) {
            output.append(day == 0 ? "\n    {\n      \"date\": " : ",\n    {\n      \"date\": ")
            if let date = days[day].date { JSONValue.appendString(date.isoString, to: &output) } else { output.append("null") }
            output.append(",\n      \"name\": ")
            JSONValue.appendString(names[day], to: &output)
            output.append(",\n      \"entries\": ")
        }
        /// The days of `range`, none of which has entries, whole.
        func appendEmptyDays(_ range: Range<Int>, to output: inout ByteOutput) {
            for day in range {
                appendOpening(of: day, to: &output)
                output.append("[]\n    }")
            }
        }
        write("{\n  \"today\": \"\(context.today.isoString)\",\n  \"days\": ")
        guard !days.isEmpty else { return write("[]\n}") }
        write("[")
        // Each day's first entry's place among all the entries (a day
        // without entries has the next day's).
        var firstEntries: [Int] = []
        var items: [EncodedListedItem] = []
        var reasons: [Agenda.Reasons] = []
        for day in days {
            firstEntries.append(items.count)
            for entry in day.entries {
                items.append(entry.record)
                reasons.append(entry.reasons)
            }
        }
        ItemRuns.write(items, runsOfAtMost: 64, bytesPerItem: 1024) { positions, output, itemEnded in
            for position in positions {
                let day = firstEntries.run(containing: position)
                if position == firstEntries[day] {
                    let previous = days[..<day].lastIndex { !$0.entries.isEmpty } ?? -1
                    appendEmptyDays(previous + 1..<day, to: &output)
                    appendOpening(of: day, to: &output)
                    output.append("[\n        {\n          \"reasons\": [")
                } else {
                    output.append(",\n        {\n          \"reasons\": [")
                }
                for (index, reason) in reasons[position].enumerated() {
                    output.append(index == 0 ? "\n            " : ",\n            ")
                    JSONValue.appendString(reason.rawValue, to: &output)
                }
                output.append("\n          ],\n          \"item\": ")
                ItemJSON.write(items[position], context: context, at: .agendaEntry, to: &output)
                output.append("\n        }")
                if position == firstEntries[day] + days[day].entries.count - 1 { output.append("\n      ]\n    }") }
                itemEnded(output.count)
            }
        } deliver: {
            writeBuffer($0)
        }
        var rest = ByteOutput()
        let lastDayWithEntries = days.lastIndex { !$0.entries.isEmpty }
        appendEmptyDays((lastDayWithEntries.map { $0 + 1 } ?? 0)..<days.count, to: &rest)
        rest.append("\n  ]\n}")
        rest.withBytes { writeBuffer($0) }
    }

    /// Appends one item of the items document, as the items given to
    /// `writeItemsDocument(today:to:items:)` are written: a comma, a new
    /// line, then the item at its place in the document.
    static func appendItem(_ record: EncodedListedItem, context: ItemContext, to output: inout ByteOutput) {
        output.append(",\n    ")
        ItemJSON.write(record, context: context, to: &output)
    }

    /// Writes the items document around the items `writeItems` writes:
    /// it hands each piece of them, in order, to the function it is given,
    /// each item appended with `appendItem` (the first item's comma is
    /// left out here), so the whole document is never in memory.
    static func writeItemsDocument(
        today: TaskDate, to writeBuffer: (UnsafeBufferPointer<UInt8>) -> Void,
        items writeItems: (_ deliver: (UnsafeBufferPointer<UInt8>) -> Void) -> Void
    ) {
        // Not escaping: `writeItems` only calls the function it is given
        // while it runs; the compiler cannot tell.
        withoutActuallyEscaping(writeBuffer) { writeBuffer in
            func write(_ text: String) { Array(text.utf8).withUnsafeBufferPointer { writeBuffer($0) } }
            write("{\n  \"today\": \"\(today.isoString)\",\n  \"items\": ")
            var isFirst = true
            writeItems { piece in
                var piece = piece
                if isFirst, !piece.isEmpty {
                    // The first item opens the array instead of following a comma.
                    write("[")
                    piece = UnsafeBufferPointer(rebasing: piece.dropFirst())
                    isFirst = false
                }
                writeBuffer(piece)
            }
            write(isFirst ? "[]\n}" : "\n  ]\n}")
        }
    }

    /// `{"today": "...", "groups": [{"name": "...", "items": [...]}]}`
    public static func groups(_ groups: ItemGroups, context: ItemContext) -> JSONValue {
        .object([
            ("today", .string(context.today.isoString)),
            (
                "groups",
                .array(
                    groups.map { group in
                        .object([
                            ("name", .string(group.name)),
                            ("items", .array(group.items.map { item($0, context: context) })),
                        ])
                    })
            ),
        ])
    }

    /// `{"today": "...", "lists": [...]}`, lists in list order.
    public static func lists(_ workspace: EncodedWorkspace, today: TaskDate) -> JSONValue {
        .object([
            ("today", .string(today.isoString)),
            ("lists", lists(workspace)),
        ])
    }

    /// The lists of `workspace` as `lists` shows them, in list order.
    private static func lists(_ workspace: EncodedWorkspace, counts: [(open: Int, done: Int)]? = nil) -> JSONValue {
        // Counted first, from the cache's index: once the lists are read,
        // counting them reads every item.
        let counts = counts ?? workspace.listCounts()
        let documents = workspace.listsInOrder
        var entries: [JSONValue] = []
        entries.reserveCapacity(documents.count)
        // Each list's front matter is read from its payload: the cache's
        // pages are given back a run of lists at a time, or a folder's
        // whole cache would stay mapped.
        for start in stride(from: 0, to: documents.count, by: 1024) {
            let run = start..<min(documents.count, start + 1024)
            for index in run { entries.append(list(documents[index], counts: counts[index])) }
            CachePages.release(documents[run])
        }
        return .array(entries)
    }

    /// The home screen: `{"today": "...", "counts": {"today": N, "scheduled":
    /// N, "all": N, "overdue": N}, "lists": [...]}`.
    public static func home(_ workspace: EncodedWorkspace, today: TaskDate) -> JSONValue {
        let (groupCounts, listCounts) = workspace.homeCounts(of: SmartGroup.homeGroups, today: today)
        let counts = zip(SmartGroup.homeGroups, groupCounts).map { group, count in (group.rawValue, JSONValue.int(count)) }
        return .object([
            ("today", .string(today.isoString)),
            ("counts", .object(counts)),
            ("lists", lists(workspace, counts: listCounts)),
        ])
    }
}
