/// Items as CSV (RFC 4180): a header row, one record per item, CRLF line
/// breaks, and fields quoted when they hold a comma, a quote or a line break
/// (quotes doubled).
public enum CSVWriter {
    /// The columns, in order.
    public static let columns = ["path", "line", "list", "section", "status", "title", "priority", "due",
                                 "scheduled", "start", "created", "done", "cancelled", "every", "tags",
                                 "id", "parent", "depth", "notes"]

    /// The whole CSV text. Tags are separated by spaces, without `#`;
    /// absent values are empty fields.
    public static func write(_ items: [ListedItem]) -> String {
        var output = record(columns)
        for listed in items {
            let item = listed.item
            let document = listed.document
            let metadata = item.metadata
            let fields: [String] = [
                document.path,
                String(item.line),
                document.name,
                item.section.map { document.sections[$0].title } ?? "",
                item.status.rawValue,
                item.title,
                metadata.priority.name,
                metadata.due?.isoString ?? "",
                metadata.scheduled?.isoString ?? "",
                metadata.start?.isoString ?? "",
                metadata.created?.isoString ?? "",
                metadata.done?.isoString ?? "",
                metadata.cancelled?.isoString ?? "",
                metadata.every ?? "",
                metadata.tags.joined(separator: " "),
                metadata.id ?? "",
                item.parent.map { document.address(of: document.items[$0]) } ?? "",
                String(item.depth),
                item.notes ?? "",
            ]
            output += record(fields)
        }
        return output
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
