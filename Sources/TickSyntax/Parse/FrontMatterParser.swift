import CYaml
import TickModel
import Yams

/// Finds YAML front matter at the top of a file and reads it with Yams.
enum FrontMatterParser {
    /// Front matter starts with a `---` first line (after a byte-order mark)
    /// and ends at the next `---` or `...` line. Without a closing line there
    /// is no front matter: the `---` is Markdown.
    static func find(in source: SourceText) -> (frontMatter: FrontMatter, closingLine: Int)? {
        let bomLength = source.hasByteOrderMark ? 3 : 0
        guard isDelimiter(source, line: 1, skipping: bomLength, allowDots: false) else { return nil }
        var line = 2
        while line <= source.lineCount {
            if isDelimiter(source, line: line, skipping: 0, allowDots: true) {
                let yamlStart = source.rangeWithEnding(ofLine: 1).upperBound
                let yamlEnd = source.lineStarts[line - 1]
                let range = 0..<source.rangeWithEnding(ofLine: line).upperBound
                return (FrontMatter(range: range, yamlRange: yamlStart..<yamlEnd, values: nil), line)
            }
            line += 1
        }
        return nil
    }

    private static func isDelimiter(_ source: SourceText, line: Int, skipping: Int, allowDots: Bool) -> Bool {
        let range = source.range(ofLine: line)
        var end = range.upperBound
        while end > range.lowerBound, source.bytes[end - 1] == 0x20 || source.bytes[end - 1] == 0x09 { end -= 1 }
        let start = range.lowerBound + skipping
        guard end - start == 3 else { return false }
        let text = source.bytes[start..<end]
        return text.elementsEqual("---".utf8) || (allowDots && text.elementsEqual("...".utf8))
    }

    /// Parses the YAML; returns the keys in order, or an error message.
    /// `shortcuts: false` composes with `resolver` alone (see `composeNode`)
    /// and resolves every plain scalar's tag with it (see `tagName`); the
    /// tests use it to show that the faster way gives the same result.
    static func parse(_ yaml: String, shortcuts: Bool = true) -> Result<[(key: String, value: JSONValue)], YAMLProblem> {
        // Aliases are expanded by Yams (and keys hashed whole): a few hundred
        // bytes of nested aliases would expand to billions of values.
        if let line = AliasBudget.lineExceedingBudget(yaml) {
            return .failure(YAMLProblem(message: "its YAML aliases expand to more than \(AliasBudget.limit) values", line: line))
        }
        do {
            // An explicit encoding spares Yams a look at the environment on every
            // call, and the resolver leaves out the rules whose types tick keeps
            // as written anyway (timestamps, merge keys): fewer regexes per scalar.
            guard let node = try composeNode(yaml, basicKeys: shortcuts) else { return .success([]) }
            guard case .mapping(let mapping) = node else {
                return .failure(YAMLProblem(message: "front matter is not a mapping of keys to values", line: node.mark?.line))
            }
            var values: [(key: String, value: JSONValue)] = []
            for (key, value) in mapping {
                values.append((key.string ?? "", json(value, shortcuts: shortcuts)))
            }
            return .success(values)
        } catch let error as YamlError {
            return .failure(YAMLProblem(message: describe(error), line: line(of: error)))
        } catch {
            return .failure(YAMLProblem(message: "\(error)", line: nil))
        }
    }

    static let resolver = Resolver.default.removing(.timestamp).removing(.merge).removing(.value)

    /// The YAML's root node.
    ///
    /// Yams resolves the tag of every mapping key with the resolver's regular
    /// expressions, only to compare the keys for duplicates: two thirds of
    /// its time on typical front matter. tick needs the tags of values only,
    /// and `json` resolves those itself with `resolver`. So the YAML is first
    /// composed with `Resolver.basic` (no rules: every plain scalar is a
    /// string), which finds the same nodes and the same errors, except for
    /// duplicate keys: there it may see more of them (a plain `1` and a
    /// quoted `"1"` are equal strings to it), never fewer as long as no key
    /// has an explicit tag. So it is used only for YAML without `!` (no
    /// explicit tags), and any error it reports is checked by composing
    /// again with `resolver`.
    private static func composeNode(_ yaml: String, basicKeys: Bool) throws -> Node? {
        if basicKeys, !yaml.utf8.contains(UInt8(ascii: "!")) {
            do { return try Yams.compose(yaml: yaml, Resolver.basic, Self.constructor, .utf8) } catch {}
        }
        return try Yams.compose(yaml: yaml, Self.resolver, Self.constructor, .utf8)
    }

    /// `Constructor.default` builds a new constructor (three dictionaries of
    /// closures) on every call; one is enough. It is never changed after
    /// init (its maps are `let`s), so sharing it across threads is safe.
    nonisolated(unsafe) static let constructor = Constructor.default

    struct YAMLProblem: Error {
        var message: String
        /// 1-based line inside the YAML text, when known.
        var line: Int?
    }

    private static func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _):
            return problem
        default:
            return String(describing: error).split(separator: "\n").first.map(String.init) ?? "invalid YAML"
        }
    }

    private static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            return mark.line
        default:
            return nil
        }
    }

    /// The node's tag as `resolver` gives it (the node may come from
    /// `Resolver.basic`), without running its regular expressions on plain
    /// scalars that none of them can match: each of its rules (bool, int,
    /// float, null) matches only a string that is empty or starts with one of
    /// `yYnNtTfFoO0123456789+-.~` (or with a line terminator, as `$` may
    /// match before one). Titles, colors, icons and tags rarely do.
    ///
    /// A scalar that starts with a letter can match only the bool and null
    /// rules, and those only as one of their words (`yes`, `Off`, `NULL`...),
    /// maybe followed by one line terminator. So a word like "Note" or
    /// "finance" is a string without a regular expression either (a third
    /// of the front matter's time over a notes folder went to them).
    static func tagName(of node: Node) -> Tag.Name {
        if case .scalar(let scalar) = node, Tag.Name(rawValue: scalar.tag.rawValue) == .implicit, let first = scalar.string.utf8.first,
            first > 0x20, first < 0x7F
        {
            if !Self.ruleStarts[Int(first)] { return .str }
            if InlineScanner.isASCIILetter(first), !Self.ruleWords.contains(withoutFinalLineTerminator(scalar.string)) { return .str }
        }
        return resolver.resolveTag(of: node)
    }

    private static let ruleStarts: [Bool] = (0..<128).map { "yYnNtTfFoO0123456789+-.~".utf8.contains(UInt8($0)) }

    /// The words of `Resolver.Rule.bool` and `Resolver.Rule.null`.
    private static let ruleWords: Set<String> = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL",
    ]

    /// The text without one line terminator at its end: the rules end in
    /// `$`, which also matches just before a final one.
    private static func withoutFinalLineTerminator(_ text: String) -> String {
        guard let last = text.unicodeScalars.last else { return text }
        switch last {
        case "\n":
            var scalars = text.unicodeScalars.dropLast()
            if scalars.last == "\r" { scalars = scalars.dropLast() }
            return String(String.UnicodeScalarView(scalars))
        case "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}":
            return String(String.UnicodeScalarView(text.unicodeScalars.dropLast()))
        default:
            return text
        }
    }

    /// A YAML node as JSON: plain scalars get their YAML type, quoted ones
    /// stay strings, dates stay as written.
    static func json(_ node: Node, shortcuts: Bool = true) -> JSONValue {
        switch node {
        case .scalar(let scalar):
            if scalar.style == .plain || scalar.style == .any {
                switch shortcuts ? tagName(of: node) : resolver.resolveTag(of: node) {
                case .null: return .null
                case .bool: if let flag = node.bool { return .bool(flag) }
                case .int: if let number = node.int { return .int(number) }
                case .float: if let number = node.float { return .double(number) }
                default: break
                }
            }
            return .string(scalar.string)
        case .mapping(let mapping):
            return .object(mapping.map { ($0.key.string ?? "", json($0.value, shortcuts: shortcuts)) })
        case .sequence(let sequence):
            return .array(sequence.map { json($0, shortcuts: shortcuts) })
        case .alias:
            return .null
        }
    }
}

/// Bounds what YAML aliases can add to front matter: the YAML's events are
/// read once with libyaml (in linear time, aliases unexpanded), and the
/// values each alias stands for are counted; front matter whose aliases add
/// more than `limit` values is refused before Yams composes (and expands) it.
enum AliasBudget {
    static let limit = 10_000

    /// The line (1-based, in the YAML) of the alias that takes the count past
    /// `limit`, or nil when the aliases stay within it. YAML that libyaml
    /// cannot read is left to Yams to report.
    static func lineExceedingBudget(_ yaml: String) -> Int? {
        // Without a `*` there is no alias.
        guard yaml.utf8.contains(UInt8(ascii: "*")) else { return nil }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(yaml.utf8)
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            /// The expanded size of each anchored node, at most `limit + 1`.
            var anchored: [String: Int] = [:]
            /// The collections open around the current event: size so far, anchor.
            var open: [(size: Int, anchor: String?)] = []
            var added = 0
            func capped(_ value: Int) -> Int { min(value, limit + 1) }
            func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? { pointer.map { String(cString: $0) } }
            func finish(_ size: Int, anchor: String?) {
                if let anchor { anchored[anchor] = size }
                if !open.isEmpty { open[open.count - 1].size = capped(open[open.count - 1].size + size) }
            }
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_SCALAR_EVENT:
                    finish(1, anchor: name(event.data.scalar.anchor))
                case YAML_SEQUENCE_START_EVENT:
                    open.append((1, name(event.data.sequence_start.anchor)))
                case YAML_MAPPING_START_EVENT:
                    open.append((1, name(event.data.mapping_start.anchor)))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    if let closed = open.popLast() { finish(closed.size, anchor: closed.anchor) }
                case YAML_ALIAS_EVENT:
                    let size = name(event.data.alias.anchor).flatMap { anchored[$0] } ?? 1
                    added = capped(added + size)
                    if added > limit { return Int(event.start_mark.line) + 1 }
                    finish(size, anchor: nil)
                case YAML_STREAM_END_EVENT:
                    return nil
                default:
                    break
                }
            }
        }
    }
}
