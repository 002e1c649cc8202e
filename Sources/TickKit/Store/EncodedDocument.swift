/// A list as the parse cache encodes it (`DocumentCoding`), read in place.
///
/// Answering a query from the cache this way builds no `Document` and
/// decodes nothing ahead: each item is a fixed-size record
/// (`ItemRecordLayout`) whose fields are read where they lie, and a string
/// becomes a Swift `String` only when a query compares it; JSON output
/// copies its bytes. Reads are bounds-checked (a payload from the cache has
/// also passed its checksum); a damaged field reads as empty, never crashes.
///
/// The bytes stay alive as long as the document: they belong to the cache
/// file's mapping or to the payload that a fresh parse was encoded into.
public final class EncodedDocument: @unchecked Sendable {
    // Immutable after init; the bytes are never written.
    let owner: AnyObject
    let buffer: UnsafeBufferPointer<UInt8>
    public let path: String
    public let name: String
    /// The name as list order compares it (`SortKey.foldedName`), folded
    /// here, while the lists are read on every core.
    let foldedName: String
    let order: Int?
    let explicitColor: String?
    let explicitIcon: String?
    let isValidUTF8: Bool
    let sectionTitles: [ByteSlice]
    let records: ItemRecordLayout.Records
    /// The list's path, name, color and icon as JSON string literals,
    /// escaped once for every item of the list that is printed: one
    /// allocation, read in place (no reference counting per item).
    private let listJSON: UnsafeMutableBufferPointer<UInt8>
    private let listJSONEnds: (path: Int, name: Int, color: Int, icon: Int)

    /// Reads the header of the document encoded in `buffer`, which `owner`
    /// keeps alive.
    init(_ buffer: UnsafeBufferPointer<UInt8>, owner: AnyObject) throws {
        self.owner = owner
        self.buffer = buffer
        var reader = ByteReader(buffer, range: 0..<buffer.count)
        path = try reader.string()
        explicitColor = try reader.optionalString()
        explicitIcon = try reader.optionalString()
        order = try reader.optionalInt()
        name = try reader.string()
        foldedName = SortKey.foldedName(name)
        isValidUTF8 = try reader.bool()
        try reader.skipBlock()   // front matter
        let sectionCount = try reader.count(limit: 1 << 24)
        var sectionTitles: [ByteSlice] = []
        sectionTitles.reserveCapacity(sectionCount)
        for _ in 0..<sectionCount {
            sectionTitles.append(try reader.slice())
            try reader.skipBlock()
        }
        self.sectionTitles = sectionTitles
        try reader.skipBlock()   // diagnostics
        records = try ItemRecordLayout.Records(&reader, in: buffer)
        var json = ByteOutput(capacity: path.utf8.count + name.utf8.count + 32)
        JSONValue.appendString(path, to: &json)
        let pathEnd = json.count
        JSONValue.appendString(name, to: &json)
        let nameEnd = json.count
        JSONValue.appendString(explicitColor ?? Document.defaultColor, to: &json)
        let colorEnd = json.count
        JSONValue.appendString(explicitIcon ?? Document.defaultIcon, to: &json)
        listJSONEnds = (pathEnd, nameEnd, colorEnd, json.count)
        listJSON = json.release().allocation
    }

    deinit { listJSON.baseAddress?.deallocate() }

    /// The list's color and icon, defaulting as `Document.color` and `Document.icon` do.
    var color: String { explicitColor ?? Document.defaultColor }
    var icon: String { explicitIcon ?? Document.defaultIcon }

    /// The JSON string literal of one of the list's fields.
    func listJSON(_ field: ListField) -> UnsafeBufferPointer<UInt8> {
        let range: Range<Int>
        switch field {
        case .path: range = 0..<listJSONEnds.path
        case .name: range = listJSONEnds.path..<listJSONEnds.name
        case .color: range = listJSONEnds.name..<listJSONEnds.color
        case .icon: range = listJSONEnds.color..<listJSONEnds.icon
        }
        return UnsafeBufferPointer(rebasing: listJSON[range])
    }

    var itemCount: Int { records.count }

    func text(_ slice: ByteSlice) -> EncodedText { EncodedText(bytes: slice.bytes(in: buffer)) }
}

/// UTF-8 bytes of an encoded document, valid while the document lives.
public struct EncodedText: ItemText {
    let bytes: UnsafeBufferPointer<UInt8>

    static var empty: EncodedText { EncodedText(bytes: UnsafeBufferPointer(start: nil, count: 0)) }

    public var string: String { String(decoding: bytes, as: UTF8.self) }
    public func appendJSON(to output: inout ByteOutput) { JSONValue.appendString(utf8: bytes, to: &output) }
}

/// An item of an `EncodedDocument` together with its list's rank: the
/// encoded counterpart of `ListedItem`.
public struct EncodedListedItem: ItemRecord, @unchecked Sendable {
    // Sendable: the document is immutable.
    let document: EncodedDocument
    var index: Int
    public let listRank: Int

    private var record: ItemRecordLayout.Record { document.records.record(index) }

    public var status: TaskStatus { record.status ?? .open }
    public var line: Int { record[.line] }
    public var depth: Int { record[.depth] }
    public var fileOffset: Int { record[.fileOffset] }
    public var priority: Priority { record.priority ?? .normal }
    public var hasPriority: Bool { record.hasPriority }

    public func date(_ field: MetadataField) -> TaskDate? {
        let position: Int
        switch field {
        case .due: position = 0
        case .scheduled: position = 1
        case .start: position = 2
        case .created: position = 3
        case .done: position = 4
        case .cancelled: position = 5
        default: return nil
        }
        return (try? record.date(position)) ?? nil
    }

    private func text(_ field: ItemRecordLayout.Field) -> EncodedText? {
        guard let bytes = (try? record.slice(field)) ?? nil else { return nil }
        return EncodedText(bytes: bytes)
    }

    public var title: EncodedText { text(.title) ?? .empty }
    public var text: EncodedText { text(.text) ?? .empty }
    public var notes: EncodedText? { text(.notes) }
    public var every: EncodedText? { text(.every) }
    public var color: EncodedText? { text(.color) }
    public var icon: EncodedText? { text(.icon) }
    public var id: EncodedText? { text(.id) }

    public var hasTags: Bool { record.hasTags }

    public var tags: [EncodedText] {
        let record = record
        guard record.hasTags else { return [] }
        return ((try? record.slices(at: .tags)) ?? []).map(document.text)
    }

    public var fields: [(key: EncodedText, value: EncodedText)] {
        let record = record
        guard record.hasFields else { return [] }
        return ((try? record.slicePairs(at: .fields)) ?? []).map { (document.text($0.0), document.text($0.1)) }
    }

    public var sectionTitle: EncodedText? {
        let section = record[.section]
        guard section > 0, section <= document.sectionTitles.count else { return nil }
        return document.text(document.sectionTitles[section - 1])
    }

    public var parentLine: Int? { record[.parent] == 0 ? nil : record[.parentLine] }
    public var hasSubtasks: Bool { record[.childCount] > 0 }
    public var listPath: String { document.path }
    public var listName: String { document.name }
    public var listColor: String { document.color }
    public var listIcon: String { document.icon }

    public func appendListJSON(_ field: ListField, to output: inout ByteOutput) {
        output.append(document.listJSON(field))
    }
}
