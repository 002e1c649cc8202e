import Foundation
import TickEdit
import TickEngine
import TickModel
import TickRecords
import TickSyntax
import TickSystem

/// What the language server offers, computed with tick's own library: the
/// parser's diagnostics, `StatusEdit` and `TokenEdit` splices (through the
/// same `StatusChange.edit` the commands use), `DateExpression` dates, the
/// query language. Nothing here re-implements an edit rule.
enum LSPFeatures {
    /// The kind of every code action tick offers.
    static let codeActionKind = "refactor.rewrite"
    /// The command `workspace/executeCommand` runs: a query, answered with locations.
    static let queryCommand = "tick.query"

    /// The byte range a diagnostic covers. The parser reports where a problem
    /// starts; most messages quote the text at fault (`'!hgih'`, `'2026-02-30'`,
    /// `'📅 x'`), and when the file's bytes there are that text, the range is
    /// exactly it. Otherwise it is the word at the column (the line, for a
    /// problem at column 1: a conflict marker, malformed front matter).
    static func range(of diagnostic: Diagnostic, in source: SourceText) -> Range<Int> {
        guard diagnostic.line >= 1, diagnostic.line <= source.lineCount else {
            return source.bytes.count..<source.bytes.count
        }
        let content = source.range(ofLine: diagnostic.line)
        let start = min(content.lowerBound + max(diagnostic.column - 1, 0), content.upperBound)
        let rest = source.bytes[start..<content.upperBound]
        // The longest quoted stretch of the message that the bytes at the column spell.
        let message = Array(diagnostic.message.utf8)
        if let open = message.firstIndex(of: UInt8(ascii: "'")) {
            var best = 0
            for close in message.indices where close > open + 1 && message[close] == UInt8(ascii: "'") {
                let quoted = message[(open + 1)..<close]
                if quoted.count > best, rest.starts(with: quoted) { best = quoted.count }
            }
            if best > 0 { return start..<(start + best) }
        }
        if diagnostic.column == 1 { return content }
        func isSpace(_ index: Int) -> Bool { source.bytes[index] == 0x20 || source.bytes[index] == 0x09 }
        var end = start
        while end < content.upperBound, !isSpace(end) { end += 1 }
        return start..<max(end, min(start + 1, content.upperBound))
    }
}

// MARK: - Code actions

extension LanguageServer {
    /// One code action: its title and the splices it makes.
    private struct Action {
        var title: String
        var splices: [Splice]
    }

    func codeActions(_ params: JSONValue) throws -> JSONValue {
        let open = try openDocument(params)
        guard let start = LSPPosition(params["range"]?["start"]), let end = LSPPosition(params["range"]?["end"]) else {
            throw LSPError(.invalidParams, "params.range is missing or not a range of positions")
        }
        if let only = params["context"]?["only"]?.arrayValue?.compactMap(\.textValue),
            !only.contains(where: { LSPFeatures.codeActionKind == $0 || LSPFeatures.codeActionKind.hasPrefix($0 + ".") })
        {
            return .array([])
        }
        let document = open.document
        // A file tick would not change gets no actions (SPEC §5.6, §5.7).
        guard document.isValidUTF8, document.conflictLines.isEmpty else { return .array([]) }
        // The item on the cursor's line; for a selection, the first item whose line it covers.
        let lines = max(start.line, 0)...max(start.line, end.line, 0)
        guard let item = document.items.first(where: { lines.contains($0.line - 1) }) else { return .array([]) }
        return .array(itemActions(item, in: document).map { json($0, for: open) })
    }

    /// The actions that change `item`, each as the matching command would
    /// change it; an action that would change nothing is not offered.
    private func itemActions(_ item: TaskItem, in document: Document) -> [Action] {
        var actions: [Action] = []
        func status(_ title: String, _ intent: StatusEdit.Intent) {
            // `done` on a recurring item whose rule tick cannot read throws, as `tick done` refuses it.
            guard let edit = try? StatusChange.edit(intent, item: item, in: document, today: today), !edit.splices.isEmpty else { return }
            var title = title
            if edit.addsNextOccurrence { title += " (adds the next occurrence above)" }
            if edit.removedOccurrence != nil { title += " (removes the next occurrence done added)" }
            if edit.deletesItem { title += " (removes the item: its on-completion action is delete)" }
            actions.append(Action(title: title, splices: edit.splices))
        }
        func tokens(_ title: String, _ changes: [TokenEdit.Change]) {
            let splices = TokenEdit.splices(changes, item: item, in: document)
            guard !splices.isEmpty, (try? Splice.apply(splices, to: document.source.bytes)) != document.source.bytes else { return }
            actions.append(Action(title: title, splices: splices))
        }
        status("Mark done", .done(date: today))
        status("Start (in progress)", .start)
        status("Reopen", .reopen)
        status("Cancel", .cancel(date: today))
        let priority = item.metadata.priority
        if let higher = Priority(rawValue: priority.rawValue + 1) {
            tokens("Priority up: \(higher.name)", [.setPriority(higher)])
        }
        if let lower = Priority(rawValue: priority.rawValue - 1) {
            tokens("Priority down: \(lower.name)", [.setPriority(lower)])
        }
        for (words, label) in [("tomorrow", "tomorrow"), ("next week", "next week")] {
            guard let date = DateExpression.resolve(words, today: today) else { continue }
            tokens("Postpone to \(label) (\(date.isoString), \(date.weekdayAbbreviation))", [.setDate(.due, date)])
        }
        if item.metadata.due != nil { tokens("Clear the due date", [.remove(.due)]) }
        return actions
    }

    /// A `CodeAction` whose edit is the splices as one `TextDocumentEdit`
    /// for the version the editor sent.
    private func json(_ action: Action, for open: OpenDocument) -> JSONValue {
        let converter = PositionConverter(source: open.document.source, encoding: encoding)
        let sorted = (try? Splice.validated(action.splices, count: open.document.source.bytes.count)) ?? action.splices
        let edits: [JSONValue] = sorted.map { splice in
            .object([("range", converter.range(splice.range)), ("newText", .string(String(decoding: splice.replacement, as: UTF8.self)))])
        }
        let change: JSONValue = .object([
            ("textDocument", .object([("uri", .string(open.uri)), ("version", .int(open.version))])),
            ("edits", .array(edits)),
        ])
        return .object([
            ("title", .string(action.title)),
            ("kind", .string(LSPFeatures.codeActionKind)),
            ("edit", .object([("documentChanges", .array([change]))])),
        ])
    }
}

// MARK: - Completion

extension LanguageServer {
    /// The date words offered after a date field, in this order.
    private static let dateWords = [
        "today", "tomorrow", "monday", "tuesday", "wednesday", "thursday", "friday",
        "saturday", "sunday", "next week", "eow", "eom", "next month",
    ]
    private static let tickDateKeys = ["due", "scheduled", "start", "created", "done", "cancelled"]
    private static let dataviewDateKeys = ["due", "scheduled", "start", "created", "completion", "cancelled"]
    private static let dateSignifiers: Set<Unicode.Scalar> = ["📅", "📆", "🗓", "⏳", "⌛", "🛫", "➕", "✅", "❌"]

    func completion(_ params: JSONValue) throws -> JSONValue {
        let open = try openDocument(params)
        guard let position = LSPPosition(params["position"]) else { throw LSPError(.invalidParams, "params.position is missing or not a position") }
        let document = open.document
        let source = document.source
        let converter = PositionConverter(source: source, encoding: encoding)
        let offset = converter.offset(of: position)
        guard position.line < source.lineCount, let item = document.items.first(where: { $0.line == position.line + 1 }),
            offset >= item.boxRange.upperBound
        else { return .array([]) }
        let lineRange = source.range(ofLine: item.line)
        let before = String(decoding: source.bytes[item.boxRange.upperBound..<offset], as: UTF8.self)
        let after = String(decoding: source.bytes[offset..<lineRange.upperBound], as: UTF8.self)
        /// A text edit replacing the `typed` text before the cursor.
        func edit(replacing typed: String, with text: String) -> JSONValue {
            let from = offset - typed.utf8.count
            return .object([("range", converter.range(from..<offset)), ("newText", .string(text))])
        }
        var items: [JSONValue] = []
        func add(label: String, detail: String?, kind: Int, replacing typed: String, with text: String, filter: String? = nil) {
            var fields: [(String, JSONValue)] = [("label", .string(label)), ("kind", .int(kind))]
            if let detail { fields.append(("detail", .string(detail))) }
            fields.append(("sortText", .string(String(format: "%04d", items.count))))
            fields.append(("filterText", .string(filter ?? label)))
            fields.append(("textEdit", edit(replacing: typed, with: text)))
            items.append(.object(fields))
        }
        /// The closing bracket a Dataview field still needs after the value.
        func closer(_ bracket: Character) -> String {
            let close: Character = bracket == "[" ? "]" : ")"
            let rest = after.drop(while: { !$0.isWhitespace && $0 != close })
            return rest.first == close ? "" : String(close)
        }
        func dates(typed: String, prefix: String, suffix: String) {
            var words = Self.dateWords
            if !typed.isEmpty, !words.contains(typed.lowercased()), DateExpression.resolve(typed, today: today) != nil {
                words.insert(typed, at: 0)
            }
            for word in words {
                guard let date = DateExpression.resolve(word, today: today) else { continue }
                add(
                    label: word, detail: "\(date.isoString) (\(date.weekdayAbbreviation))", kind: 12, replacing: typed,
                    with: prefix + date.isoString + suffix, filter: word)
            }
        }
        let lastWord = String(before.reversed().prefix(while: { !$0.isWhitespace }).reversed())
        /// Block ids of the folder's items (open ones first), for a
        /// dependency: `typed` is the id typed so far, after the last comma.
        func ids(typed: String, prefix: String, suffix: String) {
            var seen = Set<String>()
            var found: [(id: String, title: String, open: Bool)] = []
            func offer(_ id: String, _ title: @autoclosure () -> String, open: Bool) {
                guard id != item.metadata.id, seen.insert(id).inserted else { return }
                found.append((id, title(), open))
            }
            forEachListsCompletionWords { words in
                for entry in words.ids { offer(entry.id, entry.title, open: entry.isOpen) }
            }
            for entry in found.sorted(by: { ($0.open ? 0 : 1, $0.id) < ($1.open ? 0 : 1, $1.id) }) {
                add(label: entry.id, detail: entry.title, kind: 18, replacing: typed, with: prefix + entry.id + suffix)
            }
        }
        func afterLastComma(_ text: Substring) -> String { String(text.split(separator: ",", omittingEmptySubsequences: false).last ?? "") }

        // Dependencies: after:ids, [dependsOn:: ids], ⛔ ids.
        if lastWord.hasPrefix("after:") || lastWord.hasPrefix("dependson:") {
            ids(typed: afterLastComma(lastWord[lastWord.index(after: lastWord.firstIndex(of: ":")!)...]), prefix: "", suffix: "")
            return .array(items)
        }
        if let bracket = before.lastIndex(where: { $0 == "[" || $0 == "(" }) {
            let field = before[before.index(after: bracket)...]
            if let separator = field.range(of: "::"),
                field[..<separator.lowerBound].trimmingWhiteSpace().lowercased() == "dependson",
                !field.contains(where: { $0 == "]" || $0 == ")" })
            {
                let value = field[separator.upperBound...]
                let typed = afterLastComma(value).trimmingWhiteSpace()
                ids(typed: typed, prefix: value.isEmpty ? " " : "", suffix: closer(before[bracket]))
                return .array(items)
            }
        }
        if let block = before.range(of: "⛔", options: .backwards) {
            let value = before[block.upperBound...].drop(while: { $0 == "\u{FE0F}" })
            // Ids, commas and the spaces after commas only: anything else ends the token.
            let words = value.split(separator: " ", omittingEmptySubsequences: true)
            let continues = words.dropLast().allSatisfy { $0.hasSuffix(",") } && !(value.hasSuffix(" ") && !(words.last?.hasSuffix(",") ?? true))
            if continues {
                let typed = afterLastComma(value).trimmingWhiteSpace()
                ids(typed: typed, prefix: value.isEmpty ? " " : "", suffix: "")
                return .array(items)
            }
        }

        // tick dialect: due:, scheduled:, ...
        if let colon = lastWord.firstIndex(of: ":"), Self.tickDateKeys.contains(String(lastWord[..<colon])),
            !lastWord[lastWord.index(after: colon)...].contains(":")
        {
            dates(typed: String(lastWord[lastWord.index(after: colon)...]), prefix: "", suffix: "")
            return .array(items)
        }
        // Dataview: [due:: or (due:: followed by the value typed so far.
        if let bracket = before.lastIndex(where: { $0 == "[" || $0 == "(" }) {
            let field = before[before.index(after: bracket)...]
            if let separator = field.range(of: "::") {
                let key = field[..<separator.lowerBound].trimmingWhiteSpace().lowercased()
                let typed = String(field[separator.upperBound...].drop(while: { $0 == " " }))
                let gap = field[separator.upperBound...].hasPrefix(" ") ? "" : " "
                if !typed.contains(where: { $0 == "]" || $0 == ")" }) {
                    if Self.dataviewDateKeys.contains(key) {
                        dates(typed: typed, prefix: gap, suffix: closer(before[bracket]))
                        return .array(items)
                    }
                    if key == "priority" {
                        for priority in Priority.allCases {
                            let word = priority == .urgent ? "highest" : priority.name
                            add(
                                label: word, detail: "priority", kind: 20, replacing: typed,
                                with: (typed.isEmpty ? gap : "") + word + closer(before[bracket]))
                        }
                        return .array(items)
                    }
                }
            }
        }
        // Obsidian Tasks: a date signifier (with or without U+FE0F), spaces
        // or none, and the value typed so far.
        let scalars = Array(before.unicodeScalars)
        func isSignifier(_ scalar: Unicode.Scalar) -> Bool { Self.dateSignifiers.contains(scalar) || scalar == "\u{FE0F}" }
        var wordStart = scalars.count
        while wordStart > 0, !scalars[wordStart - 1].properties.isWhitespace, !isSignifier(scalars[wordStart - 1]) { wordStart -= 1 }
        var signifier = wordStart
        while signifier > 0, scalars[signifier - 1] == " " { signifier -= 1 }
        let spaces = wordStart - signifier
        if signifier > 0, scalars[signifier - 1] == "\u{FE0F}" { signifier -= 1 }
        if signifier > 0, Self.dateSignifiers.contains(scalars[signifier - 1]) {
            let typed = String(String.UnicodeScalarView(scalars[wordStart...]))
            dates(typed: typed, prefix: spaces == 0 && typed.isEmpty ? " " : "", suffix: "")
            return .array(items)
        }
        // Priorities: !word, in the item's dialect.
        if lastWord.hasPrefix("!"), !lastWord.dropFirst().contains(where: { !$0.isLetter }) {
            let dialect = EditStyle.dialect(of: item, in: document)
            for priority in Priority.allCases {
                guard let token = TokenFormat.priority(priority, dialect: dialect) else { continue }
                let label = dialect == .tick ? token : "\(token) \(priority.name)"
                add(
                    label: label, detail: "priority \(priority.name)", kind: 20, replacing: lastWord, with: token,
                    filter: "!" + priority.name)
            }
            return .array(items)
        }
        // Tags used in the folder.
        if lastWord.hasPrefix("#"), !lastWord.dropFirst().contains("#") {
            var counts: [String: (shown: String, count: Int)] = [:]
            forEachListsCompletionWords { words in
                for use in words.tags { counts[use.key] = (counts[use.key]?.shown ?? use.shown, (counts[use.key]?.count ?? 0) + use.count) }
            }
            // The tag being typed is no tag of the folder yet.
            let typing = String(lastWord.dropFirst()).lowercased()
            if let typed = counts[typing] {
                counts[typing] = typed.count > 1 ? (typed.shown, typed.count - 1) : nil
            }
            let sorted = counts.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.shown < $1.shown }
            for tag in sorted {
                add(
                    label: "#" + tag.shown, detail: "used \(tag.count) time\(tag.count == 1 ? "" : "s")", kind: 14,
                    replacing: lastWord, with: "#" + tag.shown)
            }
            return .array(items)
        }
        return .array(items)
    }
}

// MARK: - Hover, symbols, queries

extension LanguageServer {
    func hover(_ params: JSONValue) throws -> JSONValue {
        let open = try openDocument(params)
        guard let position = LSPPosition(params["position"]) else { throw LSPError(.invalidParams, "params.position is missing or not a position") }
        let document = open.document
        guard let item = document.items.first(where: { $0.line == position.line + 1 }) else { return .null }
        let metadata = item.metadata
        let status: String =
            switch item.status {
            case .open: "open"
            case .done: "done"
            case .cancelled: "cancelled"
            case .inProgress: "in progress"
            }
        var lines = ["**\(Self.markdownEscaped(item.title))** (\(status))", ""]
        func date(_ name: String, _ value: TaskDate?) {
            guard let value else { return }
            let days = today.days(until: value.dayOnly)
            let words =
                switch days {
                case 0: "today"
                case 1: "tomorrow"
                case -1: item.status.isOpen ? "1 day overdue" : "yesterday"
                case ..<0: item.status.isOpen ? "\(-days) days overdue" : "\(-days) days ago"
                default: "in \(days) days"
                }
            lines.append("- \(name): \(value.isoString) (\(value.weekdayAbbreviation)), \(words)")
        }
        lines.append("- priority: \(metadata.priority.name)")
        date("due", metadata.due)
        date("scheduled", metadata.scheduled)
        date("start", metadata.start)
        date("created", metadata.created)
        date("done", metadata.done)
        date("cancelled", metadata.cancelled)
        if let every = metadata.every { lines.append("- repeats: \(Self.markdownEscaped(every))") }
        if !metadata.tags.isEmpty { lines.append("- tags: " + metadata.tags.map { "`#\($0)`" }.joined(separator: " ")) }
        if let id = metadata.id { lines.append("- id: `\(id)`") }
        for (key, value) in metadata.fields { lines.append("- \(Self.markdownEscaped(key)): \(Self.markdownEscaped(value))") }
        lines.append("- list: \(Self.markdownEscaped(document.name)) (`\(document.path)`)")
        if let section = item.section, section < document.sections.count {
            lines.append("- section: \(Self.markdownEscaped(document.sections[section].title))")
        }
        let converter = PositionConverter(source: document.source, encoding: encoding)
        return .object([
            ("contents", .object([("kind", .string("markdown")), ("value", .string(lines.joined(separator: "\n")))])),
            ("range", converter.range(item.titleRange)),
        ])
    }

    /// Text with Markdown's punctuation escaped, for hover text.
    static func markdownEscaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\`*_[]<>#|~".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// A `Location` of an item's title line.
    private func location(_ item: TaskItem, in document: Document, uri: String) -> JSONValue {
        let converter = PositionConverter(source: document.source, encoding: encoding)
        let start = document.source.lineStarts[item.line - 1]
        return .object([("uri", .string(uri)), ("range", converter.range(start..<max(start, item.titleRange.upperBound)))])
    }

    func workspaceSymbols(_ params: JSONValue) throws -> JSONValue {
        let query = (params["query"]?.textValue ?? "").lowercased()
        var symbols: [JSONValue] = []
        func add(_ document: Document, uri: String) {
            for item in document.items where query.isEmpty || item.title.lowercased().contains(query) {
                var container = document.name
                if let section = item.section, section < document.sections.count { container += " › " + document.sections[section].title }
                symbols.append(
                    .object([
                        ("name", .string(item.title.isEmpty ? item.text : item.title)),
                        ("kind", .int(24)), // SymbolKind.Event
                        ("location", location(item, in: document, uri: uri)),
                        ("containerName", .string(container)),
                    ]))
            }
        }
        // A list of the folder is parsed, for its items' positions, only
        // when one of its titles matches (the read model says which).
        forEachList(fresh: true) { uri, list in
            guard query.isEmpty || !list.items(whoseTitleLowercasedContains: query).isEmpty, let parsed = parsedList(list.path) else { return }
            add(parsed, uri: uri)
        } open: { opened in
            add(opened.document, uri: opened.uri)
        }
        return .array(symbols)
    }

    func executeCommand(_ params: JSONValue) throws -> JSONValue {
        guard params["command"]?.textValue == LSPFeatures.queryCommand else {
            throw LSPError(.invalidParams, "unknown command '\(params["command"]?.textValue ?? "")'; tick lsp runs \(LSPFeatures.queryCommand)")
        }
        guard let query = params["arguments"]?.arrayValue?.first?.textValue else {
            throw LSPError(.invalidParams, "\(LSPFeatures.queryCommand) takes one argument, the query (docs/QUERY.md)")
        }
        let expression: QueryExpression
        do {
            expression = try QueryParser.parse(query, today: today)
        } catch {
            throw LSPError(.invalidParams, "\(error)")
        }
        // The query runs on the read model of the lists as they are (open
        // ones with their unsaved text); locations need the bytes of the
        // lists it finds items in, which are parsed then.
        var uris: [String: String] = [:]
        var opened: [String: Document] = [:]
        var lists: [EncodedDocument] = []
        forEachList(fresh: true) { uri, list in
            uris[list.path] = uri
            lists.append(list)
        } open: { open in
            guard let list = EncodedDocument(encoding: open.document) else { return }
            uris[open.document.path] = open.uri
            opened[open.document.path] = open.document
            lists.append(list)
        }
        var parsed: [String: Document] = [:]
        return .array(
            QueryEvaluator.filter(EncodedWorkspace(documents: lists), expression).compactMap { found in
                let path = found.listPath
                if opened[path] == nil, parsed[path] == nil { parsed[path] = parsedList(path) }
                guard let document = opened[path] ?? parsed[path], let uri = uris[path], found.index < document.items.count else { return nil }
                return location(document.items[found.index], in: document, uri: uri)
            })
    }
}
