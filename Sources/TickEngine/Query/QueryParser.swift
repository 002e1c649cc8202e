import TickModel
import TickSyntax

/// Reads a query (SPEC §4) into a `QueryExpression`.
///
/// Grammar, loosest binding first (`not` binds tighter than `and`, which
/// binds tighter than `or`; two conditions side by side mean `and`):
///
///     query     := or-expr
///     or-expr   := and-expr ("or" and-expr)*
///     and-expr  := not-expr (["and"] not-expr)*
///     not-expr  := "not" not-expr | primary
///     primary   := "(" query ")" | condition
///
/// Keywords are case-insensitive. Relative dates are resolved against
/// `today` while parsing. Every error carries the column to point at. A word
/// that is no keyword, field or token searches titles, as a quoted string
/// does (`milk` is `"milk"`); one a slip away from a keyword (`opne`) still
/// does, with a note that names the keyword.
public struct QueryParser {
    public let query: String
    public let today: TaskDate
    private var tokens: [QueryToken] = []
    private var position = 0
    /// How many `(` and `not` enclose the token being read.
    private var depth = 0
    /// Notes about plain words that look like slips of a keyword.
    private var notes: [String] = []

    /// The deepest nesting of parentheses and `not` a query may have. Parsing,
    /// evaluating and explaining all recurse once per level; without a limit a
    /// query of a few thousand `(` would overflow the stack instead of getting
    /// a syntax error. No hand-written query comes near it.
    public static let maximumNesting = 200

    /// Parses `query`, resolving relative dates against `today`.
    public static func parse(_ query: String, today: TaskDate) throws(QuerySyntaxError) -> QueryExpression {
        var notes: [String] = []
        return try parse(query, today: today, notes: &notes)
    }

    /// `parse`, adding to `notes` a sentence for each plain word searched in
    /// titles that is a slip away from a keyword (`opne` → `open`).
    public static func parse(_ query: String, today: TaskDate, notes: inout [String]) throws(QuerySyntaxError) -> QueryExpression {
        var parser = QueryParser(query: query, today: today)
        let expression = try parser.parse()
        notes += parser.notes
        return expression
    }

    /// The words that mean a condition or join conditions.
    static let keywords = [
        "open", "todo", "done", "completed", "cancelled", "in-progress", "doing", "every", "recurring",
        "blocked", "blocking", "has", "no", "and", "or", "not",
    ]

    init(query: String, today: TaskDate) {
        self.query = query
        self.today = today
    }

    mutating func parse() throws(QuerySyntaxError) -> QueryExpression {
        tokens = try QueryLexer(query).tokens()
        position = 0
        if case .end = current.kind {
            throw fail("the query is empty; try open, due < today or #work", at: current)
        }
        let expression = try parseOr()
        switch current.kind {
        case .end: return expression
        case .closeParenthesis: throw fail("this ')' has no '(' before it", at: current)
        default: throw fail("expected 'and', 'or' or the end of the query here", at: current)
        }
    }

    // MARK: Tokens

    private var current: QueryToken { tokens[position] }
    private var next: QueryToken { tokens[min(position + 1, tokens.count - 1)] }

    private mutating func advance() -> QueryToken {
        let token = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    private func fail(_ message: String, at token: QueryToken) -> QuerySyntaxError {
        QuerySyntaxError(message: message, column: token.column, query: query)
    }

    private func isKeyword(_ token: QueryToken, _ words: String...) -> Bool {
        if case .word(let word) = token.kind { return words.contains(word.lowercased()) }
        return false
    }

    // MARK: Expressions

    private mutating func parseOr() throws(QuerySyntaxError) -> QueryExpression {
        var operands = [try parseAnd()]
        while isKeyword(current, "or") {
            _ = advance()
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func parseAnd() throws(QuerySyntaxError) -> QueryExpression {
        var operands = [try parseNot()]
        while true {
            if isKeyword(current, "and") {
                _ = advance()
            } else {
                switch current.kind {
                case .end, .closeParenthesis: break
                case .word where isKeyword(current, "or"): break
                default:
                    operands.append(try parseNot()) // juxtaposition means and
                    continue
                }
                break
            }
            operands.append(try parseNot())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    private mutating func parseNot() throws(QuerySyntaxError) -> QueryExpression {
        if isKeyword(current, "not") {
            let token = advance()
            try enterNesting(at: token)
            defer { depth -= 1 }
            return .not(try parseNot())
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws(QuerySyntaxError) -> QueryExpression {
        let token = current
        switch token.kind {
        case .openParenthesis:
            _ = advance()
            try enterNesting(at: token)
            defer { depth -= 1 }
            if case .closeParenthesis = current.kind { throw fail("expected a condition inside the parentheses", at: current) }
            let inner = try parseOr()
            guard case .closeParenthesis = current.kind else {
                if case .end = current.kind { throw fail("this '(' is never closed; add a ')'", at: token) }
                throw fail("expected ')' here", at: current)
            }
            _ = advance()
            return inner
        case .closeParenthesis:
            throw fail("expected a condition before this ')'", at: token)
        case .end:
            throw fail("the query ends too soon: expected a condition", at: token)
        case .comparison(let comparison):
            throw fail("expected a field before '\(comparison.rawValue)', as in due \(comparison.rawValue) today", at: token)
        case .tag(let tag):
            _ = advance()
            return .predicate(.text(.tag, .equal, try pattern(tag, at: token)))
        case .string(let text):
            _ = advance()
            return .predicate(.text(.title, .matches, try pattern(text, at: token)))
        case .word(let word):
            return try parseCondition(word, token)
        }
    }

    private mutating func enterNesting(at token: QueryToken) throws(QuerySyntaxError) {
        guard depth < Self.maximumNesting else {
            throw fail("the query nests '(' and 'not' more than \(Self.maximumNesting) deep; simplify it", at: token)
        }
        depth += 1
    }

    // MARK: Conditions

    private mutating func parseCondition(_ word: String, _ token: QueryToken) throws(QuerySyntaxError) -> QueryExpression {
        let keyword = word.lowercased()
        if case .comparison(let comparison) = next.kind {
            _ = advance()
            let operatorToken = advance()
            return try parseComparison(field: keyword, fieldToken: token, comparison, operatorToken)
        }
        switch keyword {
        case "and", "or":
            throw fail("expected a condition before '\(word)'", at: token)
        case "has", "no":
            _ = advance()
            let fieldToken = advance()
            guard case .word(let fieldWord) = fieldToken.kind,
                let field = QueryPresenceField(rawValue: Self.canonicalField(fieldWord.lowercased()))
            else {
                let fields = QueryPresenceField.allCases.map(\.rawValue).filter { $0 != "tag" }.joined(separator: ", ")
                throw fail("expected a field after '\(word)': \(fields)", at: fieldToken)
            }
            return .predicate(.has(field, keyword == "has"))
        case "open", "todo":
            _ = advance()
            return .predicate(.status(.open))
        case "done", "completed", "complete":
            _ = advance()
            return .predicate(.status(.done))
        case "cancelled", "canceled":
            _ = advance()
            return .predicate(.status(.cancelled))
        case "in-progress", "inprogress", "doing":
            _ = advance()
            return .predicate(.status(.inProgress))
        case "every", "recurring":
            _ = advance()
            return .predicate(.recurring)
        case "blocked", "blocking":
            _ = advance()
            return .predicate(.dependency(keyword == "blocked" ? .blocked : .blocking, .none))
        default:
            if word.hasPrefix("^"), word.count > 1 {
                _ = advance()
                return .predicate(.text(.id, .equal, try pattern(String(word.dropFirst()), at: token)))
            }
            if keyword.hasPrefix("!"), let priority = Priority(word: String(keyword.dropFirst())) {
                _ = advance()
                return .predicate(.priority(.equal, priority))
            }
            if Self.fieldNames.contains(Self.canonicalField(keyword)) {
                throw fail("'\(word)' needs an operator and a value, as in \(Self.example(for: Self.canonicalField(keyword)))", at: next)
            }
            // A plain word searches titles, as a quoted string does.
            _ = advance()
            if let keyword = NearestWord.nearest(to: keyword, among: Self.keywords + Self.fieldNames.sorted()) {
                notes.append("'\(word)' is searched for in titles; for the condition, write '\(keyword)'")
            }
            return .predicate(.text(.title, .matches, try pattern(word, at: token)))
        }
    }

    private static let fieldNames: Set<String> = Set(QueryDateField.allCases.map(\.rawValue))
        .union(QueryTextField.allCases.map(\.rawValue)).union(["priority", "status"])

    private static func canonicalField(_ word: String) -> String {
        switch word {
        case "tags": "tag"
        case "canceled": "cancelled"
        case "completion", "completed": "done"
        case "heading": "section"
        case "file": "path"
        case "recurrence", "repeat", "recurring": "every"
        default: word
        }
    }

    private static func example(for field: String) -> String {
        switch field {
        case "priority": "priority >= high"
        case "status": "status = done"
        case "list": "list = groceries"
        case "path": "path ~ projects/"
        case "section": "section ~ \"next up\""
        case "title", "text": "\(field) ~ \"milk\""
        case "id": "id = abc123"
        case "tag": "tag = work"
        default: "\(field) < today"
        }
    }

    private mutating func parseComparison(
        field word: String, fieldToken: QueryToken, _ comparison: QueryComparison,
        _ operatorToken: QueryToken
    ) throws(QuerySyntaxError) -> QueryExpression {
        let field = Self.canonicalField(word)
        if let dateField = QueryDateField(rawValue: field) {
            guard comparison.isOrdering else {
                throw fail("dates compare with < <= = != >= >, as in \(field) <= +7d", at: operatorToken)
            }
            return .predicate(.date(dateField, comparison, try parseDate(after: "\(word) \(comparison.rawValue)")))
        }
        if field == "priority" {
            guard comparison.isOrdering else {
                throw fail("priorities compare with < <= = != >= >, as in priority >= high", at: operatorToken)
            }
            let valueToken = advance()
            guard let text = Self.text(of: valueToken) else {
                throw fail("expected a priority after '\(word) \(comparison.rawValue)': lowest, low, normal, medium, high or urgent", at: valueToken)
            }
            guard let priority = Priority(word: text.hasPrefix("!") ? String(text.dropFirst()) : text) else {
                throw fail("'\(text)' is not a priority; use lowest, low, normal, medium, high or urgent", at: valueToken)
            }
            return .predicate(.priority(comparison, priority))
        }
        if field == "status" {
            guard comparison == .equal || comparison == .notEqual else {
                throw fail("status compares with = or !=, as in status = done", at: operatorToken)
            }
            let valueToken = advance()
            guard let text = Self.text(of: valueToken), let status = Self.status(text) else {
                throw fail("expected a status after 'status \(comparison.rawValue)': open, done, cancelled or in-progress", at: valueToken)
            }
            return comparison == .equal ? .predicate(.status(status)) : .not(.predicate(.status(status)))
        }
        if let textField = QueryTextField(rawValue: field) {
            guard !comparison.isOrdering || comparison == .equal || comparison == .notEqual else {
                throw fail("\(field) compares with = != ~ !~, as in \(Self.example(for: field))", at: operatorToken)
            }
            let valueToken = advance()
            guard var text = Self.text(of: valueToken) else {
                throw fail("expected a value after '\(word) \(comparison.rawValue)', as in \(Self.example(for: field))", at: valueToken)
            }
            if textField == .tag, text.hasPrefix("#") { text.removeFirst() }
            if textField == .id, text.hasPrefix("^") { text.removeFirst() }
            return .predicate(.text(textField, comparison, try pattern(text, at: valueToken)))
        }
        let known = (QueryDateField.allCases.map(\.rawValue) + ["priority", "status"] + QueryTextField.allCases.map(\.rawValue))
        throw fail("unknown field '\(word)'; fields are \(known.joined(separator: ", "))", at: fieldToken)
    }

    private static func status(_ text: String) -> QueryStatus? {
        switch text.lowercased() {
        case "open", "todo": .open
        case "done", "completed", "complete": .done
        case "cancelled", "canceled": .cancelled
        case "in-progress", "inprogress", "doing": .inProgress
        default: nil
        }
    }

    /// The text of a value token: a word, a string or a tag (with its `#`).
    private static func text(of token: QueryToken) -> String? {
        switch token.kind {
        case .word(let word): word
        case .string(let text): text
        case .tag(let tag): "#" + tag
        default: nil
        }
    }

    private func pattern(_ text: String, at token: QueryToken) throws(QuerySyntaxError) -> TextPattern {
        do {
            return try TextPattern(text)
        } catch {
            throw fail(error.message, at: token)
        }
    }

    /// A date value: a string, or one to three words (`in 3 days`, `next
    /// week`, `end of month`), the longest that is a date.
    private mutating func parseDate(after lead: String) throws(QuerySyntaxError) -> QueryDate {
        let first = current
        switch first.kind {
        case .string(let text):
            _ = advance()
            guard let date = DateExpression.resolve(text, today: today) else { throw badDate(text, first) }
            return QueryDate(written: text, date: date.dayOnly)
        case .word:
            var words: [String] = []
            for offset in 0..<3 {
                guard position + offset < tokens.count, case .word(let word) = tokens[position + offset].kind else { break }
                words.append(word)
            }
            for count in stride(from: words.count, through: 1, by: -1) {
                let text = words.prefix(count).joined(separator: " ")
                if let date = DateExpression.resolve(text, today: today) {
                    for _ in 0..<count { _ = advance() }
                    return QueryDate(written: text, date: date.dayOnly)
                }
            }
            throw badDate(words[0], first)
        default:
            throw fail("expected a date after '\(lead)': YYYY-MM-DD, today, tomorrow, a weekday, +3d or -1w", at: first)
        }
    }

    private func badDate(_ text: String, _ token: QueryToken) -> QuerySyntaxError {
        fail(DateExpression.problem(with: text, today: today), at: token)
    }
}
