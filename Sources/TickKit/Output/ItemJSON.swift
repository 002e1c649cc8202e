/// The JSON shapes of SPEC §6, with keys in the SPEC's order.
public enum ItemJSON {
    /// One item as SPEC §6 shows it.
    public static func item(_ item: TaskItem, in document: Document) -> JSONValue {
        var sink = ValueSink()
        emit(ListedItem(document: document, item: item, listRank: 0), into: &sink)
        return .object(sink.pairs)
    }

    /// Appends one item as `item(_:in:)` pretty-printed at `indent` levels
    /// would, without building the value first (the same bytes, in a
    /// fraction of the time: this runs for every item a query prints).
    static func write<Record: ItemRecord>(_ record: Record, to output: inout ByteOutput, indent: Int) {
        withUnsafeMutablePointer(to: &output) { output in
            var sink = ByteSink(output: output, indent: indent)
            emit(record, into: &sink)
            sink.finish()
        }
    }

    /// Receives an item's fields in the SPEC's order.
    protocol FieldSink {
        mutating func string<Text: ItemText>(_ key: StaticString, _ value: Text?)
        mutating func int(_ key: StaticString, _ value: Int)
        mutating func strings<Text: ItemText>(_ key: StaticString, _ values: [Text])
        mutating func stringPairs<Text: ItemText>(_ key: StaticString, _ pairs: [(key: Text, value: Text)])
        /// One of the fields of the record's list.
        mutating func listField<Record: ItemRecord>(_ key: StaticString, _ field: ListField, of record: Record)
    }

    /// The one place that says which fields an item has, and in what order.
    static func emit<Record: ItemRecord, Sink: FieldSink>(_ record: Record, into sink: inout Sink) {
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
        sink.listField("path", .path, of: record)
        sink.int("line", record.line)
        sink.listField("list", .name, of: record)
        sink.string("section", record.sectionTitle)
        sink.string("status", JSONWord(word: record.status.jsonWord))
        sink.string("title", record.title)
        sink.string("text", record.text)
        sink.string("priority", JSONWord(word: record.priority.jsonWord))
        sink.string("due", record.date(.due))
        sink.string("scheduled", record.date(.scheduled))
        sink.string("start", record.date(.start))
        sink.string("created", record.date(.created))
        sink.string("done", record.date(.done))
        sink.string("cancelled", record.date(.cancelled))
        sink.string("every", record.every)
        sink.strings("tags", record.tags)
        sink.string("color", record.color)
        sink.string("icon", record.icon)
        sink.string("id", record.id)
        sink.stringPairs("fields", fields)
        sink.string("parent", record.parentLine.map { "\(record.listPath):\($0)" })
        sink.int("depth", record.depth)
        sink.string("notes", record.notes)
        sink.listField("listColor", .color, of: record)
        sink.listField("listIcon", .icon, of: record)
    }

    private struct ValueSink: FieldSink {
        var pairs: [(String, JSONValue)] = []
        mutating func string<Text: ItemText>(_ key: StaticString, _ value: Text?) {
            pairs.append((key.description, .string(value?.string)))
        }
        mutating func int(_ key: StaticString, _ value: Int) { pairs.append((key.description, .int(value))) }
        mutating func strings<Text: ItemText>(_ key: StaticString, _ values: [Text]) {
            pairs.append((key.description, .array(values.map { .string($0.string) })))
        }
        mutating func stringPairs<Text: ItemText>(_ key: StaticString, _ pairs: [(key: Text, value: Text)]) {
            self.pairs.append((key.description, .object(pairs.map { ($0.0.string, .string($0.1.string)) })))
        }
        mutating func listField<Record: ItemRecord>(_ key: StaticString, _ field: ListField, of record: Record) {
            let value: String
            switch field {
            case .path: value = record.listPath
            case .name: value = record.listName
            case .color: value = record.listColor
            case .icon: value = record.listIcon
            }
            pairs.append((key.description, .string(value)))
        }
    }

    /// Writes the pretty-printed form that `JSONValue` would write.
    private struct ByteSink: FieldSink {
        /// The output, borrowed for the length of one `write`.
        let target: UnsafeMutablePointer<ByteOutput>
        let indent: Int
        var first = true

        private var output: ByteOutput {
            unsafeAddress { UnsafePointer(target) }
            nonmutating unsafeMutableAddress { target }
        }

        init(output: UnsafeMutablePointer<ByteOutput>, indent: Int) {
            target = output
            self.indent = indent
            self.output.append(UInt8(ascii: "{"))
        }

        private mutating func newline(_ level: Int) {
            output.append(0x0A)
            output.append(0x20, count: level * 2)
        }

        /// Keys are this file's own literals, which need no escaping.
        private mutating func key(_ key: StaticString) {
            output.appendKey(key, indent: (indent + 1) * 2, first: first)
            first = false
        }

        mutating func string<Text: ItemText>(_ key: StaticString, _ value: Text?) {
            self.key(key)
            if let value { value.appendJSON(to: &output) } else { output.append("null") }
        }

        mutating func int(_ key: StaticString, _ value: Int) {
            self.key(key)
            // Digit by digit: `String(value)` would allocate for every line number.
            if value < 0 { output.append(UInt8(ascii: "-")) }
            let magnitude = value.magnitude
            var divisor: UInt = 1
            while magnitude / divisor >= 10 { divisor *= 10 }
            while divisor > 0 {
                output.append(UInt8(0x30 + magnitude / divisor % 10))
                divisor /= 10
            }
        }

        mutating func strings<Text: ItemText>(_ key: StaticString, _ values: [Text]) {
            self.key(key)
            if values.isEmpty { output.append("[]"); return }
            output.append(UInt8(ascii: "["))
            for (position, value) in values.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 2)
                value.appendJSON(to: &output)
            }
            newline(indent + 1)
            output.append(UInt8(ascii: "]"))
        }

        mutating func stringPairs<Text: ItemText>(_ key: StaticString, _ pairs: [(key: Text, value: Text)]) {
            self.key(key)
            if pairs.isEmpty { output.append("{}"); return }
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

        mutating func listField<Record: ItemRecord>(_ key: StaticString, _ field: ListField, of record: Record) {
            self.key(key)
            record.appendListJSON(field, to: &output)
        }

        mutating func finish() {
            newline(indent)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// One list as `tick lists --json` shows it. Front matter keys tick does
    /// not know are kept under `frontMatter`.
    public static func list(_ document: Document) -> JSONValue {
        let known: Set<String> = ["title", "color", "icon", "order"]
        let extra = (document.frontMatter?.values ?? []).filter { !known.contains($0.key) }
        var pairs: [(String, JSONValue)] = [
            ("name", .string(document.name)),
            ("path", .string(document.path)),
            ("color", .string(document.color)),
            ("icon", .string(document.icon)),
            ("open", .int(document.items.filter { $0.status.isOpen }.count)),
            ("done", .int(document.items.filter { $0.status == .done }.count)),
        ]
        if let order = document.order { pairs.append(("order", .int(order))) }
        if !extra.isEmpty { pairs.append(("frontMatter", .object(extra.map { ($0.key, $0.value) }))) }
        return .object(pairs)
    }

    /// `{"today": "...", "items": [...]}`
    public static func items(_ items: [(TaskItem, Document)], today: TaskDate) -> JSONValue {
        .object([("today", .string(today.isoString)), ("items", .array(items.map { item($0.0, in: $0.1) }))])
    }
}
