import TickEngine
import TickModel
import TickRecords

/// The JSON shapes of SPEC §6, with keys in the SPEC's order.
public enum ItemJSON {
    /// One item as SPEC §6 shows it.
    public static func item(_ item: EncodedListedItem, context: ItemContext) -> JSONValue {
        var sink = ValueSink()
        emit(item, context: context, into: &sink)
        return .object(sink.pairs)
    }

    /// Where in a document an item is written: the level of its braces.
    enum Placement: Int {
        /// `{"items": [{...}]}`
        case itemsDocument = 2
        /// `{"groups": [{"items": [{...}]}]}`
        case groupsDocument = 4
        /// `{"days": [{"entries": [{"item": {...}}]}]}`
        case agendaEntry = 5
    }

    /// Appends one item as `item(_:in:)` pretty-printed at `placement`
    /// would, without building the value first (the same bytes, in a
    /// fraction of the time: this runs for every item a query prints).
    static func write(_ record: EncodedListedItem, context: ItemContext, at placement: Placement = .itemsDocument, to output: inout ByteOutput) {
        withUnsafeMutablePointer(to: &output) { output in
            var sink = ByteSink(output: output, placement: placement)
            emit(record, context: context, into: &sink)
            sink.finish()
        }
    }

    /// The keys of an item, in the SPEC's order.
    enum Key: Int, CaseIterable {
        case path, line, list, section, status, title, text, priority, due, scheduled, start, created, done, cancelled
        case every, tags, color, icon, id, fields, parent, depth, notes, listColor, listIcon
        case dependsOn, blocked, urgency

        var name: StaticString {
            switch self {
            case .path: "path"
            case .line: "line"
            case .list: "list"
            case .section: "section"
            case .status: "status"
            case .title: "title"
            case .text: "text"
            case .priority: "priority"
            case .due: "due"
            case .scheduled: "scheduled"
            case .start: "start"
            case .created: "created"
            case .done: "done"
            case .cancelled: "cancelled"
            case .every: "every"
            case .tags: "tags"
            case .color: "color"
            case .icon: "icon"
            case .id: "id"
            case .fields: "fields"
            case .parent: "parent"
            case .depth: "depth"
            case .notes: "notes"
            case .listColor: "listColor"
            case .listIcon: "listIcon"
            case .dependsOn: "dependsOn"
            case .blocked: "blocked"
            case .urgency: "urgency"
            }
        }
    }

    /// Receives an item's fields in the SPEC's order.
    protocol FieldSink {
        mutating func string<Text: ItemText>(_ key: Key, _ value: Text?)
        mutating func int(_ key: Key, _ value: Int)
        /// The record's tags.
        mutating func tags(_ key: Key, of record: EncodedListedItem)
        /// The record's `parent` reference.
        mutating func parent(_ key: Key, of record: EncodedListedItem)
        mutating func stringPairs<Text: ItemText>(_ key: Key, _ pairs: [(key: Text, value: Text)])
        /// One of the fields of the record's list.
        mutating func listField(_ key: Key, _ field: ListField, of record: EncodedListedItem)
        mutating func strings(_ key: Key, _ values: [String])
        mutating func bool(_ key: Key, _ value: Bool)
        mutating func number(_ key: Key, _ value: Double)
        /// The field at `position` of `MetadataField.keptInMore` (kept in
        /// `ItemMetadata.more`), under its `jsonKey`.
        mutating func more(_ position: Int, _ value: EncodedListedItem.MoreValue?)
    }

    /// The one place that says which fields an item has, and in what order.
    static func emit<Sink: FieldSink>(_ record: EncodedListedItem, context: ItemContext, into sink: inout Sink) {
        // A key written twice keeps its first value. Keys compare as
        // Strings, whatever the record's text type, so both kinds of
        // record drop the same repeats.
        var fields = record.fields
        if fields.count > 1 {
            var keys: [String] = []
            fields = fields.filter { field in
                let key = field.key.string
                if keys.contains(key) { return false }
                keys.append(key)
                return true
            }
        }
        sink.listField(.path, .path, of: record)
        sink.int(.line, record.line)
        sink.listField(.list, .name, of: record)
        sink.string(.section, record.sectionTitle)
        sink.string(.status, JSONWord(word: record.status.jsonWord))
        sink.string(.title, record.title)
        sink.string(.text, record.text)
        sink.string(.priority, JSONWord(word: record.priority.jsonWord))
        // Read once: the urgency needs them too.
        let due = record.date(.due)
        let scheduled = record.date(.scheduled)
        let start = record.date(.start)
        sink.string(.due, due)
        sink.string(.scheduled, scheduled)
        sink.string(.start, start)
        sink.string(.created, record.date(.created))
        sink.string(.done, record.date(.done))
        sink.string(.cancelled, record.date(.cancelled))
        sink.string(.every, record.every)
        sink.tags(.tags, of: record)
        sink.string(.color, record.color)
        sink.string(.icon, record.icon)
        sink.string(.id, record.id)
        sink.stringPairs(.fields, fields)
        sink.parent(.parent, of: record)
        sink.int(.depth, record.depth)
        sink.string(.notes, record.notes)
        sink.listField(.listColor, .color, of: record)
        sink.listField(.listIcon, .icon, of: record)
        sink.strings(.dependsOn, record.dependsOn)
        sink.bool(.blocked, context.isBlocked(record))
        sink.number(.urgency, Urgency(priority: record.priority, due: due, scheduled: scheduled, start: start, today: context.today).total)
        // Indexed in place: enumerating the shared array copied it, a
        // retain and a release of it for every item, on every core at once.
        for position in MetadataField.keptInMore.indices { sink.more(position, record.value(MetadataField.keptInMore[position])) }
    }

    private struct ValueSink: FieldSink {
        var pairs: [(String, JSONValue)] = []
        mutating func string<Text: ItemText>(_ key: Key, _ value: Text?) {
            pairs.append((key.name.description, .string(value?.string)))
        }
        mutating func int(_ key: Key, _ value: Int) { pairs.append((key.name.description, .int(value))) }
        mutating func tags(_ key: Key, of record: EncodedListedItem) {
            pairs.append((key.name.description, .array(record.tags.map { .string($0.string) })))
        }
        mutating func parent(_ key: Key, of record: EncodedListedItem) {
            pairs.append((key.name.description, .string(record.parentReference)))
        }
        mutating func stringPairs<Text: ItemText>(_ key: Key, _ pairs: [(key: Text, value: Text)]) {
            self.pairs.append((key.name.description, .object(pairs.map { ($0.0.string, .string($0.1.string)) })))
        }
        mutating func listField(_ key: Key, _ field: ListField, of record: EncodedListedItem) {
            pairs.append((key.name.description, .string(record.listText(field))))
        }
        mutating func strings(_ key: Key, _ values: [String]) {
            pairs.append((key.name.description, .array(values.map { .string($0) })))
        }
        mutating func bool(_ key: Key, _ value: Bool) { pairs.append((key.name.description, .bool(value))) }
        mutating func number(_ key: Key, _ value: Double) { pairs.append((key.name.description, .double(value))) }
        mutating func more(_ position: Int, _ value: EncodedListedItem.MoreValue?) {
            let text: String? =
                switch value {
                case .date(let date): date.isoString
                case .text(let text): text.string
                case nil: nil
                }
            pairs.append((MetadataField.keptInMore[position].spelling!.jsonKey!, .string(text)))
        }
    }

    /// Writes the pretty-printed form that `JSONValue` would write for an
    /// item of the items document.
    private struct ByteSink: FieldSink {
        /// The output, borrowed for the length of one `write`.
        let target: UnsafeMutablePointer<ByteOutput>
        /// Read once per item: every read of a static goes through `swift_once`.
        let prefixes: KeyPrefixes
        /// The item's level in its document: 2 in the items document
        /// (`{"items": [{...}]}`), 4 in the groups document.
        let indent: Int
        var first = true

        private var output: ByteOutput {
            unsafeAddress { UnsafePointer(target) }
            nonmutating unsafeMutableAddress { target }
        }

        init(output: UnsafeMutablePointer<ByteOutput>, placement: Placement) {
            target = output
            indent = placement.rawValue
            switch placement {
            case .itemsDocument: prefixes = KeyPrefixes.itemsDocument
            case .groupsDocument: prefixes = KeyPrefixes.groupsDocument
            case .agendaEntry: prefixes = KeyPrefixes.agendaEntry
            }
            self.output.append(UInt8(ascii: "{"))
        }

        private mutating func newline(_ level: Int) {
            prefixes.appendNewline(level: level, to: &output)
        }

        /// A key's `,\n      "key": ` (or `… null`), whole from `KeyPrefixes`.
        private mutating func key(_ key: Key, null: Bool = false) {
            prefixes.append(key, null: null, first: first, to: &output)
            first = false
        }

        mutating func string<Text: ItemText>(_ key: Key, _ value: Text?) {
            self.key(key, null: value == nil)
            value?.appendJSON(to: &output)
        }

        mutating func int(_ key: Key, _ value: Int) {
            self.key(key)
            output.appendDecimal(value)
        }

        mutating func tags(_ key: Key, of record: EncodedListedItem) {
            self.key(key)
            guard record.hasTags else {
                output.append("[]")
                return
            }
            var count = 0
            record.forEachTag { tag in
                output.append(count == 0 ? UInt8(ascii: "[") : UInt8(ascii: ","))
                newline(indent + 2)
                tag.appendJSON(to: &output)
                count += 1
            }
            if count == 0 {
                output.append("[]")
                return
            }
            newline(indent + 1)
            output.append(UInt8(ascii: "]"))
        }

        mutating func parent(_ key: Key, of record: EncodedListedItem) {
            let hasParent = record.parentLine != nil
            self.key(key, null: !hasParent)
            if hasParent { record.appendParentJSON(to: &output) }
        }

        mutating func stringPairs<Text: ItemText>(_ key: Key, _ pairs: [(key: Text, value: Text)]) {
            self.key(key)
            if pairs.isEmpty {
                output.append("{}")
                return
            }
            output.append(UInt8(ascii: "{"))
            for (position, pair) in pairs.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 2)
                pair.0.appendJSON(to: &output)
                output.append(": ")
                pair.1.appendJSON(to: &output)
            }
            newline(indent + 1)
            output.append(UInt8(ascii: "}"))
        }

        mutating func listField(_ key: Key, _ field: ListField, of record: EncodedListedItem) {
            self.key(key)
            record.appendListJSON(field, to: &output)
        }

        mutating func strings(_ key: Key, _ values: [String]) {
            self.key(key)
            guard !values.isEmpty else {
                output.append("[]")
                return
            }
            for (position, value) in values.enumerated() {
                output.append(position == 0 ? UInt8(ascii: "[") : UInt8(ascii: ","))
                newline(indent + 2)
                JSONValue.appendString(value, to: &output)
            }
            newline(indent + 1)
            output.append(UInt8(ascii: "]"))
        }

        mutating func bool(_ key: Key, _ value: Bool) {
            self.key(key)
            if value { output.append("true") } else { output.append("false") }
        }

        mutating func number(_ key: Key, _ value: Double) {
            self.key(key)
            output.appendFiveDecimals(value)
        }

        mutating func more(_ position: Int, _ value: EncodedListedItem.MoreValue?) {
            prefixes.appendMore(position, null: value == nil, first: first, to: &output)
            first = false
            switch value {
            case .date(let date): date.appendJSON(to: &output)
            case .text(let text): text.appendJSON(to: &output)
            case nil: break
            }
        }

        mutating func finish() {
            newline(indent)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Each key's `,\n      "key": ` (and `,\n      "key": null`) for an
    /// item of the items document (or of the groups document, deeper), 32
    /// bytes apart, so that a field's prefix is written with two 16-byte
    /// copies instead of a call per piece (a query prints 29 fields of each
    /// of tens of thousands of items). The keys are `Key`'s, then those of
    /// `MetadataField.keptInMore`; then come a new line and the spaces of
    /// each level an item's arrays and objects reach.
    struct KeyPrefixes: @unchecked Sendable {
        // Written once, in init; never freed (one table for the process).
        private let table: UnsafeMutableRawPointer
        private let lengths: UnsafeMutablePointer<UInt8>
        static let stride = 32

        static let itemsDocument = KeyPrefixes(indent: 2)
        static let groupsDocument = KeyPrefixes(indent: 4)
        static let agendaEntry = KeyPrefixes(indent: 5)

        /// The item's level in its document: `appendNewline` writes it, its
        /// fields' level and their elements'.
        private let indent: Int
        private static let keyCount = Key.allCases.count * 2
        private static let moreCount = MetadataField.keptInMore.count * 2

        private init(indent: Int) {
            self.indent = indent
            let count = Self.keyCount + Self.moreCount + 3
            // One spare entry: a copy may read up to 32 bytes from the last one's second byte.
            table = .allocate(byteCount: (count + 1) * Self.stride, alignment: 16)
            table.initializeMemory(as: UInt8.self, repeating: 0, count: (count + 1) * Self.stride)
            lengths = .allocate(capacity: count)
            func store(_ text: String, at index: Int) {
                let bytes = Array(text.utf8)
                precondition(bytes.count < Self.stride, "a JSON key's prefix must be shorter than \(Self.stride) bytes")
                bytes.withUnsafeBytes { (table + index * Self.stride).copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
                lengths[index] = UInt8(bytes.count)
            }
            func prefix(_ name: String, null: Bool) -> String {
                var key = ByteOutput()
                JSONValue.appendString(name, to: &key)
                return ",\n" + String(repeating: " ", count: (indent + 1) * 2) + String(decoding: key.bytes, as: UTF8.self)
                    + (null ? ": null" : ": ")
            }
            for key in Key.allCases {
                for null in [false, true] { store(prefix("\(key.name)", null: null), at: Self.index(key, null: null)) }
            }
            for (position, field) in MetadataField.keptInMore.enumerated() {
                for null in [false, true] {
                    store(prefix(field.spelling!.jsonKey!, null: null), at: Self.keyCount + position * 2 + (null ? 1 : 0))
                }
            }
            for level in indent...indent + 2 {
                store("\n" + String(repeating: " ", count: level * 2), at: Self.keyCount + Self.moreCount + level - indent)
            }
        }

        private static func index(_ key: Key, null: Bool) -> Int { key.rawValue * 2 + (null ? 1 : 0) }

        /// Appends the prefix of the field at `position` of `MetadataField.keptInMore`.
        @inline(__always)
        func appendMore(_ position: Int, null: Bool, first: Bool, to output: inout ByteOutput) {
            append(at: Self.keyCount + position * 2 + (null ? 1 : 0), first: first, to: &output)
        }

        /// Appends a new line and the spaces of `level` (the item's own, or
        /// one or two deeper).
        @inline(__always)
        func appendNewline(level: Int, to output: inout ByteOutput) {
            append(at: Self.keyCount + Self.moreCount + level - indent, first: false, to: &output)
        }

        /// Appends the key's prefix (without its comma when it is the item's first field).
        @inline(__always)
        func append(_ key: Key, null: Bool, first: Bool, to output: inout ByteOutput) {
            append(at: Self.index(key, null: null), first: first, to: &output)
        }

        @inline(__always)
        private func append(at index: Int, first: Bool, to output: inout ByteOutput) {
            let skip = first ? 1 : 0
            output.appendShort(table + index * Self.stride + skip, count: Int(lengths[index]) - skip)
        }
    }

    /// One list as `tick lists --json` shows it. Front matter keys tick does
    /// not know are kept under `frontMatter`.
    public static func list(_ document: EncodedDocument) -> JSONValue {
        list(document, counts: (document.count { $0.isOpen }, document.count { $0 == .done }))
    }

    /// `list(_:)` with the list's open and done counts already counted.
    static func list(_ document: EncodedDocument, counts: (open: Int, done: Int)) -> JSONValue {
        let known: Set<String> = ["title", "color", "icon", "order"]
        let extra = (document.frontMatter?.values ?? []).filter { !known.contains($0.key) }
        var pairs: [(String, JSONValue)] = [
            ("name", .string(document.name)),
            ("path", .string(document.path)),
            ("color", .string(document.color)),
            ("icon", .string(document.icon)),
            ("open", .int(counts.open)),
            ("done", .int(counts.done)),
        ]
        if let order = document.order { pairs.append(("order", .int(order))) }
        if !extra.isEmpty { pairs.append(("frontMatter", .object(extra.map { ($0.key, $0.value) }))) }
        return .object(pairs)
    }
}
