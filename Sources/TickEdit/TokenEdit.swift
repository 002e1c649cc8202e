import TickModel
import TickSyntax

/// How tick writes a metadata token in each dialect (SPEC §3.2).
///
/// The text it returns reads back, through the document parser, as the same
/// field and value in the same dialect (fields a dialect has no form for,
/// such as an emoji color, fall back to the tick form, which every dialect's
/// reader also understands).
public enum TokenFormat {
    /// The emoji that introduces a field in Obsidian Tasks' dialect (`MetadataField.spelling`).
    static func emojiSignifier(_ field: MetadataField) -> String? { field.spelling?.emoji.first }

    /// The Dataview key of a field (`completion` for done).
    static func dataviewKey(_ field: MetadataField) -> String { field.spelling?.dataviewKey ?? field.key }

    /// A date token: `due:2026-11-24`, `📅 2026-11-24`, `[due:: 2026-11-24]`.
    public static func date(_ field: MetadataField, _ date: TaskDate, dialect: MetadataDialect) -> String {
        text(field, date.isoString, dialect: dialect)
    }

    /// A priority token: `!high`, `⏫`, `[priority:: high]`; nil for `normal`
    /// in the emoji dialect, which has no sign for it.
    public static func priority(_ priority: Priority, dialect: MetadataDialect) -> String? {
        switch dialect {
        case .tick: "!" + priority.name
        case .emoji: priority.emoji
        case .dataview: "[priority:: \(dataviewWord(priority))]"
        }
    }

    /// The word of a priority in a Dataview field: Obsidian Tasks' words,
    /// so `urgent` is `highest` (`lowest` and the others are the same).
    static func dataviewWord(_ priority: Priority) -> String {
        priority == .urgent ? "highest" : priority.name
    }

    /// A token for a field with a textual value (dates as ISO text).
    public static func text(_ field: MetadataField, _ value: String, dialect: MetadataDialect) -> String {
        if field == .tag { return "#" + value }
        switch dialect {
        case .tick:
            if field == .blockID { return "^" + value }
            return field.key + ":" + value
        case .emoji:
            if field == .recurrence {
                return "🔁 " + (value.lowercased().hasPrefix("every") ? value : "every " + RecurrenceRule.english(value))
            }
            if let signifier = emojiSignifier(field) { return signifier + " " + value }
            return field.key + ":" + value
        case .dataview:
            if field == .recurrence {
                return "[repeat:: " + (value.lowercased().hasPrefix("every") ? value : "every " + RecurrenceRule.english(value)) + "]"
            }
            return "[" + dataviewKey(field) + ":: " + value + "]"
        }
    }
}

/// Changes to the metadata tokens (and the text) of one item's title line,
/// as byte splices that lie inside the title.
///
/// Guarantees: an existing token keeps its place and dialect and only its
/// value's bytes change; a new token goes at the end of the title, before a
/// trailing `^id`, in the given dialect; a removed token takes exactly one
/// adjacent space of the title with it; nothing outside the title changes.
public enum TokenEdit {
    /// One change to a title line; several are made together, new tokens in
    /// the order given.
    public enum Change: Sendable, Hashable {
        /// Sets a date field (due, scheduled, start, created, done, cancelled).
        case setDate(MetadataField, TaskDate)
        /// Removes every token of a field.
        case remove(MetadataField)
        /// Sets the priority; `normal` removes the priority token.
        case setPriority(Priority)
        /// Sets a field with a text value (color, icon, recurrence, other).
        case setText(MetadataField, String)
        /// Adds `#tag` unless the item already has it (case-insensitive).
        case addTag(String)
        /// Removes every `#tag` token equal to it (case-insensitive).
        case removeTag(String)
        /// Replaces the title's text, keeping every token where it is.
        case replaceText(String)
    }

    /// The splices that make `changes` to `item`'s title line. New tokens are
    /// written in `dialect` (by default the item's own, else the list's).
    public static func splices(
        _ changes: [Change], item: TaskItem, in document: Document,
        dialect: MetadataDialect? = nil
    ) -> [Splice] {
        let bytes = document.source.bytes
        let tokens = item.runs.tokens
        let dialect = dialect ?? EditStyle.dialect(of: item, in: document)
        var replacements: [Splice] = []
        var removals: [Range<Int>] = [] // tokens or text stretches to remove with one space
        var removed = Set<Range<Int>>()
        var appended: [String] = []

        func remove(_ range: Range<Int>) {
            if removed.insert(range).inserted { removals.append(range) }
        }
        func isRemoved(_ token: MetadataToken) -> Bool { removed.contains(token.range) }
        func firstLive(_ test: (MetadataToken) -> Bool) -> MetadataToken? {
            tokens.first { token in
                test(token) && !isRemoved(token) && !replacements.contains(where: { $0.range.overlaps(token.range) })
            }
        }

        for change in changes {
            switch change {
            case .setDate(let field, let date):
                if let token = firstLive({ $0.field == field }) {
                    replacements.append(Splice(token.valueRange, date.isoString))
                } else {
                    appended.append(TokenFormat.date(field, date, dialect: dialect))
                }
            case .remove(let field):
                for token in tokens where token.field == field { remove(token.range) }
            case .setPriority(let priority):
                let existing = tokens.filter { $0.field == .priority }
                if priority == .normal {
                    for token in existing { remove(token.range) }
                } else if let token = existing.first(where: { !isRemoved($0) }) {
                    switch token.dialect {
                    case .emoji: replacements.append(Splice(token.range, priority.emoji ?? ""))
                    case .tick: replacements.append(Splice(token.valueRange, priority.name))
                    case .dataview: replacements.append(Splice(token.valueRange, TokenFormat.dataviewWord(priority)))
                    }
                } else if let text = TokenFormat.priority(priority, dialect: dialect) {
                    appended.append(text)
                }
            case .setText(let field, let value):
                if let token = firstLive({ $0.field == field }) {
                    var newValue = value
                    if field == .recurrence, token.dialect != .tick, !value.lowercased().hasPrefix("every") {
                        newValue = "every " + RecurrenceRule.english(value)
                        if token.dialect == .emoji {
                            replacements.append(Splice(token.valueRange, newValue))
                            continue
                        }
                    }
                    replacements.append(Splice(token.valueRange, newValue))
                } else {
                    appended.append(TokenFormat.text(field, value, dialect: dialect))
                }
            case .addTag(let tag):
                let wanted = tag.lowercased()
                let has = tokens.contains { $0.field == .tag && !isRemoved($0) && $0.value.text?.lowercased() == wanted }
                if !has && !appended.contains(where: { $0.lowercased() == "#" + wanted }) { appended.append("#" + tag) }
            case .removeTag(let tag):
                let wanted = tag.lowercased()
                for token in tokens where token.field == .tag && token.value.text?.lowercased() == wanted { remove(token.range) }
                appended.removeAll { $0.lowercased() == "#" + wanted }
            case .replaceText(let text):
                let stretches = textStretches(of: item, bytes: bytes)
                let afterRule =
                    stretches.first.map { first in
                        tokens.contains {
                            $0.field == .recurrence && $0.dialect == .emoji && $0.range.upperBound <= first.lowerBound
                                && bytes[$0.range.upperBound..<first.lowerBound].allSatisfy { $0 == 0x20 || $0 == 0x09 }
                        }
                    } ?? false
                if afterRule {
                    // Words right after an emoji rule would read as part of it:
                    // the new text goes first, as Obsidian Tasks writes it.
                    replacements.append(Splice.insert(text + " ", at: item.titleRange.lowerBound))
                    for stretch in stretches { remove(stretch) }
                } else if let first = stretches.first {
                    replacements.append(Splice(first, text))
                    for stretch in stretches.dropFirst() { remove(stretch) }
                } else if item.titleRange.isEmpty {
                    replacements.append(Splice.insert(text, at: item.titleRange.lowerBound))
                } else {
                    replacements.append(Splice.insert(text + " ", at: item.titleRange.lowerBound))
                }
            }
        }

        var splices = replacements
        splices += removalSplices(removals, title: item.titleRange, bytes: bytes)

        if !appended.isEmpty {
            // Before a trailing tick-dialect block id that stays, else at the end.
            let trailingID = tokens.last.flatMap { token -> MetadataToken? in
                token.field == .blockID && token.dialect == .tick && token.range.upperBound == item.titleRange.upperBound
                    && !isRemoved(token) ? token : nil
            }
            let joined = appended.joined(separator: " ")
            if let id = trailingID {
                splices.append(Splice.insert(joined + " ", at: id.range.lowerBound))
            } else if trailingRecurrenceSign(item, bytes: bytes, tokens: tokens) != nil,
                !splices.contains(where: { $0.range.lowerBound == item.titleRange.lowerBound })
            {
                // A bare 🔁 at the end would read what follows as its rule
                // (`🔁 !high` is a rule "!high"), and so would any other bare
                // 🔁 before the new tokens: they go first in the title.
                splices.append(Splice.insert(joined + " ", at: item.titleRange.lowerBound))
            } else {
                let offset = item.titleRange.upperBound
                let before = precedingByte(at: offset, splices: splices, bytes: bytes, floor: item.boxRange.upperBound)
                let needsSpace = !(before == 0x20 || before == 0x09)
                splices.append(Splice.insert((needsSpace ? " " : "") + joined, at: offset))
            }
        }
        return splices
    }

    /// The bytes of a 🔁 (with or without U+FE0F) that ends the title as
    /// plain text, not as a token.
    static func trailingRecurrenceSign(_ item: TaskItem, bytes: [UInt8], tokens: [MetadataToken]) -> Range<Int>? {
        let end = item.titleRange.upperBound
        if let last = tokens.last, last.range.upperBound == end { return nil }
        for sign in [[0xF0, 0x9F, 0x94, 0x81, 0xEF, 0xB8, 0x8F], [0xF0, 0x9F, 0x94, 0x81]] as [[UInt8]] {
            let start = end - sign.count
            if start >= item.titleRange.lowerBound, Array(bytes[start..<end]) == sign { return start..<end }
        }
        return nil
    }

    /// The stretches of the title that are not tokens, without their
    /// surrounding white space, in order.
    static func textStretches(of item: TaskItem, bytes: [UInt8]) -> [Range<Int>] {
        var stretches: [Range<Int>] = []
        var cursor = item.titleRange.lowerBound
        func add(_ range: Range<Int>) {
            var start = range.lowerBound
            var end = range.upperBound
            while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
            while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            if start < end { stretches.append(start..<end) }
        }
        for token in item.runs.tokens {
            add(cursor..<token.range.lowerBound)
            cursor = token.range.upperBound
        }
        add(cursor..<item.titleRange.upperBound)
        return stretches
    }

    /// Deletions for `ranges`, each widened by one adjacent space inside the
    /// title: the one before it, else the one after it, never one another
    /// deletion already took.
    static func removalSplices(_ ranges: [Range<Int>], title: Range<Int>, bytes: [UInt8]) -> [Splice] {
        var claimed = Set<Int>()
        for range in ranges { claimed.formUnion(range) }
        var result: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            var widened = range
            let before = range.lowerBound - 1
            let after = range.upperBound
            if before >= title.lowerBound, bytes[before] == 0x20 || bytes[before] == 0x09, !claimed.contains(before) {
                widened = before..<range.upperBound
                claimed.insert(before)
            } else if after < title.upperBound, bytes[after] == 0x20 || bytes[after] == 0x09, !claimed.contains(after) {
                widened = range.lowerBound..<after + 1
                claimed.insert(after)
            }
            result.append(widened)
        }
        return mergedDeletions(result).map(Splice.delete)
    }

    /// The byte that will stand just before `offset` once `splices` apply
    /// (0 when there is none after `floor`).
    static func precedingByte(at offset: Int, splices: [Splice], bytes: [UInt8], floor: Int) -> UInt8 {
        var position = offset
        while position > floor {
            if let splice = splices.first(where: { $0.range.upperBound == position && !$0.range.isEmpty }) {
                if let last = splice.replacement.last { return last }
                position = splice.range.lowerBound
                continue
            }
            if let insertion = splices.first(where: { $0.range.isEmpty && $0.range.lowerBound == position }),
                let last = insertion.replacement.last
            {
                return last
            }
            return bytes[position - 1]
        }
        return 0
    }
}

/// Joins deletion ranges that overlap or touch.
func mergedDeletions(_ ranges: [Range<Int>]) -> [Range<Int>] {
    var merged: [Range<Int>] = []
    for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
        if let last = merged.last, range.lowerBound <= last.upperBound {
            merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
        } else {
            merged.append(range)
        }
    }
    return merged
}

extension TokenEdit {
    /// Title text typed by a person (`tick add`) with its metadata tokens
    /// rewritten in `dialect`, so that a new item looks like its neighbours.
    /// Tags and block ids read the same in every dialect and are kept, and so
    /// is every byte that is not a token.
    public static func title(_ text: String, in dialect: MetadataDialect) -> String {
        let document = DocumentParser.parse("- [ ] " + text, path: "")
        guard let item = document.items.first else { return text }
        var splices: [Splice] = []
        for token in item.runs.tokens where token.dialect != dialect && token.field != .tag && token.field != .blockID {
            let rewritten: String?
            switch token.value {
            case .priority(let priority): rewritten = TokenFormat.priority(priority, dialect: dialect)
            case .date(let date): rewritten = TokenFormat.date(token.field, date, dialect: dialect)
            case .text(let value): rewritten = TokenFormat.text(token.field, value, dialect: dialect)
            }
            if let rewritten { splices.append(Splice(token.range, rewritten)) }
        }
        guard !splices.isEmpty, let bytes = try? Splice.apply(splices, to: document.source.bytes),
            DocumentParser.parse(bytes, path: "").items.first?.metadata.due == item.metadata.due
        else { return text }
        return String(decoding: bytes.dropFirst(6), as: UTF8.self)
    }
}
