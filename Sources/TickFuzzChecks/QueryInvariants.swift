import TickEngine
import TickModel
import TickRecords
import TickSyntax

/// The invariants of the query language, whatever the text: it parses or it
/// fails with a clean syntax error that points inside the query (or one past
/// its end), and a parsed query can be explained and evaluated on real
/// items. Checked by the query fuzzer and by the tests.
public enum QueryInvariants {
    static let today = TaskDate(year: 2026, month: 11, day: 21)

    /// A few lists with items of every status, dialect and shape, for
    /// evaluating parsed queries.
    static let workspace: EncodedWorkspace = {
        let files: [(String, String)] = [
            (
                "groceries.md",
                """
                ---
                title: Groceries
                color: green
                order: 2
                ---
                # Groceries
                ## Dairy
                - [ ] Buy **milk** !high due:2026-11-24 #errand
                  Semi-skimmed.
                  - [ ] Check the fridge first scheduled:2026-11-21
                - [x] Eggs done:2026-11-20 #errand/shop
                - [-] Cheese cancelled:2026-11-19
                - [/] Butter every:week due:2026-11-01 ^butter
                """
            ),
            (
                "work/projects.md",
                """
                # Projects icon:briefcase
                1. [ ] Ship it ⏫ 📅 2026-11-22 🔁 every week
                2. [x] Review ✅ 2026-11-20 [due:: 2026-11-18] [priority:: low]
                > - [ ] Quoted [start:: 2026-11-01] [id:: q1] key:value
                """
            ),
            ("empty.md", ""),
        ]
        return EncodedWorkspace(documents: files.map { EncodedDocument(encoding: DocumentParser.parse(Array($0.1.utf8), path: $0.0))! })
    }()

    public static func violations(of query: String) -> [String] {
        let expression: QueryExpression
        do {
            expression = try QueryParser.parse(query, today: today)
        } catch {
            var problems: [String] = []
            if error.message.isEmpty { problems.append("syntax error without a message") }
            if error.column < 1 || error.column > query.count + 1 {
                problems.append("syntax error at column \(error.column), outside 1...\(query.count + 1): \(error.message)")
            }
            if error.query != query { problems.append("syntax error names another query") }
            return problems
        }
        var problems: [String] = []
        if QueryExplanation.tree(expression).isEmpty { problems.append("empty explanation") }
        if (try? QueryParser.parse(query, today: today)) != expression { problems.append("parsing twice gives two results") }
        let items = workspace.items
        let matched = QueryEvaluator.filter(items, expression)
        let negated = QueryEvaluator.filter(items, .not(expression))
        if matched.count + negated.count != items.count {
            problems.append("\(matched.count) items match and \(negated.count) match its negation, of \(items.count)")
        }
        for key in SortKey.allCases {
            let sorted = SortKey.sort(matched, by: [key], today: TaskDate(year: 2026, month: 11, day: 21))
            if sorted.count != matched.count { problems.append("sorting by \(key) changed the number of items") }
        }
        for group in SmartGroup.allCases { _ = group.members(of: matched, today: today) }
        return problems
    }
}
