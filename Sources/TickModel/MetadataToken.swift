/// The three ways of writing metadata that tick reads (SPEC §3.2).
public enum MetadataDialect: String, Sendable, Codable {
    /// `!high due:2026-11-24 every:week ^id`
    case tick
    /// Obsidian Tasks' signifiers: `⏫ 📅 2026-11-24 🔁 every week 🆔 id`
    case emoji
    /// Dataview inline fields: `[priority:: high] [due:: 2026-11-24]`
    case dataview
}

/// What a metadata token sets.
public enum MetadataField: Sendable, Hashable {
    case priority
    case due
    case scheduled
    case start
    case created
    case done
    case cancelled
    case recurrence
    case tag
    case color
    case icon
    case blockID
    /// The ids of the items this one waits for (`after:a,b`, `⛔ a,b`, `[dependsOn:: a,b]`).
    case dependsOn
    /// What `done` does with the item: `delete` or `keep` (`oncompletion:delete`, `🏁 delete`).
    case onCompletion
    /// When to be reminded of the item (`remind:2026-11-24T09:00`, `⏰ 2026-11-24T09:00`, `[remind:: 2026-11-24 09:00]`).
    case remind
    /// Any other `key:value` or `[key:: value]`, with its lowercase key.
    case other(String)

    /// The date fields, in the order the JSON shows them.
    public static let dateFields: [MetadataField] = [.due, .scheduled, .start, .created, .done, .cancelled]

    /// The tick-dialect key (`due`), used in messages and for writing.
    public var key: String {
        switch self {
        case .tag: "tag"
        case .other(let key): key
        default: spelling!.keys[0]
        }
    }
}

// MARK: - The field table

extension MetadataField {
    /// What a field's value is, and so how it is read and checked.
    public enum ValueKind: Sendable, Equatable {
        /// `YYYY-MM-DD`, or with a time (`YYYY-MM-DDTHH:MM`; a space for the
        /// `T` in a Dataview field).
        case date
        /// A priority word (`high`), or an emoji sign of its own.
        case priority
        /// A color name or `#rrggbb`.
        case color
        /// A recurrence rule (`every week`, `week`).
        case recurrence
        /// Ids separated by commas (`a,b`).
        case ids
        /// One of a few words, any case, kept lowercase; `noun` names the
        /// value in messages ("unknown on-completion action 'x'").
        case choice([String], noun: String)
        /// An id: letters, digits, `-` and `_`.
        case id
        /// Any text.
        case text

        /// The kind as `MetadataField.tableDescription` writes it.
        var tableDescription: String {
            switch self {
            case .date: "date"
            case .priority: "priority"
            case .color: "color"
            case .recurrence: "recurrence"
            case .ids: "ids"
            case .choice(let words, let noun): "choice(\(words.joined(separator: ",")); \(noun))"
            case .id: "id"
            case .text: "text"
            }
        }
    }

    /// How a field is spelled in each dialect, and what its value is.
    public struct Spelling: Sendable {
        /// The keys that name the field in `key:value` and in Dataview's
        /// `[key:: value]`, lowercase; the first is the one written.
        public var keys: [String]
        /// Whether the keys are read only in Dataview fields (`[priority:: high]`;
        /// the tick dialect has `!high` and `^id` instead).
        public var dataviewOnly = false
        /// The key written in a Dataview field, when it is not the first of `keys`.
        public var dataviewKey: String?
        /// Obsidian Tasks' signifiers (`📅`); the first is the one written.
        public var emoji: [String] = []
        public var value: ValueKind
        /// Where a field with no property of its own in `ItemMetadata` (kept
        /// in `ItemMetadata.more`) shows in an item's JSON: its key there.
        /// Nil for the fields SPEC §6 lists.
        public var jsonKey: String?
    }

    /// Every field a token can set, in the order the tables below list them
    /// (tags and other `key:value` fields excepted).
    public static let described: [MetadataField] = [
        .priority, .due, .scheduled, .start, .created, .done, .cancelled, .recurrence, .color, .icon, .blockID,
        .dependsOn, .onCompletion, .remind,
    ]

    /// How this field is written and read: the one description of a field,
    /// which the scanner, the token writer, the parse cache and the JSON
    /// writer read. Nil for tags and for other `key:value` fields.
    ///
    /// To add a field, see "Adding an item field" in docs/ARCHITECTURE.md:
    /// a case above, its spelling here, its place in `described`.
    public var spelling: Spelling? {
        switch self {
        case .priority: Spelling(keys: ["priority"], dataviewOnly: true, value: .priority)
        case .due: Spelling(keys: ["due"], emoji: ["📅", "📆", "🗓"], value: .date)
        case .scheduled: Spelling(keys: ["scheduled"], emoji: ["⏳", "⌛"], value: .date)
        case .start: Spelling(keys: ["start"], emoji: ["🛫"], value: .date)
        case .created: Spelling(keys: ["created"], emoji: ["➕"], value: .date)
        case .done: Spelling(keys: ["done", "completion"], dataviewKey: "completion", emoji: ["✅"], value: .date)
        case .cancelled: Spelling(keys: ["cancelled"], emoji: ["❌"], value: .date)
        case .recurrence: Spelling(keys: ["every", "repeat"], dataviewKey: "repeat", emoji: ["🔁"], value: .recurrence)
        case .color: Spelling(keys: ["color"], value: .color)
        case .icon: Spelling(keys: ["icon"], value: .text)
        case .blockID: Spelling(keys: ["id"], dataviewOnly: true, emoji: ["🆔"], value: .id)
        case .dependsOn: Spelling(keys: ["after", "dependson"], dataviewKey: "dependsOn", emoji: ["⛔"], value: .ids)
        case .onCompletion:
            Spelling(
                keys: ["oncompletion"], dataviewKey: "onCompletion", emoji: ["🏁"],
                value: .choice(["delete", "keep"], noun: "on-completion action"))
        case .remind: Spelling(keys: ["remind"], emoji: ["⏰"], value: .date, jsonKey: "remind")
        case .tag, .other: nil
        }
    }

    /// The field a key names in `dialect` (`due`, `completion`), or nil.
    public static func named(_ key: String, in dialect: MetadataDialect) -> MetadataField? {
        let table = dialect == .dataview ? keysInDataview : keysInTick
        return table[key]
    }

    private static let keysInDataview: [String: MetadataField] = keyTable(dataview: true)
    private static let keysInTick: [String: MetadataField] = keyTable(dataview: false)

    private static func keyTable(dataview: Bool) -> [String: MetadataField] {
        var table: [String: MetadataField] = [:]
        for field in described {
            let spelling = field.spelling!
            guard dataview || !spelling.dataviewOnly else { continue }
            for key in spelling.keys { table[key] = field }
        }
        return table
    }

    /// Every field's spelling as text: what a parse cache records of the
    /// table it was written with.
    ///
    /// Written out field by field rather than with `String(describing:)`:
    /// reflection's printing looks up protocol conformances, about half a
    /// millisecond of every command that opens the cache. A property added to
    /// `Spelling` belongs here too.
    public static var tableDescription: String {
        described.map { field in
            let spelling = field.spelling!
            return [
                field.key, spelling.keys.joined(separator: ","), spelling.dataviewOnly ? "dataview-only" : "both",
                spelling.dataviewKey ?? "-", spelling.emoji.isEmpty ? "-" : spelling.emoji.joined(separator: ","), spelling.value.tableDescription,
                spelling.jsonKey ?? "-",
            ].joined(separator: " ")
        }.joined(separator: "\n")
    }

    /// The fields `ItemMetadata` keeps in `more` (those with a `jsonKey`),
    /// in `described` order: the order the cache and the JSON write them.
    public static let keptInMore: [MetadataField] = described.filter { $0.spelling?.jsonKey != nil }
}

/// A token's parsed value.
public enum MetadataValue: Sendable, Hashable {
    case priority(Priority)
    case date(TaskDate)
    case text(String)

    public var date: TaskDate? { if case .date(let date) = self { date } else { nil } }
    public var text: String? { if case .text(let text) = self { text } else { nil } }
}

/// One metadata token of a title line, with the exact bytes it came from.
///
/// `range` covers the whole token (`due:2026-11-24`, `📅 2026-11-24`,
/// `[due:: 2026-11-24]`); `valueRange` covers only its value (`2026-11-24`),
/// so an edit can replace exactly the value's bytes.
public struct MetadataToken: Sendable, Hashable {
    public var field: MetadataField
    public var dialect: MetadataDialect
    public var range: Range<Int>
    public var valueRange: Range<Int>
    public var value: MetadataValue

    public init(field: MetadataField, dialect: MetadataDialect, range: Range<Int>, valueRange: Range<Int>, value: MetadataValue) {
        self.field = field
        self.dialect = dialect
        self.range = range
        self.valueRange = valueRange
        self.value = value
    }
}
