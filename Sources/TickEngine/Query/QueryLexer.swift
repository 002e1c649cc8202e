/// One token of a query, with the 1-based character column it starts at.
public struct QueryToken: Sendable, Hashable {
    /// What a token is, with its value.
    public enum Kind: Sendable, Hashable {
        /// A bare word: a keyword, a field name or a value (`due`, `+7d`, `projects/`).
        case word(String)
        /// A quoted string, quotes removed and `\"` unescaped.
        case string(String)
        /// `#tag`, without the `#`.
        case tag(String)
        /// `<` `<=` `=` `!=` `>=` `>` `~` `!~`
        case comparison(QueryComparison)
        case openParenthesis
        case closeParenthesis
        case end
    }

    public var kind: Kind
    /// 1-based column, counted in characters, of the token's first character.
    public var column: Int
    /// The token as written (quotes included), for messages.
    public var written: String
}

/// The comparison operators of the query language.
public enum QueryComparison: String, Sendable, Hashable, CaseIterable {
    case less = "<"
    case lessOrEqual = "<="
    case equal = "="
    case notEqual = "!="
    case greaterOrEqual = ">="
    case greater = ">"
    case matches = "~"
    case doesNotMatch = "!~"

    /// True for the operators that order values (`<` `<=` `>=` `>` and the equalities).
    public var isOrdering: Bool { self != .matches && self != .doesNotMatch }
}

/// A query that could not be read: what is wrong and the column to point at.
public struct QuerySyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// 1-based character column in the query; one past the end for "ended too soon".
    public var column: Int
    public var query: String

    public init(message: String, column: Int, query: String) {
        self.message = message
        self.column = column
        self.query = query
    }

    public var description: String { "\(message) (column \(column))" }
}

/// Splits a query into tokens. Words end at white space, parentheses, quotes
/// and operator characters; `#` starts a tag; `"…"` and `'…'` are strings.
public struct QueryLexer {
    public let query: String

    public init(_ query: String) { self.query = query }

    public func tokens() throws(QuerySyntaxError) -> [QueryToken] {
        let characters = Array(query)
        var tokens: [QueryToken] = []
        var index = 0
        func isSpace(_ character: Character) -> Bool { character.isWhitespace }
        func isOperatorStart(_ at: Int) -> Bool {
            let character = characters[at]
            if "<>=~".contains(character) { return true }
            if character == "!", at + 1 < characters.count, characters[at + 1] == "=" || characters[at + 1] == "~" { return true }
            return false
        }
        func endsWord(_ at: Int) -> Bool {
            let character = characters[at]
            return isSpace(character) || character == "(" || character == ")" || character == "\"" || isOperatorStart(at)
        }
        while index < characters.count {
            let character = characters[index]
            let column = index + 1
            if isSpace(character) {
                index += 1
                continue
            }
            switch character {
            case "(":
                tokens.append(QueryToken(kind: .openParenthesis, column: column, written: "("))
                index += 1
            case ")":
                tokens.append(QueryToken(kind: .closeParenthesis, column: column, written: ")"))
                index += 1
            case "\"", "'":
                var text = ""
                var probe = index + 1
                var closed = false
                while probe < characters.count {
                    let next = characters[probe]
                    if next == "\\", probe + 1 < characters.count, characters[probe + 1] == character || characters[probe + 1] == "\\" {
                        text.append(characters[probe + 1])
                        probe += 2
                        continue
                    }
                    if next == character {
                        closed = true
                        break
                    }
                    text.append(next)
                    probe += 1
                }
                guard closed else {
                    throw QuerySyntaxError(message: "this quote is never closed; add a closing \(character)", column: column, query: query)
                }
                tokens.append(QueryToken(kind: .string(text), column: column, written: String(characters[index...probe])))
                index = probe + 1
            default:
                if isOperatorStart(index) {
                    var written = String(character)
                    if index + 1 < characters.count, characters[index + 1] == "=" || (character == "!" && characters[index + 1] == "~") {
                        written.append(characters[index + 1])
                    }
                    guard let comparison = QueryComparison(rawValue: written) else {
                        throw QuerySyntaxError(message: "'\(written)' is not an operator; use < <= = != >= > ~ or !~", column: column, query: query)
                    }
                    tokens.append(QueryToken(kind: .comparison(comparison), column: column, written: written))
                    index += written.count
                    continue
                }
                var probe = index + 1
                while probe < characters.count, !endsWord(probe) { probe += 1 }
                let word = String(characters[index..<probe])
                if character == "#" {
                    let tag = String(word.dropFirst())
                    guard !tag.isEmpty else {
                        throw QuerySyntaxError(message: "'#' needs a tag name after it, as in #work", column: column, query: query)
                    }
                    tokens.append(QueryToken(kind: .tag(tag), column: column, written: word))
                } else {
                    tokens.append(QueryToken(kind: .word(word), column: column, written: word))
                }
                index = probe
            }
        }
        tokens.append(QueryToken(kind: .end, column: characters.count + 1, written: ""))
        return tokens
    }
}
