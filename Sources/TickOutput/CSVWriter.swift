import TickModel
import TickRecords

/// Items as CSV (RFC 4180): a header row, one record per item, CRLF line
/// breaks, and fields quoted when they hold a comma, a quote or a line break
/// (quotes doubled).
public enum CSVWriter {
    /// The columns, in order.
    public static let columns = [
        "path", "line", "list", "section", "status", "title", "priority", "due",
        "scheduled", "start", "created", "done", "cancelled", "every", "tags",
        "id", "parent", "depth", "notes",
    ]

    /// The whole CSV text. Tags are separated by spaces, without `#`;
    /// absent values are empty fields.
    public static func write(_ items: [EncodedListedItem]) -> String {
        var output: [UInt8] = []
        write(items) { output.append(contentsOf: $0) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Writes the CSV text a run of records at a time, in order, the runs
    /// written on every core (`ItemRuns`), each field straight from the
    /// item's bytes, so that the whole text is never in memory.
    public static func write(_ items: [EncodedListedItem], to emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        var header = ByteOutput()
        for (index, column) in columns.enumerated() {
            if index > 0 { header.append(UInt8(ascii: ",")) }
            column.withUTF8Bytes { appendField($0, to: &header) }
        }
        header.append("\r\n")
        let written = header.release()
        emit(written.written)
        written.deallocate()
        ItemRuns.write(items, runsOfAtMost: 256, bytesPerItem: 256) { positions, output, itemEnded in
            var tags: [UInt8] = []
            for position in positions {
                appendRecord(items[position], tags: &tags, to: &output)
                itemEnded(output.count)
            }
        } deliver: {
            emit($0)
        }
    }

    /// Appends the record of `item` and its CRLF (`tags` is room for
    /// the tags field, joined by spaces before it is quoted).
    private static func appendRecord(_ item: EncodedListedItem, tags: inout [UInt8], to output: inout ByteOutput) {
        func field(_ text: String) { text.withUTF8Bytes { appendField($0, to: &output) } }
        func field(_ text: EncodedText?) { if let text { appendField(text.bytes, to: &output) } }
        func date(_ field: MetadataField) { item.date(field)?.appendISO(to: &output) }
        func comma() { output.append(UInt8(ascii: ",")) }
        field(item.listPath)
        comma()
        output.appendDecimal(item.line)
        comma()
        field(item.listName)
        comma()
        field(item.sectionTitle)
        comma()
        field(item.status.rawValue)
        comma()
        field(item.title)
        comma()
        field(item.priority.name)
        for dateField in [MetadataField.due, .scheduled, .start, .created, .done, .cancelled] {
            comma()
            date(dateField)
        }
        comma()
        field(item.every)
        comma()
        tags.removeAll(keepingCapacity: true)
        item.forEachTag { tag in
            if !tags.isEmpty { tags.append(UInt8(ascii: " ")) }
            tags.append(contentsOf: tag.bytes)
        }
        tags.withUnsafeBufferPointer { appendField($0, to: &output) }
        comma()
        field(item.id)
        comma()
        if let parent = item.parentReference { field(parent) }
        comma()
        output.appendDecimal(item.depth)
        comma()
        field(item.notes)
        output.append("\r\n")
    }

    /// A field, quoted when RFC 4180 requires it. A field that starts with
    /// `=`, `+`, `-`, `@`, a tab or a carriage return, which a spreadsheet
    /// would run as a formula, is neutralised as OWASP recommends ("CSV
    /// Injection"): a single quote is put before it and the field quoted.
    public static func quoted(_ field: String) -> String {
        var output = ByteOutput()
        field.withUTF8Bytes { appendField($0, to: &output) }
        let written = output.release()
        defer { written.deallocate() }
        return String(decoding: written.written, as: UTF8.self)
    }

    /// Appends a field's UTF-8 bytes, quoted as `quoted` says. (The bytes
    /// that decide are ASCII, so a byte is a character's first.)
    static func appendField(_ field: UnsafeBufferPointer<UInt8>, to output: inout ByteOutput) {
        let isFormula = field.first.map { formulaStartBytes.contains($0) } ?? false
        guard
            isFormula
                || field.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D })
        else { return output.append(field) }
        output.append(isFormula ? "\"'" : "\"")
        var start = 0
        for (index, byte) in field.enumerated() where byte == UInt8(ascii: "\"") {
            output.append(UnsafeBufferPointer(rebasing: field[start...index]))
            output.append(UInt8(ascii: "\""))
            start = index + 1
        }
        output.append(UnsafeBufferPointer(rebasing: field[start...]))
        output.append(UInt8(ascii: "\""))
    }

    /// The first bytes that make a spreadsheet read a cell as a formula.
    private static let formulaStartBytes: [UInt8] = Array("=+-@\t\r".utf8)
}
