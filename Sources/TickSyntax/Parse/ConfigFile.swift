import Foundation
import TickModel
import Yams

/// tick's settings, read from YAML (SPEC §9): the user's
/// `$XDG_CONFIG_HOME/tick/config.yml` and a notes folder's `.tick.yml`.
///
/// Guarantees: a file is read whole or refused with one `Problem` that
/// names its path, line and column (a YAML error, an unknown setting with
/// the nearest known one, a value of the wrong kind, an unknown sort key,
/// group key or dialect); never a crash, and aliases are bounded as in
/// front matter (`AliasBudget`).
public struct ConfigFile: Sendable, Equatable {
    /// The default notes folder (`~` is the home folder). Only the user's file sets it.
    public var folder: String?
    /// The default `--sort` of `tick query`, as written (`priority,due`).
    public var sort: [SortKey]?
    /// The dialect of the first items of a list that has none yet.
    public var dialect: MetadataDialect?
    /// Words that stand for a command and its first words (`w: query '#work'`).
    public var aliases: [(name: String, words: [String])] = []
    /// Saved queries, in the order written.
    public var views: [(name: String, view: View)] = []

    /// A named query with its order and groups (`tick view NAME`).
    public struct View: Sendable, Equatable {
        public var query: String
        public var sort: [SortKey]?
        public var groupBy: GroupKey?
    }

    public init() {}

    public static func == (lhs: ConfigFile, rhs: ConfigFile) -> Bool {
        lhs.folder == rhs.folder && lhs.sort == rhs.sort && lhs.dialect == rhs.dialect
            && lhs.aliases.elementsEqual(rhs.aliases, by: { $0.name == $1.name && $0.words == $1.words })
            && lhs.views.elementsEqual(rhs.views, by: { $0.name == $1.name && $0.view == $1.view })
    }

    /// What is wrong with a file, and where.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var line: Int
        public var column: Int
        public var message: String
        public var description: String { "\(path):\(line):\(column): \(message)" }
    }

    /// The settings of `other` (a folder's) over these (the user's): each
    /// setting `other` gives wins; aliases and views are merged by name.
    public func overridden(by other: ConfigFile) -> ConfigFile {
        var merged = self
        merged.sort = other.sort ?? sort
        merged.dialect = other.dialect ?? dialect
        for alias in other.aliases {
            merged.aliases.removeAll { $0.name == alias.name }
            merged.aliases.append(alias)
        }
        for view in other.views {
            if let index = merged.views.firstIndex(where: { $0.name == view.name }) { merged.views[index] = view } else { merged.views.append(view) }
        }
        return merged
    }

    /// The view named `name` (any case).
    public func view(_ name: String) -> View? {
        views.first { $0.name.lowercased() == name.lowercased() }?.view
    }

    /// The words `name` stands for, if it is an alias.
    public func alias(_ name: String) -> [String]? {
        aliases.first { $0.name == name }?.words
    }

    // MARK: Reading

    static let settings = ["folder", "sort", "dialect", "aliases", "views"]
    static let viewSettings = ["query", "sort", "group-by"]

    /// Reads the file at `path`; nil when there is none.
    public static func load(_ path: String) throws(Problem) -> ConfigFile? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(path: path, line: 1, column: 1, message: "cannot read it; check its permissions")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Problem(path: path, line: 1, column: 1, message: "it is not UTF-8 text; save it as UTF-8")
        }
        return try parse(text, path: path)
    }

    /// Reads settings from YAML `text` (from the file at `path`, for messages).
    public static func parse(_ text: String, path: String) throws(Problem) -> ConfigFile {
        func problem(_ message: String, at node: Node?) -> Problem {
            Problem(path: path, line: node?.mark?.line ?? 1, column: node?.mark?.column ?? 1, message: message)
        }
        if let line = AliasBudget.lineExceedingBudget(text) {
            throw Problem(path: path, line: line, column: 1, message: "its YAML aliases expand to more than \(AliasBudget.limit) values")
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text, FrontMatterParser.resolver, FrontMatterParser.constructor, .utf8)
        } catch let error as YamlError {
            switch error {
            case .scanner(_, let message, let mark, _), .parser(_, let message, let mark, _), .composer(_, let message, let mark, _):
                throw Problem(path: path, line: mark.line, column: mark.column, message: "not valid YAML: \(message)")
            default:
                throw Problem(path: path, line: 1, column: 1, message: "not valid YAML")
            }
        } catch {
            throw Problem(path: path, line: 1, column: 1, message: "not valid YAML")
        }
        var config = ConfigFile()
        guard let root else { return config } // an empty file
        guard case .mapping(let settings) = root else {
            throw problem("expected settings (folder, sort, dialect, aliases, views) as a mapping", at: root)
        }

        func string(_ node: Node, _ what: String) throws(Problem) -> String {
            guard case .scalar(let scalar) = node, !scalar.string.isEmpty else { throw problem("\(what) must be text", at: node) }
            return scalar.string
        }
        func sortKeys(_ node: Node) throws(Problem) -> [SortKey] {
            switch SortKey.list(try string(node, "sort")) {
            case .success(let keys): return keys
            case .failure(let failure): throw problem(failure.message, at: node)
            }
        }
        func unknown(_ word: String, among known: [String], at node: Node, in what: String) -> Problem {
            problem(
                "unknown \(what) '\(word)'\(NearestWord.hint(word, among: known, shown: { "'\($0)'" })); \(what)s are \(known.joined(separator: ", "))",
                at: node)
        }

        for (key, value) in settings {
            let name = key.string ?? ""
            switch name {
            case "folder":
                config.folder = try string(value, "folder")
            case "sort":
                config.sort = try sortKeys(value)
            case "dialect":
                let word = try string(value, "dialect").lowercased()
                guard let dialect = MetadataDialect(rawValue: word) else {
                    throw unknown(word, among: ["tick", "emoji", "dataview"], at: value, in: "dialect")
                }
                config.dialect = dialect
            case "aliases":
                guard case .mapping(let aliases) = value else { throw problem("aliases must map a word to a command, e.g. t: today", at: value) }
                for (aliasKey, aliasValue) in aliases {
                    let alias = try string(aliasKey, "an alias's name")
                    guard !alias.contains(where: \.isWhitespace), !alias.hasPrefix("-") else {
                        throw problem("an alias is one word, not starting with '-': '\(alias)'", at: aliasKey)
                    }
                    let words = ShellWords.split(try string(aliasValue, "an alias"))
                    guard let words, !words.isEmpty else { throw problem("the alias '\(alias)' has an unclosed quote", at: aliasValue) }
                    config.aliases.append((alias, words))
                }
            case "views":
                guard case .mapping(let views) = value else {
                    throw problem("views must map a name to a query, e.g. work: {query: \"open #work\"}", at: value)
                }
                for (viewKey, viewValue) in views {
                    let viewName = try string(viewKey, "a view's name")
                    var view = View(query: "", sort: nil, groupBy: nil)
                    if case .scalar = viewValue {
                        view.query = try string(viewValue, "a view's query")
                    } else if case .mapping(let fields) = viewValue {
                        var sawQuery = false
                        for (fieldKey, fieldValue) in fields {
                            let field = fieldKey.string ?? ""
                            switch field {
                            case "query":
                                view.query = try string(fieldValue, "query")
                                sawQuery = true
                            case "sort": view.sort = try sortKeys(fieldValue)
                            case "group-by", "group_by", "groupBy":
                                let word = try string(fieldValue, "group-by").lowercased()
                                guard let key = GroupKey(rawValue: word) else {
                                    throw unknown(word, among: GroupKey.allCases.map(\.rawValue), at: fieldValue, in: "group key")
                                }
                                view.groupBy = key
                            default:
                                throw unknown(field, among: viewSettings, at: fieldKey, in: "view setting")
                            }
                        }
                        guard sawQuery else { throw problem("the view '\(viewName)' needs a query, e.g. query: \"open #work\"", at: viewValue) }
                    } else {
                        throw problem("the view '\(viewName)' must be a query or a mapping with query, sort and group-by", at: viewValue)
                    }
                    config.views.append((viewName, view))
                }
            default:
                throw unknown(name, among: Self.settings, at: key, in: "setting")
            }
        }
        return config
    }
}

/// Splits text into words as a shell would for simple input: white space
/// separates words; single and double quotes group them (a backslash
/// escapes the next character outside single quotes). Nil when a quote is
/// not closed. Used for aliases, where a person writes a command line.
public enum ShellWords {
    public static func split(_ text: String) -> [String]? {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character? = nil
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            if let open = quote {
                if character == open { quote = nil } else if character == "\\" && open == "\"" { escaped = true } else { current.append(character) }
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                inWord = true
            case "\\":
                escaped = true
                inWord = true
            case _ where character.isWhitespace:
                if inWord {
                    words.append(current)
                    current = ""
                    inWord = false
                }
            default:
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil, !escaped else { return nil }
        if inWord { words.append(current) }
        return words
    }
}
