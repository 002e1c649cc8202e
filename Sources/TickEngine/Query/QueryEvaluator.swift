import TickModel
import TickRecords

/// Decides whether an item matches a query.
///
/// Evaluation is pure: it reads only the item and its list, never the file
/// system or the clock (relative dates were resolved by the parser).
public enum QueryEvaluator {
    /// The items that match `expression`, in the order given.
    public static func filter(_ items: [EncodedListedItem], _ expression: QueryExpression) -> [EncodedListedItem] {
        let test = test(expression)
        return items.compactMapReleasingCachePages { test($0) ? $0 : nil }
    }

    /// `expression` as a test of one kind of record: nested closures, made
    /// once, with the tree's short cuts (`and` stops at the first false
    /// operand). Walking the tree for every item retained and released each
    /// `and`'s array of operands, on the item's thread: a twentieth of a
    /// repeated query's time. Each task makes its own test.
    package static func test(_ expression: QueryExpression) -> (EncodedListedItem) -> Bool {
        switch expression {
        case .and(let operands): return chain(operands[...], all: true)
        case .or(let operands): return chain(operands[...], all: false)
        case .not(let operand):
            let inner = test(operand)
            return { !inner($0) }
        case .predicate(.text(let field, let comparison, let pattern)) where field == .list || field == .path:
            return perList(.text(field, comparison, pattern))
        case .predicate(let predicate): return { matches($0, predicate) }
        }
    }

    /// A test of what is the same for every item of a list (its name and
    /// path), answered once per list: items come list by list, and the
    /// text comparison is a Foundation call. The test keeps the last list
    /// it answered for (held, so that no other list can take its address),
    /// so it belongs to one task.
    private static func perList(_ predicate: QueryPredicate) -> (EncodedListedItem) -> Bool {
        var lastList: EncodedDocument? = nil
        var lastAnswer = false
        return { item in
            if item.document !== lastList {
                lastList = item.document
                lastAnswer = matches(item, predicate)
            }
            return lastAnswer
        }
    }

    /// The operands' tests chained in closures, never kept in an array (a
    /// closure read from an array is called through a conversion thunk):
    /// all of them must pass, or, without `all`, any one.
    private static func chain(_ operands: ArraySlice<QueryExpression>, all: Bool) -> (EncodedListedItem) -> Bool {
        guard let operand = operands.first else { return { _ in all } }
        let first = test(operand)
        if operands.count == 1 { return first }
        let rest = chain(operands.dropFirst(), all: all)
        return all ? { first($0) && rest($0) } : { first($0) || rest($0) }
    }

    public static func matches(_ listed: EncodedListedItem, _ predicate: QueryPredicate) -> Bool {
        switch predicate {
        case .status(let status):
            return status.includes(listed.status)
        case .date(let field, let comparison, let value):
            guard let date = field.date(of: listed) else { return false }
            return compare(date.compareDay(value.date), comparison)
        case .has(let field, let wanted):
            return has(field, listed) == wanted
        case .priority(let comparison, let priority):
            let difference = listed.priority.rawValue - priority.rawValue
            return compare(difference < 0 ? -1 : (difference == 0 ? 0 : 1), comparison)
        case .recurring:
            return listed.every != nil
        case .dependency(.blocked, let index):
            return index.isBlocked(listed)
        case .dependency(.blocking, let index):
            return index.isBlocking(listed)
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

    private static func has(_ field: QueryPresenceField, _ listed: EncodedListedItem) -> Bool {
        switch field {
        case .due: return listed.date(.due) != nil
        case .scheduled: return listed.date(.scheduled) != nil
        case .start: return listed.date(.start) != nil
        case .created: return listed.date(.created) != nil
        case .done: return listed.date(.done) != nil
        case .cancelled: return listed.date(.cancelled) != nil
        case .priority: return listed.hasPriority
        case .tags, .tag: return listed.hasTags
        case .id: return listed.id != nil
        case .notes: return listed.notes != nil
        case .every: return listed.every != nil
        case .section: return listed.sectionTitle != nil
        case .subtasks: return listed.hasSubtasks
        case .parent: return listed.parentLine != nil
        }
    }

    /// `=` or `~` for a text field (the negations are handled by the caller).
    /// The item's texts are tested where they lie in the parse cache.
    private static func textMatches(
        _ field: QueryTextField, _ comparison: QueryComparison,
        _ pattern: TextPattern, _ listed: EncodedListedItem
    ) -> Bool {
        let equal = comparison == .equal
        func test(_ text: String) -> Bool { equal ? pattern.isEqual(to: text) : pattern.isFound(in: text) }
        func test(_ text: EncodedText?) -> Bool {
            let bytes = text?.bytes ?? UnsafeBufferPointer(start: nil, count: 0)
            return equal ? pattern.isEqual(toUTF8: bytes) : pattern.isFound(inUTF8: bytes)
        }
        switch field {
        case .list:
            let path = listed.listPath
            if test(listed.listName) { return true }
            guard equal else { return pattern.isFound(in: path) }
            let withoutExtension = Document.withoutExtension(path)
            let stem = withoutExtension.split(separator: "/").last.map(String.init) ?? withoutExtension
            return test(path) || test(withoutExtension) || test(stem)
        case .path:
            let path = listed.listPath
            return test(path) || (equal && test(Document.withoutExtension(path)))
        case .section:
            return test(listed.sectionTitle)
        case .title:
            return test(listed.title)
        case .text:
            if test(listed.title) { return true }
            guard !equal, let notes = listed.notes else { return false }
            return pattern.isFound(inUTF8: notes.bytes)
        case .id:
            return test(listed.id)
        case .tag:
            guard listed.hasTags else { return false }
            var found = false
            listed.forEachTag { tag in
                // `tag = work` also matches the sub-tags `work/…`.
                if !found { found = test(tag) || (equal && pattern.isParentTag(ofUTF8: tag.bytes)) }
            }
            return found
        }
    }
}
