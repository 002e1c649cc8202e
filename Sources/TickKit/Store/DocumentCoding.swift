/// Writes a parsed document into the parse cache and reads it back.
///
/// Everything a read command uses is kept; the file's bytes are not (a
/// document read back has an empty `source`: the cache is never used for
/// edits). Reading back gives a document equal, field for field, to the one
/// written; `DocumentCodingTests` checks that on every fixture.
enum DocumentCoding {
    static func encode(_ document: Document, into writer: inout ByteWriter) {
        writer.string(document.path)
        writer.optionalString(document.explicitColor)
        writer.optionalString(document.explicitIcon)
        writer.optionalInt(document.order)
        writer.string(document.name)
        writer.bool(document.isValidUTF8)
        writer.bool(document.frontMatter != nil)
        if let frontMatter = document.frontMatter {
            writer.range(frontMatter.range)
            writer.range(frontMatter.yamlRange)
            writer.bool(frontMatter.values != nil)
            if let values = frontMatter.values {
                writer.int(values.count)
                for (key, value) in values {
                    writer.string(key)
                    encode(value, into: &writer)
                }
            }
        }
        writer.int(document.sections.count)
        for section in document.sections {
            writer.int(section.level)
            writer.string(section.title)
            writer.int(section.line)
            writer.range(section.range)
            writer.optionalString(section.color)
            writer.optionalString(section.icon)
        }
        writer.int(document.diagnostics.count)
        for diagnostic in document.diagnostics {
            writer.int(diagnostic.line)
            writer.int(diagnostic.column)
            writer.string(diagnostic.message)
        }
        writer.int(document.items.count)
        for item in document.items { encode(item, into: &writer) }
    }

    private static func encode(_ item: TaskItem, into writer: inout ByteWriter) {
        writer.int(item.line)
        writer.int(item.lastLine - item.line)
        writer.bytes.append(item.status.boxByte)
        writer.range(item.markerRange)
        writer.range(item.boxRange)
        writer.range(item.titleRange)
        writer.range(item.blockRange)
        writer.int(item.depth)
        writer.optionalInt(item.parent)
        writer.int(item.children.count)
        for child in item.children { writer.int(child) }
        writer.optionalInt(item.section)
        writer.int(item.quoteDepth)
        writer.string(item.title)
        writer.string(item.text)
        writer.optionalString(item.notes)
        writer.int(item.noteLines.count)
        for line in item.noteLines { writer.int(line - item.line) }
        writer.bool(item.invalidTitleBytes != nil)
        if let raw = item.invalidTitleBytes {
            writer.int(raw.count)
            writer.bytes.append(contentsOf: raw)
        }
        let metadata = item.metadata
        writer.int(metadata.priority.rawValue)
        writer.bool(metadata.hasPriority)
        for date in [metadata.due, metadata.scheduled, metadata.start, metadata.created, metadata.done, metadata.cancelled] {
            writer.bool(date != nil)
            if let date {
                writer.int(date.year * 10000 + date.month * 100 + date.day)
                writer.int(date.minuteOfDay ?? -1)
            }
        }
        writer.optionalString(metadata.every)
        writer.int(metadata.tags.count)
        for tag in metadata.tags { writer.string(tag) }
        writer.optionalString(metadata.color)
        writer.optionalString(metadata.icon)
        writer.optionalString(metadata.id)
        writer.int(metadata.fields.count)
        for field in metadata.fields {
            writer.string(field.key)
            writer.string(field.value)
        }
        writer.int(metadata.dialect.map { [.tick: 1, .emoji: 2, .dataview: 3][$0]! } ?? 0)
    }

    private static func encode(_ value: JSONValue, into writer: inout ByteWriter) {
        switch value {
        case .null: writer.int(0)
        case .bool(let flag): writer.int(1); writer.bool(flag)
        case .int(let number): writer.int(2); writer.int(number)
        case .double(let number): writer.int(3); writer.int(Int(bitPattern: UInt(number.bitPattern)))
        case .string(let text): writer.int(4); writer.string(text)
        case .array(let values):
            writer.int(5); writer.int(values.count)
            for element in values { encode(element, into: &writer) }
        case .object(let pairs):
            writer.int(6); writer.int(pairs.count)
            for (key, element) in pairs { writer.string(key); encode(element, into: &writer) }
        }
    }

    static func decode(_ reader: inout ByteReader) throws -> Document {
        let path = try reader.string()
        let color = try reader.optionalString()
        let icon = try reader.optionalString()
        let order = try reader.optionalInt()
        let name = try reader.string()
        let isValidUTF8 = try reader.bool()
        var frontMatter: FrontMatter? = nil
        if try reader.bool() {
            let range = try reader.range()
            let yamlRange = try reader.range()
            var values: [(key: String, value: JSONValue)]? = nil
            if try reader.bool() {
                let count = try reader.count(limit: 1 << 20)
                var pairs: [(key: String, value: JSONValue)] = []
                for _ in 0..<count { pairs.append((try reader.string(), try decodeJSON(&reader, depth: 0))) }
                values = pairs
            }
            frontMatter = FrontMatter(range: range, yamlRange: yamlRange, values: values)
        }
        var sections: [Section] = []
        for _ in 0..<(try reader.count(limit: 1 << 24)) {
            sections.append(Section(level: try reader.int(), title: try reader.string(), line: try reader.int(),
                                    range: try reader.range(), color: try reader.optionalString(), icon: try reader.optionalString()))
        }
        var diagnostics: [Diagnostic] = []
        for _ in 0..<(try reader.count(limit: 1 << 24)) {
            diagnostics.append(Diagnostic(line: try reader.int(), column: try reader.int(), message: try reader.string()))
        }
        let itemCount = try reader.count(limit: 1 << 26)
        var items: [TaskItem] = []
        items.reserveCapacity(itemCount)
        for index in 0..<itemCount { items.append(try decodeItem(&reader, index: index, count: itemCount, sections: sections.count)) }
        return Document(path: path, source: SourceText([]), frontMatter: frontMatter, name: name, explicitColor: color,
                        explicitIcon: icon, order: order, sections: sections, items: items, diagnostics: diagnostics,
                        isValidUTF8: isValidUTF8)
    }

    private static func decodeItem(_ reader: inout ByteReader, index: Int, count: Int, sections: Int) throws -> TaskItem {
        let line = try reader.count()
        let lastLine = line + (try reader.count())
        guard let status = TaskStatus(boxByte: try reader.byte()) else { throw ByteReader.Damaged() }
        let markerRange = try reader.range()
        let boxRange = try reader.range()
        let titleRange = try reader.range()
        let blockRange = try reader.range()
        let depth = try reader.count()
        let parent = try reader.optionalInt()
        guard parent.map({ $0 >= 0 && $0 < index }) ?? true else { throw ByteReader.Damaged() }
        var children: [Int] = []
        for _ in 0..<(try reader.count(limit: count)) {
            let child = try reader.count(limit: count - 1)
            children.append(child)
        }
        let section = try reader.optionalInt()
        guard section.map({ $0 >= 0 && $0 < sections }) ?? true else { throw ByteReader.Damaged() }
        let quoteDepth = try reader.count()
        let title = try reader.string()
        let text = try reader.string()
        let notes = try reader.optionalString()
        var noteLines: [Int] = []
        for _ in 0..<(try reader.count(limit: 1 << 26)) { noteLines.append(line + (try reader.count())) }
        var invalidTitleBytes: [UInt8]? = nil
        if try reader.bool() {
            let count = try reader.count(limit: titleRange.count)
            var raw: [UInt8] = []
            for _ in 0..<count { raw.append(try reader.byte()) }
            invalidTitleBytes = raw
        }
        var metadata = ItemMetadata()
        guard let priority = Priority(rawValue: try reader.int()) else { throw ByteReader.Damaged() }
        metadata.priority = priority
        metadata.hasPriority = try reader.bool()
        func date() throws -> TaskDate? {
            guard try reader.bool() else { return nil }
            let packed = try reader.count()
            let minutes = try reader.int()
            guard packed / 100 % 100 >= 1, packed / 100 % 100 <= 12, packed % 100 >= 1, packed % 100 <= 31,
                  packed / 10000 <= 99999, minutes >= -1, minutes < 24 * 60 else { throw ByteReader.Damaged() }
            return TaskDate(year: packed / 10000, month: packed / 100 % 100, day: packed % 100, minuteOfDay: minutes < 0 ? nil : minutes)
        }
        metadata.due = try date()
        metadata.scheduled = try date()
        metadata.start = try date()
        metadata.created = try date()
        metadata.done = try date()
        metadata.cancelled = try date()
        metadata.every = try reader.optionalString()
        for _ in 0..<(try reader.count(limit: 1 << 20)) { metadata.tags.append(try reader.string()) }
        metadata.color = try reader.optionalString()
        metadata.icon = try reader.optionalString()
        metadata.id = try reader.optionalString()
        for _ in 0..<(try reader.count(limit: 1 << 20)) { metadata.fields.append((try reader.string(), try reader.string())) }
        switch try reader.int() {
        case 0: metadata.dialect = nil
        case 1: metadata.dialect = .tick
        case 2: metadata.dialect = .emoji
        case 3: metadata.dialect = .dataview
        default: throw ByteReader.Damaged()
        }
        return TaskItem(index: index, line: line, lastLine: lastLine, status: status, markerRange: markerRange,
                        boxRange: boxRange, titleRange: titleRange, blockRange: blockRange, depth: depth, parent: parent,
                        children: children, section: section, quoteDepth: quoteDepth, metadata: metadata, title: title,
                        text: text, notes: notes, noteLines: noteLines, invalidTitleBytes: invalidTitleBytes)
    }

    private static func decodeJSON(_ reader: inout ByteReader, depth: Int) throws -> JSONValue {
        guard depth < 256 else { throw ByteReader.Damaged() }
        switch try reader.int() {
        case 0: return .null
        case 1: return .bool(try reader.bool())
        case 2: return .int(try reader.int())
        case 3: return .double(Double(bitPattern: UInt64(UInt(bitPattern: try reader.int()))))
        case 4: return .string(try reader.string())
        case 5:
            var values: [JSONValue] = []
            for _ in 0..<(try reader.count(limit: 1 << 24)) { values.append(try decodeJSON(&reader, depth: depth + 1)) }
            return .array(values)
        case 6:
            var pairs: [(String, JSONValue)] = []
            for _ in 0..<(try reader.count(limit: 1 << 24)) { pairs.append((try reader.string(), try decodeJSON(&reader, depth: depth + 1))) }
            return .object(pairs)
        default:
            throw ByteReader.Damaged()
        }
    }
}
