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
    /// Any other `key:value` or `[key:: value]`, with its lowercase key.
    case other(String)

    /// The date fields, in the order the JSON shows them.
    public static let dateFields: [MetadataField] = [.due, .scheduled, .start, .created, .done, .cancelled]

    /// The tick-dialect key (`due`), used in messages and for writing.
    public var key: String {
        switch self {
        case .priority: "priority"
        case .due: "due"
        case .scheduled: "scheduled"
        case .start: "start"
        case .created: "created"
        case .done: "done"
        case .cancelled: "cancelled"
        case .recurrence: "every"
        case .tag: "tag"
        case .color: "color"
        case .icon: "icon"
        case .blockID: "id"
        case .dependsOn: "after"
        case .onCompletion: "oncompletion"
        case .other(let key): key
        }
    }
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
