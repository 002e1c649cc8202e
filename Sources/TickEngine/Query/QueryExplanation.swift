/// Prints a parsed query as a tree, relative dates shown as the days they
/// resolved to (`due <= +7d` is shown as `due <= 2026-11-28 (Sat)`).
public enum QueryExplanation {
    /// The tree, one node per line, drawn with box-drawing characters.
    public static func tree(_ expression: QueryExpression) -> String {
        var lines: [String] = []
        write(expression, prefix: "", childPrefix: "", into: &lines)
        return lines.joined(separator: "\n")
    }

    private static func write(_ expression: QueryExpression, prefix: String, childPrefix: String, into lines: inout [String]) {
        let children: [QueryExpression]
        switch expression {
        case .and(let operands):
            lines.append(prefix + "and")
            children = operands
        case .or(let operands):
            lines.append(prefix + "or")
            children = operands
        case .not(let operand):
            lines.append(prefix + "not")
            children = [operand]
        case .predicate(let predicate):
            lines.append(prefix + describe(predicate))
            children = []
        }
        for (index, child) in children.enumerated() {
            let isLast = index == children.count - 1
            write(
                child, prefix: childPrefix + (isLast ? "└── " : "├── "),
                childPrefix: childPrefix + (isLast ? "    " : "│   "), into: &lines)
        }
    }

    /// One predicate in the query language, dates resolved.
    public static func describe(_ predicate: QueryPredicate) -> String {
        switch predicate {
        case .status(let status):
            return status == .open ? "open (open or in-progress)" : status.rawValue
        case .date(let field, let comparison, let value):
            return "\(field.rawValue) \(comparison.rawValue) \(value.date.isoString) (\(value.date.weekdayAbbreviation))"
        case .has(let field, let present):
            return "\(present ? "has" : "no") \(field.rawValue)"
        case .priority(let comparison, let priority):
            return "priority \(comparison.rawValue) \(priority.name)"
        case .recurring:
            return "every (recurring)"
        case .dependency(.blocked, _):
            return "blocked (open, waiting for an open item)"
        case .dependency(.blocking, _):
            return "blocking (open, an open item waits for it)"
        case .text(let field, let comparison, let pattern):
            var text = "\(field.rawValue) \(comparison.rawValue) \(quoted(pattern.written))"
            if pattern.regex != nil {
                text += " (regular expression)"
            } else if field == .tag, comparison == .equal || comparison == .notEqual {
                text += " (or its sub-tags)"
            } else if comparison == .matches || comparison == .doesNotMatch {
                text += " (contains, any case)"
            }
            return text
        }
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
