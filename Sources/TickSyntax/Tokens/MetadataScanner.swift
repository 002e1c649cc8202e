import TickModel
import TickSystem

/// Finds metadata tokens in the plain text of a title line (SPEC §3.2).
///
/// Tokens are whole words: the byte before a token is the start of the title
/// or white space, and the byte after it the end of the title or white space.
/// A token whose value does not parse stays plain text and yields a
/// diagnostic instead.
struct MetadataScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The title line's bounds (for the whole-word and block-id rules).
    let titleStart: Int
    let titleEnd: Int
    var diagnostics: [(offset: Int, message: String)] = []

    init(bytes: UnsafeBufferPointer<UInt8>, title: Range<Int>) {
        self.bytes = bytes
        self.titleStart = title.lowerBound
        self.titleEnd = title.upperBound
    }

    /// The tokens inside `segment`, a stretch of plain text, in order.
    mutating func tokens(in segment: Range<Int>) -> [MetadataToken] {
        var found: [MetadataToken] = []
        var index = segment.lowerBound
        while let token = nextToken(in: segment, from: &index) { found.append(token) }
        return found
    }

    /// The first token inside `segment` that starts at or after `index`,
    /// with `index` moved past it; nil (and `index` at the segment's end)
    /// when there is none. Lets a caller handle tokens one at a time
    /// without collecting them in an array.
    mutating func nextToken(in segment: Range<Int>, from index: inout Int) -> MetadataToken? {
        while index < segment.upperBound {
            // Only word starts can begin a token.
            if !isSpace(index) && (index == titleStart || isSpace(index - 1)) {
                if let token = token(at: index, limit: segment.upperBound) {
                    index = token.range.upperBound
                    return token
                }
            }
            index += 1
        }
        return nil
    }

    private func isSpace(_ index: Int) -> Bool { bytes[index] == 0x20 || bytes[index] == 0x09 }

    /// True when `index` is the end of a word (end of title or white space).
    private func isWordEnd(_ index: Int) -> Bool { index >= titleEnd || isSpace(index) }

    private func wordEnd(from index: Int, limit: Int) -> Int {
        var position = index
        while position < limit, !isSpace(position) { position += 1 }
        return position
    }

    private func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    /// False only where `token(at:limit:)` finds no token, judged without
    /// building one: a word that starts with a lowercase letter can only be
    /// `key:value`, so it needs a colon right after its key bytes. Most words
    /// of a title fail here, and `summarizePlain` copies them at once.
    static func mayStartToken(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, limit: Int) -> Bool {
        switch bytes[index] {
        case UInt8(ascii: "a")...UInt8(ascii: "z"):
            var colon = index
            while colon < limit, isKeyByte(bytes[colon]) { colon += 1 }
            return colon < limit && bytes[colon] == UInt8(ascii: ":")
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "["), UInt8(ascii: "("), 0xE2, 0xF0:
            return true
        default:
            return false
        }
    }

    /// The token starting at `index`, a word start, if any (the cases
    /// `mayStartToken` lets through).
    mutating func token(at index: Int, limit: Int) -> MetadataToken? {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "!"): return priorityToken(at: index, limit: limit)
        case UInt8(ascii: "#"): return tagToken(at: index, limit: limit)
        case UInt8(ascii: "^"): return blockIDToken(at: index, limit: limit)
        case UInt8(ascii: "["), UInt8(ascii: "("): return dataviewToken(at: index, limit: limit)
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return keyValueToken(at: index, limit: limit)
        case 0xE2, 0xF0: return emojiToken(at: index, limit: limit)
        default: return nil
        }
    }

    // MARK: tick dialect

    private mutating func priorityToken(at index: Int, limit: Int) -> MetadataToken? {
        let end = wordEnd(from: index, limit: limit)
        guard end > index + 1, isWordEnd(end),
            (index + 1..<end).allSatisfy({ InlineScanner.isASCIILetter(bytes[$0]) })
        else { return nil }
        let word = string(index + 1..<end)
        guard let priority = Priority(word: word), word.lowercased() != "none" else {
            let hint = NearestWord.hint(word, among: Self.priorityWords) { "!" + $0 }
            diagnostics.append((index, "unknown priority '!\(word)'\(hint); use !lowest, !low, !normal, !medium, !high or !urgent"))
            return nil
        }
        return MetadataToken(field: .priority, dialect: .tick, range: index..<end, valueRange: index + 1..<end, value: .priority(priority))
    }

    /// The priority words, for "did you mean" hints.
    static let priorityWords = ["lowest", "low", "normal", "medium", "high", "urgent", "highest"]

    /// " (did you mean every:X?)" for a rule word that is a slip of a valid one
    /// (`wek`), or a word for two weeks (`fortnight`); else "".
    static func recurrenceHint(_ raw: String) -> String {
        if ["fortnight", "fortnightly", "biweekly"].contains(raw.lowercased()) { return " (did you mean every:2w?)" }
        let words = [
            "day", "week", "month", "year", "weekday", "daily", "weekly", "monthly", "yearly",
            "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        ]
        return NearestWord.hint(raw, among: words) { "every:" + $0 }
    }

    private func tagToken(at index: Int, limit: Int) -> MetadataToken? {
        let end = wordEnd(from: index, limit: limit)
        guard end > index + 1, isWordEnd(end) else { return nil }
        var sawNonDigit = false
        for position in index + 1..<end {
            let byte = bytes[position]
            if byte >= 0x80 {
                sawNonDigit = true
                continue
            }
            if InlineScanner.isASCIILetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/") {
                sawNonDigit = true
            } else if !(byte >= 0x30 && byte <= 0x39) {
                return nil
            }
        }
        guard sawNonDigit else { return nil }
        return MetadataToken(
            field: .tag, dialect: .tick, range: index..<end, valueRange: index + 1..<end,
            value: .text(string(index + 1..<end)))
    }

    private func blockIDToken(at index: Int, limit: Int) -> MetadataToken? {
        let end = wordEnd(from: index, limit: limit)
        guard end > index + 1, end == titleEnd,
            (index + 1..<end).allSatisfy({ Self.isIDByte(bytes[$0]) })
        else { return nil }
        return MetadataToken(
            field: .blockID, dialect: .tick, range: index..<end, valueRange: index + 1..<end,
            value: .text(string(index + 1..<end)))
    }

    /// The ids of a dependency value (`a,b` or `a, b`); nil when one is
    /// empty or holds a byte an id cannot (Obsidian Tasks' rule for ids).
    static func validDependencies(_ value: String) -> [String]? {
        let ids = value.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhiteSpace() }
        guard !ids.isEmpty, ids.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(isIDByte) }) else { return nil }
        return ids
    }

    static func isIDByte(_ byte: UInt8) -> Bool {
        InlineScanner.isASCIILetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// `key:value`: a lowercase key, a value that does not start with `/`.
    private mutating func keyValueToken(at index: Int, limit: Int) -> MetadataToken? {
        // Most words starting with a lowercase letter are plain words: look
        // for the colon first, before measuring the word. (Key bytes are
        // never white space, so the colon found is the same either way.)
        var colon = index
        while colon < limit, Self.isKeyByte(bytes[colon]) { colon += 1 }
        guard colon < limit, bytes[colon] == UInt8(ascii: ":") else { return nil }
        let end = wordEnd(from: colon, limit: limit)
        guard isWordEnd(end) else { return nil }
        guard colon + 1 < end,
            bytes[colon + 1] != UInt8(ascii: "/"), bytes[colon + 1] != UInt8(ascii: ":")
        else { return nil }
        let key = string(index..<colon)
        let valueRange = colon + 1..<end
        return fieldToken(key: key, dialect: .tick, range: index..<end, valueRange: valueRange)
    }

    static func isKeyByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    /// Builds the token for a named field, checking its value; nil (with a
    /// diagnostic) when a known field's value does not parse.
    private mutating func fieldToken(key: String, dialect: MetadataDialect, range: Range<Int>, valueRange: Range<Int>) -> MetadataToken? {
        let field = MetadataField.named(key, in: dialect) ?? .other(key)
        switch field.spelling?.value {
        case .date:
            // Read from the bytes: no string unless the date is invalid.
            guard let date = TaskDate(isoBytes: UnsafeBufferPointer(rebasing: bytes[valueRange])) else {
                diagnostics.append((valueRange.lowerBound, "invalid date '\(string(valueRange))' for \(key); write YYYY-MM-DD, e.g. 2026-11-24"))
                return nil
            }
            return MetadataToken(field: field, dialect: dialect, range: range, valueRange: valueRange, value: .date(date))
        default:
            return textFieldToken(field: field, key: key, dialect: dialect, range: range, valueRange: valueRange)
        }
    }

    /// `fieldToken` for a field whose value is not a date.
    private mutating func textFieldToken(field: MetadataField, key: String, dialect: MetadataDialect, range: Range<Int>, valueRange: Range<Int>)
        -> MetadataToken?
    {
        let raw = string(valueRange)
        let value: MetadataValue
        switch field.spelling?.value {
        case .priority:
            guard let priority = Priority(word: raw) else {
                diagnostics.append(
                    (
                        valueRange.lowerBound,
                        "unknown priority '\(raw)'\(NearestWord.hint(raw, among: Self.priorityWords)); use lowest, low, normal, medium, high or urgent"
                    ))
                return nil
            }
            value = .priority(priority)
        case .color:
            guard ListColor.isValid(raw) else {
                diagnostics.append(
                    (
                        valueRange.lowerBound,
                        "unknown color '\(raw)'\(NearestWord.hint(raw, among: ListColor.names)); use a name like red or green, or #rrggbb"
                    ))
                return nil
            }
            value = .text(raw)
        case .recurrence:
            if case .failure(let error) = RecurrenceRule.parse(raw) {
                diagnostics.append(
                    (valueRange.lowerBound, RecurrenceRule.diagnostic(raw, error, hint: dialect == .tick ? Self.recurrenceHint(raw) : "")))
                return nil
            }
            value = .text(raw)
        case .ids:
            guard let ids = Self.validDependencies(raw) else {
                diagnostics.append(
                    (
                        valueRange.lowerBound,
                        "invalid ids '\(raw)' for \(key); write ids (letters, digits, '-' and '_') separated by commas, e.g. \(key == "after" ? "after:" : "")abc123,def456"
                    ))
                return nil
            }
            value = .text(ids.joined(separator: ","))
        case .choice(let words, let noun):
            guard words.contains(raw.lowercased()) else {
                diagnostics.append((valueRange.lowerBound, "unknown \(noun) '\(raw)'; use \(words.joined(separator: " or "))"))
                return nil
            }
            value = .text(raw.lowercased())
        case .id where dialect == .dataview:
            // Like `🆔` and `^id`: letters, digits, `-` and `_` only.
            guard valueRange.allSatisfy({ Self.isIDByte(bytes[$0]) }) else {
                diagnostics.append((valueRange.lowerBound, "invalid id '\(raw)'; an id is letters, digits, '-' and '_'"))
                return nil
            }
            value = .text(raw)
        default:
            value = .text(raw)
        }
        return MetadataToken(field: field, dialect: dialect, range: range, valueRange: valueRange, value: value)
    }

    // MARK: Dataview

    /// `[key:: value]`, or `(key:: value)` (Dataview's inline field in parentheses).
    private mutating func dataviewToken(at index: Int, limit: Int) -> MetadataToken? {
        let close = bytes[index] == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "]")
        var position = index + 1
        while position < limit, bytes[position] == 0x20 { position += 1 }
        let keyStart = position
        while position < limit, Self.isKeyByte(bytes[position] | (InlineScanner.isASCIILetter(bytes[position]) ? 0x20 : 0)) {
            position += 1
        }
        guard position > keyStart, position + 1 < limit, bytes[position] == UInt8(ascii: ":"), bytes[position + 1] == UInt8(ascii: ":")
        else { return nil }
        let key = string(keyStart..<position).lowercased()
        position += 2
        while position < limit, bytes[position] == 0x20 { position += 1 }
        let valueStart = position
        while position < limit, bytes[position] != close, bytes[position] != bytes[index] { position += 1 }
        guard position < limit, bytes[position] == close, isWordEnd(position + 1) else { return nil }
        var valueEnd = position
        while valueEnd > valueStart, bytes[valueEnd - 1] == 0x20 { valueEnd -= 1 }
        guard valueEnd > valueStart else { return nil }
        return fieldToken(key: key, dialect: .dataview, range: index..<position + 1, valueRange: valueStart..<valueEnd)
    }

    // MARK: Obsidian Tasks emoji

    /// Every field's signifiers (`MetadataField.spelling`), then the priorities'.
    private static let signifiers: [(bytes: [UInt8], field: MetadataField, priority: Priority?)] =
        MetadataField.described.flatMap { field in field.spelling!.emoji.map { (Array($0.utf8), field, Priority?.none) } }
        + [Priority.lowest, .low, .medium, .high, .urgent].map { (Array($0.emoji!.utf8), MetadataField.priority, $0) }

    private static let variationSelector: [UInt8] = [0xEF, 0xB8, 0x8F]

    private func matches(_ pattern: [UInt8], at index: Int, limit: Int) -> Bool {
        guard index + pattern.count <= limit else { return false }
        for offset in 0..<pattern.count where bytes[index + offset] != pattern[offset] { return false }
        return true
    }

    private mutating func emojiToken(at index: Int, limit: Int) -> MetadataToken? {
        guard let signifier = Self.signifiers.first(where: { matches($0.bytes, at: index, limit: limit) }) else { return nil }
        var position = index + signifier.bytes.count
        if matches(Self.variationSelector, at: position, limit: limit) { position += 3 }
        if let priority = signifier.priority {
            guard isWordEnd(position) else { return nil }
            return MetadataToken(
                field: .priority, dialect: .emoji, range: index..<position, valueRange: index..<position,
                value: .priority(priority))
        }
        let signifierEnd = position
        while position < limit, isSpace(position) { position += 1 }
        let valueStart = position
        switch signifier.field.spelling?.value {
        case .recurrence:
            // The rule runs over words of its grammar (`every`, numbers,
            // ordinals, units, weekday and month names, `on`, `the`, `and`,
            // `when done`, commas) up to the first other word, which is title
            // text again. Each is a whole word in the file: one that runs on
            // into markup (`week*soon*`) is not a rule word, so the rule ends before it.
            var valueEnd = valueStart
            var wordStart = valueStart
            while wordStart < limit {
                let end = wordEnd(from: wordStart, limit: limit)
                let isRuleWord =
                    end > wordStart && isWordEnd(end)
                    && (wordStart..<end).allSatisfy {
                        let byte = bytes[$0]
                        return byte < 0x80
                            && (InlineScanner.isASCIILetter(byte) || (byte >= 0x30 && byte <= 0x39)
                                || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "."))
                    } && RecurrenceRule.isRuleWord(Substring(string(wordStart..<end)))
                guard isRuleWord else { break }
                valueEnd = end
                wordStart = end
                while wordStart < limit, isSpace(wordStart) { wordStart += 1 }
            }
            let rule = string(valueStart..<valueEnd)
            if case .failure(let error) = RecurrenceRule.parse(rule) {
                // Name the word the rule stopped at: it is the likelier mistake.
                let stop = wordEnd(from: wordStart, limit: limit)
                let shown = stop > wordStart ? string(valueStart..<stop) : rule
                let reason =
                    stop > wordStart ? RecurrenceRule.ParseError(description: "'\(string(wordStart..<stop))' is not a word of the grammar") : error
                diagnostics.append((valueStart, RecurrenceRule.diagnostic(shown, reason)))
                return nil
            }
            return MetadataToken(
                field: .recurrence, dialect: .emoji, range: index..<valueEnd, valueRange: valueStart..<valueEnd,
                value: .text(rule))
        case .ids:
            // Ids separated by commas, with spaces allowed after a comma
            // (`⛔ a,b` and `⛔ a, b`, as Obsidian Tasks reads them).
            var end = wordEnd(from: valueStart, limit: limit)
            while end > valueStart, end < limit, bytes[end - 1] == UInt8(ascii: ",") {
                var next = end
                while next < limit, isSpace(next) { next += 1 }
                guard next < limit else { break }
                end = wordEnd(from: next, limit: limit)
            }
            guard end > valueStart, isWordEnd(end), let ids = Self.validDependencies(string(valueStart..<end)) else {
                if end > valueStart {
                    diagnostics.append(
                        (
                            index,
                            "invalid ids in '\(string(index..<end))'; write ids (letters, digits, '-' and '_') separated by commas, e.g. ⛔ abc123,def456"
                        ))
                }
                return nil
            }
            return MetadataToken(
                field: signifier.field, dialect: .emoji, range: index..<end, valueRange: valueStart..<end,
                value: .text(ids.joined(separator: ",")))
        case .choice(let words, let noun):
            let end = wordEnd(from: valueStart, limit: limit)
            let word = string(valueStart..<end).lowercased()
            guard end > valueStart, isWordEnd(end), words.contains(word) else {
                if end > valueStart {
                    let choices = words.map { signifier.field.spelling!.emoji[0] + " " + $0 }.joined(separator: " or ")
                    diagnostics.append((index, "unknown \(noun) in '\(string(index..<end))'; use \(choices)"))
                }
                return nil
            }
            return MetadataToken(field: signifier.field, dialect: .emoji, range: index..<end, valueRange: valueStart..<end, value: .text(word))
        case .id:
            let end = wordEnd(from: valueStart, limit: limit)
            guard end > valueStart, isWordEnd(end), (valueStart..<end).allSatisfy({ Self.isIDByte(bytes[$0]) }) else { return nil }
            return MetadataToken(
                field: signifier.field, dialect: .emoji, range: index..<end, valueRange: valueStart..<end,
                value: .text(string(valueStart..<end)))
        default:
            let end = wordEnd(from: valueStart, limit: limit)
            // A value that runs on into markup (`📅 2026-11-24*x*`) is no whole word.
            if end > valueStart && !isWordEnd(end) { return nil }
            guard end > valueStart, let date = TaskDate(isoBytes: UnsafeBufferPointer(rebasing: bytes[valueStart..<end])) else {
                // A template's placeholder (`📅 <% tp.date.now() %>` for
                // Templater, `📅 {{date}}` for Obsidian's Templates) is text
                // until the template is used: Obsidian Tasks reads no date
                // there and says nothing, and neither does tick.
                if valueStart + 1 < limit,
                    (bytes[valueStart] == UInt8(ascii: "<") && bytes[valueStart + 1] == UInt8(ascii: "%"))
                        || (bytes[valueStart] == UInt8(ascii: "{") && bytes[valueStart + 1] == UInt8(ascii: "{"))
                {
                    return nil
                }
                let shown = string(index..<max(end, signifierEnd))
                diagnostics.append(
                    (index, "invalid date in '\(shown)'; write the date as YYYY-MM-DD, e.g. \(string(index..<signifierEnd)) 2026-11-24"))
                return nil
            }
            return MetadataToken(
                field: signifier.field, dialect: .emoji, range: index..<end, valueRange: valueStart..<end,
                value: .date(date))
        }
    }
}
