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
        var output = ""
        write(items) { output += $0 }
        return output
    }

    /// Writes the CSV text a record at a time, so that the whole text is
    /// never in memory.
    public static func write(_ items: [EncodedListedItem], to emit: (String) -> Void) {
        emit(record(columns))
        items.forEachReleasingCachePages { item in
            let fields: [String] = [
                item.listPath,
                String(item.line),
                item.listName,
                item.sectionTitle?.string ?? "",
                item.status.rawValue,
                item.title.string,
                item.priority.name,
                item.date(.due)?.isoString ?? "",
                item.date(.scheduled)?.isoString ?? "",
                item.date(.start)?.isoString ?? "",
                item.date(.created)?.isoString ?? "",
                item.date(.done)?.isoString ?? "",
                item.date(.cancelled)?.isoString ?? "",
                item.every?.string ?? "",
                item.tags.map(\.string).joined(separator: " "),
                item.id?.string ?? "",
                item.parentReference ?? "",
                String(item.depth),
                item.notes?.string ?? "",
            ]
            emit(record(fields))
        }
    }

    static func record(_ fields: [String]) -> String {
        fields.map(quoted).joined(separator: ",") + "\r\n"
    }

    /// A field, quoted when RFC 4180 requires it. A field that starts with
    /// `=`, `+`, `-`, `@`, a tab or a carriage return, which a spreadsheet
    /// would run as a formula, is neutralised as OWASP recommends ("CSV
    /// Injection"): a single quote is put before it and the field quoted.
    public static func quoted(_ field: String) -> String {
        if let first = field.unicodeScalars.first, formulaStarts.contains(first) {
            return "\"'" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        let needsQuotes = field.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard needsQuotes else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The first characters that make a spreadsheet read a cell as a formula.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
}
