/// Decides whether an item matches a query.
///
/// Evaluation is pure: it reads only the item and its list, never the file
/// system or the clock (relative dates were resolved by the parser).
public enum QueryEvaluator {
    /// The items that match `expression`, in the order given.
    public static func filter(_ items: [ListedItem], _ expression: QueryExpression) -> [ListedItem] {
        items.filter { matches($0, expression) }
    }

    public static func matches(_ listed: ListedItem, _ expression: QueryExpression) -> Bool {
        switch expression {
        case .and(let operands): operands.allSatisfy { matches(listed, $0) }
        case .or(let operands): operands.contains { matches(listed, $0) }
        case .not(let operand): !matches(listed, operand)
        case .predicate(let predicate): matches(listed, predicate)
        }
    }

    public static func matches(_ listed: ListedItem, _ predicate: QueryPredicate) -> Bool {
        let item = listed.item
        let metadata = item.metadata
        switch predicate {
        case .status(let status):
            return status.includes(item.status)
        case .date(let field, let comparison, let value):
            guard let date = metadata.date(field.metadataField) else { return false }
            return compare(date.compareDay(value.date), comparison)
        case .has(let field, let wanted):
            return has(field, listed) == wanted
        case .priority(let comparison, let priority):
            let difference = metadata.priority.rawValue - priority.rawValue
            return compare(difference < 0 ? -1 : (difference == 0 ? 0 : 1), comparison)
        case .recurring:
            return metadata.every != nil
        case .text(let field, let comparison, let pattern):
            switch comparison {
            case .notEqual: return !textMatches(field, .equal, pattern, listed)
            case .doesNotMatch: return !textMatches(field, .matches, pattern, listed)
            default: return textMatches(field, comparison, pattern, listed)
            }
        }
    }

    private static func compare(_ order: Int, _ comparison: QueryComparison) -> Bool {
        switch comparison {
        case .less: order < 0
        case .lessOrEqual: order <= 0
        case .equal, .matches: order == 0
        case .notEqual, .doesNotMatch: order != 0
        case .greaterOrEqual: order >= 0
        case .greater: order > 0
        }
    }

    private static func has(_ field: QueryPresenceField, _ listed: ListedItem) -> Bool {
        let item = listed.item
        let metadata = item.metadata
        switch field {
        case .due: return metadata.due != nil
        case .scheduled: return metadata.scheduled != nil
        case .start: return metadata.start != nil
        case .created: return metadata.created != nil
        case .done: return metadata.done != nil
        case .cancelled: return metadata.cancelled != nil
        case .priority: return metadata.hasPriority
        case .tags, .tag: return !metadata.tags.isEmpty
        case .id: return metadata.id != nil
        case .notes: return item.notes != nil
        case .every: return metadata.every != nil
        case .section: return item.section != nil
        case .subtasks: return !item.children.isEmpty
        case .parent: return item.parent != nil
        }
    }

    /// `=` or `~` for a text field (the negations are handled by the caller).
    private static func textMatches(_ field: QueryTextField, _ comparison: QueryComparison, _ pattern: TextPattern,
                                    _ listed: ListedItem) -> Bool {
        let equal = comparison == .equal
        let document = listed.document
        let item = listed.item
        func test(_ text: String) -> Bool { equal ? pattern.isEqual(to: text) : pattern.isFound(in: text) }
        switch field {
        case .list:
            if test(document.name) { return true }
            guard equal else { return pattern.isFound(in: document.path) }
            let withoutExtension = Self.withoutExtension(document.path)
            let stem = withoutExtension.split(separator: "/").last.map(String.init) ?? withoutExtension
            return test(document.path) || test(withoutExtension) || test(stem)
        case .path:
            return test(document.path) || (equal && test(Self.withoutExtension(document.path)))
        case .section:
            return test(item.section.map { document.sections[$0].title } ?? "")
        case .title:
            return test(item.title)
        case .text:
            if test(item.title) { return true }
            guard let notes = item.notes else { return false }
            return equal ? false : pattern.isFound(in: notes)
        case .id:
            return test(item.metadata.id ?? "")
        case .tag:
            return item.metadata.tags.contains { tag in
                if test(tag) { return true }
                // `tag = work` also matches the sub-tags `work/…`.
                guard equal, pattern.regex == nil else { return false }
                return tag.lowercased().hasPrefix(pattern.written.lowercased() + "/")
            }
        }
    }

    static func withoutExtension(_ path: String) -> String {
        if path.hasSuffix(".markdown") { return String(path.dropLast(9)) }
        if path.hasSuffix(".md") { return String(path.dropLast(3)) }
        return path
    }
}
