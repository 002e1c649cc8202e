/// The JSON documents of the read commands (SPEC §6), keys in a fixed order.
extension ItemJSON {
    /// `{"today": "...", "items": [...]}`
    public static func items(_ items: [ListedItem], today: TaskDate) -> JSONValue {
        .object([
            ("today", .string(today.isoString)),
            ("items", .array(items.map { item($0.item, in: $0.document) })),
        ])
    }

    /// The bytes of `items(items, today:)` pretty-printed, the items rendered
    /// in parallel: the same bytes as serialising the whole document, in a
    /// fraction of the time for tens of thousands of items.
    public static func itemsDocumentBytes<Record: ItemRecord>(_ items: [Record], today: TaskDate) -> [UInt8] {
        var output: [UInt8] = []
        writeItemsDocument(items, today: today, as: Record.self) { output.append(contentsOf: $0) }
        return output
    }

    /// Writes `items(items, today:)` pretty-printed, piece by piece, in order:
    /// batches of items are rendered on every core and handed to `write` as
    /// soon as they are ready, so the whole document is never in memory.
    public static func writeItemsDocument<Record: ItemRecord>(_ items: [Record], today: TaskDate, as _: Record.Type = Record.self,
                                                            to writeBuffer: (UnsafeBufferPointer<UInt8>) -> Void) {
        func write(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { writeBuffer($0) } }
        write(Array("{\n  \"today\": \"\(today.isoString)\",\n  \"items\": ".utf8))
        guard !items.isEmpty else { return write(Array("[]\n}".utf8)) }
        write([UInt8(ascii: "[")])
        // Chunks small enough (about 60 KB) for malloc to reuse their memory
        // rather than map fresh pages for each.
        let chunkSize = 64
        let chunkCount = (items.count + chunkSize - 1) / chunkSize
        let batchSize = 64
        for batchStart in stride(from: 0, to: chunkCount, by: batchSize) {
            let chunks = Parallel.map(min(batchSize, chunkCount - batchStart)) { offset in
                let chunk = batchStart + offset
                var bytes = ByteOutput(capacity: chunkSize * 1024)
                for index in chunk * chunkSize..<min(items.count, (chunk + 1) * chunkSize) {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    bytes.append("\n    ")
                    ItemJSON.write(items[index], to: &bytes, indent: 2)
                }
                return bytes.release()
            }
            for chunk in chunks {
                writeBuffer(UnsafeBufferPointer(chunk))
                chunk.baseAddress?.deallocate()
            }
        }
        write(Array("\n  ]\n}".utf8))
    }

    /// `{"today": "...", "groups": [{"name": "...", "items": [...]}]}`
    public static func groups(_ groups: [ItemGroup], today: TaskDate) -> JSONValue {
        .object([
            ("today", .string(today.isoString)),
            ("groups", .array(groups.map { group in
                .object([
                    ("name", .string(group.name)),
                    ("items", .array(group.items.map { item($0.item, in: $0.document) })),
                ])
            })),
        ])
    }

    /// `{"today": "...", "lists": [...]}`, lists in list order.
    public static func lists(_ workspace: Workspace, today: TaskDate) -> JSONValue {
        .object([
            ("today", .string(today.isoString)),
            ("lists", .array(workspace.listsInOrder.map { list($0) })),
        ])
    }

    /// The home screen: `{"today": "...", "counts": {"today": N, "scheduled":
    /// N, "all": N, "overdue": N}, "lists": [...]}`.
    public static func home(_ workspace: Workspace, today: TaskDate) -> JSONValue {
        let counts = SmartGroup.homeGroups.map { group in
            (group.rawValue, JSONValue.int(workspace.items.filter { group.contains($0.item, today: today) }.count))
        }
        return .object([
            ("today", .string(today.isoString)),
            ("counts", .object(counts)),
            ("lists", .array(workspace.listsInOrder.map { list($0) })),
        ])
    }
}
