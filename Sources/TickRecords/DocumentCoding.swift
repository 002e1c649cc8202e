import Foundation
import TickModel
import TickSystem

/// Writes a parsed document into the parse cache and reads it back.
///
/// Everything a read command uses is kept; the file's bytes are not (a
/// document read back has an empty `source`: the cache is never used for
/// edits). Reading back gives a document equal, field for field, to the one
/// written; `ParseCacheTests.roundTrip` checks that on every fixture.
///
/// Layout: the list's header (LEB128 numbers and length-prefixed strings),
/// its sections, then one fixed-size record per item (`ItemRecordLayout`),
/// then the items' strings and the rest of each item. The records hold what
/// queries, sorting and JSON read, at fixed offsets, so that
/// `EncodedDocument` answers a query from the bytes in place without
/// decoding anything; a full decode reads the same records.
package enum DocumentCoding {
    /// A document whose numbers do not fit the records' 32 bits (a file of
    /// gigabytes); it is not cached.
    struct TooLarge: Error {}

    static func encode(_ document: Document, into writer: inout ByteWriter) throws(TooLarge) {
        writer.string(document.path)
        writer.optionalString(document.explicitColor)
        writer.optionalString(document.explicitIcon)
        writer.optionalInt(document.order)
        writer.string(document.name)
        writer.bool(document.isValidUTF8)
        writer.block { writer in
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
        }
        writer.int(document.sections.count)
        for section in document.sections {
            writer.string(section.title)
            writer.block { writer in
                writer.int(section.level)
                writer.int(section.line)
                writer.range(section.range)
                writer.optionalString(section.color)
                writer.optionalString(section.icon)
            }
        }
        writer.block { writer in
            writer.int(document.diagnostics.count)
            for diagnostic in document.diagnostics {
                writer.int(diagnostic.line)
                writer.int(diagnostic.column)
                writer.string(diagnostic.message)
            }
        }
        writer.int(document.items.count)
        let recordsStart = writer.bytes.count
        // Room for the records and, roughly, the items' strings: the payload
        // grows once or twice instead of a dozen times.
        writer.bytes.reserveCapacity(recordsStart + document.items.count * (ItemRecordLayout.size + 128))
        writer.bytes.append(contentsOf: repeatElement(0, count: document.items.count * ItemRecordLayout.size))
        // Items are borrowed from the array, not copied (a copy retains and
        // releases each of an item's strings and arrays).
        try document.items.withUnsafeBufferPointer { (items) throws(TooLarge) in
            for index in items.indices {
                try ItemRecordLayout.Writer.write(at: recordsStart + index * ItemRecordLayout.size, in: &writer) {
                    (record, writer) throws(TooLarge) in
                    try encode(items.baseAddress! + index, in: document, record: record, into: &writer)
                }
            }
        }
        ItemRecordLayout.storeUIDHashes(in: &writer.bytes, recordsAt: recordsStart, count: document.items.count, path: document.path)
    }

    /// Encodes the item `item` points at: read in place through the pointer,
    /// because taking the item (or its metadata) as a value copies it,
    /// retaining and then releasing each of its strings and arrays (2% of a
    /// cold query's instructions).
    private static func encode(
        _ item: UnsafePointer<TaskItem>, in document: Document, record: ItemRecordLayout.Writer,
        into writer: inout ByteWriter
    ) throws(TooLarge) {
        func set(_ field: ItemRecordLayout.Field, _ value: Int, plus words: Int = 0) throws(TooLarge) {
            try record.set(field, value, plus: words)
        }
        try set(.line, item.pointee.line)
        try set(.fileOffset, item.pointee.blockRange.lowerBound)
        try set(.depth, item.pointee.depth)
        try set(.parent, item.pointee.parent.map { $0 + 1 } ?? 0)
        try set(.parentLine, item.pointee.parent.map { document.items[$0].line } ?? 0)
        try set(.section, item.pointee.section.map { $0 + 1 } ?? 0)
        try set(.childCount, item.pointee.children.count)
        var flags =
            Int(item.pointee.status.boxByte) | item.pointee.metadata.priority.rawValue << 8 | (item.pointee.metadata.hasPriority ? 1 << 16 : 0)
        // The strings first, then the extras that point at them.
        func append(_ value: String) -> (start: Int, count: Int) {
            var value = value
            let start = writer.bytes.count
            value.withUTF8 { writer.bytes.append(contentsOf: $0) }
            return (start, writer.bytes.count - start)
        }
        func set(_ field: ItemRecordLayout.Field, _ slice: (start: Int, count: Int)) throws(TooLarge) {
            try set(field, slice.start)
            try set(field, slice.count, plus: 1)
        }
        let text = append(item.pointee.text)
        try set(.text, text)
        if !item.pointee.textIsPlain { flags |= Int(ItemRecordLayout.markupBit) }
        // The title is most often the start of the text (the text less its
        // trailing tokens): then its slice points into the text's bytes
        // instead of repeating them, a seventh of the cache.
        var title = item.pointee.title
        if title.utf8.count <= text.count,
            title.withUTF8({ title in
                writer.bytes.withUnsafeBufferPointer { bytes in
                    title.isEmpty || Posix.compareBytes(title.baseAddress!, bytes.baseAddress! + text.start, title.count) == 0
                }
            })
        {
            try set(.title, (text.start, title.utf8.count))
        } else {
            try set(.title, append(title))
        }
        if title.withUTF8({ ItemRecordLayout.isPlainASCII($0) }) { flags |= Int(ItemRecordLayout.plainASCIITitleBit) }
        let notes = item.pointee.notes.map(append)
        let every = item.pointee.metadata.every.map(append)
        let color = item.pointee.metadata.color.map(append)
        let icon = item.pointee.metadata.icon.map(append)
        let id = item.pointee.metadata.id.map(append)
        let dependsOn = item.pointee.metadata.dependsOn.isEmpty ? nil : append(item.pointee.metadata.dependsOn.joined(separator: ","))
        let onCompletion = item.pointee.metadata.onCompletion.map(append)
        let more = item.pointee.metadata.more.map { field, value in
            (place: MetadataField.keptInMore.firstIndex(of: field)!, date: value.date, text: value.date == nil ? value.text.map(append) : nil)
        }
        // The extras, in `Extra` order, only those present.
        try set(.extras, writer.bytes.count)
        func extra(_ extra: ItemRecordLayout.Extra, _ first: Int, _ second: Int? = nil) {
            flags |= Int(extra.bit)
            writer.int(first)
            if let second { writer.int(second) }
        }
        if let due = item.pointee.metadata.due {
            try set(.due, Int(due.packed.day))
            if due.packed.minutes != 0 { extra(.dueMinutes, Int(due.packed.minutes)) }
        }
        if let done = item.pointee.metadata.done {
            try set(.done, Int(done.packed.day))
            if done.packed.minutes != 0 { extra(.doneMinutes, Int(done.packed.minutes)) }
        }
        if let date = item.pointee.metadata.scheduled { extra(.scheduled, Int(date.packed.day), Int(date.packed.minutes)) }
        if let date = item.pointee.metadata.start { extra(.start, Int(date.packed.day), Int(date.packed.minutes)) }
        if let date = item.pointee.metadata.created { extra(.created, Int(date.packed.day), Int(date.packed.minutes)) }
        if let date = item.pointee.metadata.cancelled { extra(.cancelled, Int(date.packed.day), Int(date.packed.minutes)) }
        if let notes { extra(.notes, notes.start, notes.count) }
        if let every { extra(.every, every.start, every.count) }
        if let color { extra(.color, color.start, color.count) }
        if let icon { extra(.icon, icon.start, icon.count) }
        if let id { extra(.id, id.start, id.count) }
        if let dependsOn { extra(.dependsOn, dependsOn.start, dependsOn.count) }
        if let onCompletion { extra(.onCompletion, onCompletion.start, onCompletion.count) }
        if !more.isEmpty {
            flags |= Int(ItemRecordLayout.Extra.more.bit)
            writer.int(more.count)
            for value in more {
                writer.int(value.place)
                if let date = value.date {
                    writer.int(0)
                    writer.int(Int(date.packed.day))
                    writer.int(Int(date.packed.minutes))
                } else {
                    let text = value.text ?? (0, 0)
                    writer.int(1)
                    writer.int(text.start)
                    writer.int(text.count)
                }
            }
        }
        try set(.flags, flags)
        try set(.tags, writer.bytes.count)
        try set(.tagCount, item.pointee.metadata.tags.count)
        writer.int(item.pointee.metadata.tags.count)
        for tag in item.pointee.metadata.tags { writer.string(tag) }
        try set(.fields, writer.bytes.count)
        try set(.fieldCount, item.pointee.metadata.fields.count)
        writer.int(item.pointee.metadata.fields.count)
        for field in item.pointee.metadata.fields {
            writer.string(field.key)
            writer.string(field.value)
        }
        // The rest, which only a full decode reads.
        try set(.rest, writer.bytes.count)
        writer.block { writer in
            writer.int(item.pointee.lastLine - item.pointee.line)
            writer.range(item.pointee.markerRange)
            writer.range(item.pointee.boxRange)
            writer.range(item.pointee.titleRange)
            writer.int(item.pointee.blockRange.count)
            for child in item.pointee.children { writer.int(child) }
            writer.int(item.pointee.quoteDepth)
            writer.int(item.pointee.noteLines.count)
            for line in item.pointee.noteLines { writer.int(line - item.pointee.line) }
            writer.bool(item.pointee.invalidTitleBytes != nil)
            if let raw = item.pointee.invalidTitleBytes {
                writer.int(raw.count)
                writer.bytes.append(contentsOf: raw)
            }
            let dialect: Int
            switch item.pointee.metadata.dialect {
            case nil: dialect = 0
            case .tick: dialect = 1
            case .emoji: dialect = 2
            case .dataview: dialect = 3
            }
            writer.int(dialect)
        }
        if writer.bytes.count > ItemRecordLayout.maximumValue { throw TooLarge() }
    }

    private static func encode(_ value: JSONValue, into writer: inout ByteWriter) {
        switch value {
        case .null: writer.int(0)
        case .bool(let flag):
            writer.int(1)
            writer.bool(flag)
        case .int(let number):
            writer.int(2)
            writer.int(number)
        case .double(let number):
            writer.int(3)
            writer.int(Int(bitPattern: UInt(number.bitPattern)))
        case .string(let text):
            writer.int(4)
            writer.string(text)
        case .array(let values):
            writer.int(5)
            writer.int(values.count)
            for element in values { encode(element, into: &writer) }
        case .object(let pairs):
            writer.int(6)
            writer.int(pairs.count)
            for (key, element) in pairs {
                writer.string(key)
                encode(element, into: &writer)
            }
        }
    }

    /// Reads the front matter block that `encode` writes after the header.
    static func decodeFrontMatter(_ reader: inout ByteReader) throws -> FrontMatter? {
        var frontMatter: FrontMatter? = nil
        try reader.block { reader in
            guard try reader.bool() else { return }
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
        return frontMatter
    }

    package static func decode(_ buffer: UnsafeBufferPointer<UInt8>) throws -> Document {
        var reader = ByteReader(buffer, range: 0..<buffer.count)
        let path = try reader.string()
        let color = try reader.optionalString()
        let icon = try reader.optionalString()
        let order = try reader.optionalInt()
        let name = try reader.string()
        let isValidUTF8 = try reader.bool()
        let frontMatter = try decodeFrontMatter(&reader)
        var sections: [Section] = []
        for _ in 0..<(try reader.count(limit: 1 << 24)) {
            let title = try reader.string()
            try reader.block { reader in
                sections.append(
                    Section(
                        level: try reader.int(), title: title, line: try reader.int(), range: try reader.range(),
                        color: try reader.optionalString(), icon: try reader.optionalString()))
            }
        }
        var diagnostics: [Diagnostic] = []
        try reader.block { reader in
            for _ in 0..<(try reader.count(limit: 1 << 24)) {
                diagnostics.append(Diagnostic(line: try reader.int(), column: try reader.int(), message: try reader.string()))
            }
        }
        let records = try ItemRecordLayout.Records(&reader, in: buffer)
        var items: [TaskItem] = []
        items.reserveCapacity(records.count)
        for index in 0..<records.count {
            items.append(try decodeItem(records, index, sections: sections.count))
        }
        return Document(
            path: path, source: SourceText([]), frontMatter: frontMatter, name: name, explicitColor: color,
            explicitIcon: icon, order: order, sections: sections, items: items, diagnostics: diagnostics,
            isValidUTF8: isValidUTF8)
    }

    private static func decodeItem(_ records: ItemRecordLayout.Records, _ index: Int, sections: Int) throws -> TaskItem {
        let record = records.record(index)
        func string(_ field: ItemRecordLayout.TextField) throws -> String? {
            guard let bytes = try record.slice(field) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        func required(_ field: ItemRecordLayout.TextField) throws -> String {
            guard let text = try string(field) else { throw ByteReader.Damaged() }
            return text
        }
        let line = record[.line]
        let count = records.count
        guard let status = record.status, let priority = record.priority else { throw ByteReader.Damaged() }
        let parent = record[.parent]
        guard parent <= index else { throw ByteReader.Damaged() }
        let section = record[.section]
        guard section <= sections, record[.childCount] < count else { throw ByteReader.Damaged() }
        var metadata = ItemMetadata()
        metadata.priority = priority
        metadata.hasPriority = record.hasPriority
        metadata.due = try record.date(0)
        metadata.scheduled = try record.date(1)
        metadata.start = try record.date(2)
        metadata.created = try record.date(3)
        metadata.done = try record.date(4)
        metadata.cancelled = try record.date(5)
        metadata.every = try string(.every)
        metadata.tags = try record.strings(at: .tags)
        guard metadata.tags.count == record[.tagCount] else { throw ByteReader.Damaged() }
        metadata.color = try string(.color)
        metadata.icon = try string(.icon)
        metadata.id = try string(.id)
        metadata.dependsOn = try string(.dependsOn).map(ItemMetadata.dependencyIDs) ?? []
        metadata.onCompletion = try string(.onCompletion)
        for (field, value) in try record.more() {
            switch value {
            case .date(let date): metadata.setValue(.date(date), of: field)
            case .text(let bytes): metadata.setValue(.text(String(decoding: bytes, as: UTF8.self)), of: field)
            }
        }
        metadata.fields = try record.stringPairs(at: .fields)
        guard metadata.fields.count == record[.fieldCount] else { throw ByteReader.Damaged() }
        var reader = try record.reader(at: .rest)
        var item: TaskItem? = nil
        try reader.block { reader in
            let lastLine = line + (try reader.count())
            let markerRange = try reader.range()
            let boxRange = try reader.range()
            let titleRange = try reader.range()
            let blockRange = record[.fileOffset]..<record[.fileOffset] + (try reader.count())
            var children: [Int] = []
            children.reserveCapacity(record[.childCount])
            for _ in 0..<record[.childCount] { children.append(try reader.count(limit: count - 1)) }
            let quoteDepth = try reader.count()
            var noteLines: [Int] = []
            for _ in 0..<(try reader.count(limit: 1 << 26)) { noteLines.append(line + (try reader.count())) }
            var invalidTitleBytes: [UInt8]? = nil
            if try reader.bool() {
                let rawCount = try reader.count(limit: titleRange.count)
                var raw: [UInt8] = []
                for _ in 0..<rawCount { raw.append(try reader.byte()) }
                invalidTitleBytes = raw
            }
            switch try reader.int() {
            case 0: metadata.dialect = nil
            case 1: metadata.dialect = .tick
            case 2: metadata.dialect = .emoji
            case 3: metadata.dialect = .dataview
            default: throw ByteReader.Damaged()
            }
            item = TaskItem(
                index: index, line: line, lastLine: lastLine, status: status, markerRange: markerRange,
                boxRange: boxRange, titleRange: titleRange, blockRange: blockRange, depth: record[.depth],
                parent: parent == 0 ? nil : parent - 1, children: children,
                section: section == 0 ? nil : section - 1, quoteDepth: quoteDepth, metadata: metadata,
                title: try required(.title), text: try required(.text), textIsPlain: !record.hasMarkup, notes: try string(.notes),
                noteLines: noteLines, invalidTitleBytes: invalidTitleBytes)
        }
        guard let item else { throw ByteReader.Damaged() }
        return item
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
