/// The JSON shapes of SPEC §6, with keys in the SPEC's order.
public enum ItemJSON {
    /// One item as SPEC §6 shows it.
    public static func item(_ item: TaskItem, in document: Document) -> JSONValue {
        var sink = ValueSink()
        emit(item, in: document, into: &sink)
        return .object(sink.pairs)
    }

    /// Appends one item as `item(_:in:)` pretty-printed at `indent` levels
    /// would, without building the value first (the same bytes, in a
    /// fraction of the time: this runs for every item a query prints).
    public static func write(_ item: TaskItem, in document: Document, prettyTo output: inout [UInt8], indent: Int) {
        var sink = ByteSink(output: output, indent: indent)
        output = []
        emit(item, in: document, into: &sink)
        sink.finish()
        output = sink.output
    }

    /// Receives an item's fields in the SPEC's order.
    protocol FieldSink {
        mutating func string(_ key: String, _ value: String?)
        mutating func int(_ key: String, _ value: Int)
        mutating func strings(_ key: String, _ values: [String])
        mutating func stringPairs(_ key: String, _ pairs: [(String, String)])
    }

    /// The one place that says which fields an item has, and in what order.
    static func emit<S: FieldSink>(_ item: TaskItem, in document: Document, into sink: inout S) {
        let metadata = item.metadata
        var fields: [(String, String)] = []
        for field in metadata.fields where !fields.contains(where: { $0.0 == field.key }) {
            fields.append((field.key, field.value))
        }
        sink.string("path", document.path)
        sink.int("line", item.line)
        sink.string("list", document.name)
        sink.string("section", item.section.map { document.sections[$0].title })
        sink.string("status", item.status.rawValue)
        sink.string("title", item.title)
        sink.string("text", item.text)
        sink.string("priority", metadata.priority.name)
        sink.string("due", metadata.due?.isoString)
        sink.string("scheduled", metadata.scheduled?.isoString)
        sink.string("start", metadata.start?.isoString)
        sink.string("created", metadata.created?.isoString)
        sink.string("done", metadata.done?.isoString)
        sink.string("cancelled", metadata.cancelled?.isoString)
        sink.string("every", metadata.every)
        sink.strings("tags", metadata.tags)
        sink.string("color", metadata.color)
        sink.string("icon", metadata.icon)
        sink.string("id", metadata.id)
        sink.stringPairs("fields", fields)
        sink.string("parent", item.parent.map { document.address(of: document.items[$0]) })
        sink.int("depth", item.depth)
        sink.string("notes", item.notes)
        sink.string("listColor", document.color)
        sink.string("listIcon", document.icon)
    }

    private struct ValueSink: FieldSink {
        var pairs: [(String, JSONValue)] = []
        mutating func string(_ key: String, _ value: String?) { pairs.append((key, .string(value))) }
        mutating func int(_ key: String, _ value: Int) { pairs.append((key, .int(value))) }
        mutating func strings(_ key: String, _ values: [String]) { pairs.append((key, .array(values.map { .string($0) }))) }
        mutating func stringPairs(_ key: String, _ pairs: [(String, String)]) {
            self.pairs.append((key, .object(pairs.map { ($0.0, .string($0.1)) })))
        }
    }

    /// Writes the pretty-printed form that `JSONValue` would write.
    private struct ByteSink: FieldSink {
        var output: [UInt8]
        let indent: Int
        var first = true

        init(output: [UInt8], indent: Int) {
            self.output = output
            self.indent = indent
            self.output.append(UInt8(ascii: "{"))
        }

        private mutating func newline(_ level: Int) {
            output.append(0x0A)
            output.append(contentsOf: repeatElement(0x20, count: level * 2))
        }

        private mutating func key(_ key: String) {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            newline(indent + 1)
            JSONValue.appendString(key, to: &output)
            output.append(contentsOf: [UInt8(ascii: ":"), 0x20])
        }

        mutating func string(_ key: String, _ value: String?) {
            self.key(key)
            if let value { JSONValue.appendString(value, to: &output) } else { output.append(contentsOf: "null".utf8) }
        }

        mutating func int(_ key: String, _ value: Int) {
            self.key(key)
            output.append(contentsOf: String(value).utf8)
        }

        mutating func strings(_ key: String, _ values: [String]) {
            self.key(key)
            if values.isEmpty { output.append(contentsOf: "[]".utf8); return }
            output.append(UInt8(ascii: "["))
            for (position, value) in values.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 2)
                JSONValue.appendString(value, to: &output)
            }
            newline(indent + 1)
            output.append(UInt8(ascii: "]"))
        }

        mutating func stringPairs(_ key: String, _ pairs: [(String, String)]) {
            self.key(key)
            if pairs.isEmpty { output.append(contentsOf: "{}".utf8); return }
            output.append(UInt8(ascii: "{"))
            for (position, pair) in pairs.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 2)
                JSONValue.appendString(pair.0, to: &output)
                output.append(contentsOf: [UInt8(ascii: ":"), 0x20])
                JSONValue.appendString(pair.1, to: &output)
            }
            newline(indent + 1)
            output.append(UInt8(ascii: "}"))
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
