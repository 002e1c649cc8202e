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
    /// batches of items are rendered on every core and handed to `write` as
    /// soon as they are ready, so the whole document is never in memory.
    public static func writeItemsDocument(
        _ items: [EncodedListedItem], context: ItemContext,
        to writeBuffer: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var runs = ItemRuns(items, ofAtMost: 64)
        let ranges = runs.runs
        writeItemsDocument(
            today: context.today, chunkCount: ranges.count, inFlight: 8, chunkCapacity: 64 * 1024, to: writeBuffer,
            render: { run, output in
                for index in ranges[run] { appendItem(items[index], context: context, to: &output) }
            },
            written: { runs.written($0) })
    }

    /// Appends one item of the items document, as `render` does in
    /// `writeItemsDocument(today:chunkCount:...)`: a comma, a new line, then
    /// the item at its place in the document.
    static func appendItem(_ record: EncodedListedItem, context: ItemContext, to output: inout ByteOutput) {
        output.append(",\n    ")
        ItemJSON.write(record, context: context, to: &output)
    }

    /// Writes the items document of `chunkCount` chunks of items, in order:
    /// `render(chunk, &output)` appends each item of a chunk with
    /// `appendItem`; chunks are rendered on every core and written in order
    /// as they are done (`Parallel.orderedChunks`, at most `inFlight` at
    /// once), so the whole document is never in memory. `written` is told
    /// how many chunks are written, after each.
    static func writeItemsDocument(
        today: TaskDate, chunkCount: Int, inFlight: Int, chunkCapacity: Int,
        to writeBuffer: (UnsafeBufferPointer<UInt8>) -> Void,
        render: (Int, inout ByteOutput) -> Void, written: (Int) -> Void = { _ in }
    ) {
        func write(_ text: String) { Array(text.utf8).withUnsafeBufferPointer { writeBuffer($0) } }
        write("{\n  \"today\": \"\(today.isoString)\",\n  \"items\": ")
        var isFirst = true
        var delivered = 0
        Parallel.orderedChunks(chunkCount, inFlight: inFlight, capacity: chunkCapacity, render: render) { chunk in
            var chunk = chunk
            if isFirst, !chunk.isEmpty {
                // The first item opens the array instead of following a comma.
                write("[")
                chunk = UnsafeBufferPointer(rebasing: chunk.dropFirst())
                isFirst = false
            }
            writeBuffer(chunk)
            delivered += 1
            written(delivered)
        }
        write(isFirst ? "[]\n}" : "\n  ]\n}")
    }

    /// `{"today": "...", "groups": [{"name": "...", "items": [...]}]}`
    public static func groups(_ groups: [ItemGroup], context: ItemContext) -> JSONValue {
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
        .array(zip(workspace.listsInOrder, counts ?? workspace.listCounts()).map { list($0, counts: $1) })
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
