import TickSystem

/// One item of a list: a list item whose first paragraph starts with a box.
///
/// Every range is a half-open byte range into the document's bytes and is
/// exact in CRLF files, after a byte-order mark, with tabs, multibyte UTF-8,
/// front matter, block quotes, ordered lists and nesting.
public struct TaskItem: Sendable {
    /// The item's position in `Document.items` (file order).
    public var index: Int
    /// 1-based line of the box: with the path, the item's address.
    public var line: Int
    /// The last line of the item's block (its notes and subtasks included,
    /// trailing blank lines excluded).
    public var lastLine: Int
    public var status: TaskStatus
    /// The list marker (`-`, `*`, `+`, `1.`, `1)`).
    public var markerRange: Range<Int>
    /// The three bytes of the box, `[ ]`.
    public var boxRange: Range<Int>
    /// The title: from the first non-blank byte after the box to the last
    /// non-blank byte of the line.
    public var titleRange: Range<Int>
    /// The whole block: from the start of the item's first line to the end of
    /// its last line, line ending included.
    public var blockRange: Range<Int>
    /// Number of enclosing items (0 for a top-level item).
    public var depth: Int
    /// The enclosing item's index in `Document.items`.
    public var parent: Int?
    /// Indices of the items directly nested in this one.
    public var children: [Int]
    /// Index in `Document.sections` of the nearest heading above.
    public var section: Int?
    /// Number of block quotes around the item.
    public var quoteDepth: Int
    /// The title's parsed metadata.
    public var metadata: ItemMetadata
    /// The display title: runs without metadata tokens, spaces collapsed.
    public var title: String
    /// The title's source bytes, as written.
    public var text: String
    /// True when `text` holds no inline markup (`TitleParser.isPlain`): its
    /// runs are plain text and tokens. The parser learns it while reading
    /// the title, so nothing scans the title again for it.
    public package(set) var textIsPlain: Bool
    /// The notes, with the item's content indentation removed; nil when empty.
    public var notes: String?
    /// The lines (1-based) that hold the notes.
    public var noteLines: [Int]
    /// The title's bytes, kept only when they are not valid UTF-8 (then
    /// `text` shows U+FFFD in their place and could not give exact ranges).
    public var invalidTitleBytes: [UInt8]? = nil

    /// Every stored property, as the memberwise initializer takes them.
    package init(
        index: Int, line: Int, lastLine: Int, status: TaskStatus, markerRange: Range<Int>, boxRange: Range<Int>, titleRange: Range<Int>,
        blockRange: Range<Int>, depth: Int, parent: Int? = nil, children: [Int], section: Int? = nil, quoteDepth: Int, metadata: ItemMetadata,
        title: String, text: String, textIsPlain: Bool, notes: String? = nil, noteLines: [Int], invalidTitleBytes: [UInt8]? = nil
    ) {
        self.index = index
        self.line = line
        self.lastLine = lastLine
        self.status = status
        self.markerRange = markerRange
        self.boxRange = boxRange
        self.titleRange = titleRange
        self.blockRange = blockRange
        self.depth = depth
        self.parent = parent
        self.children = children
        self.section = section
        self.quoteDepth = quoteDepth
        self.metadata = metadata
        self.title = title
        self.text = text
        self.textIsPlain = textIsPlain
        self.notes = notes
        self.noteLines = noteLines
        self.invalidTitleBytes = invalidTitleBytes
    }
}

/// The metadata of one item, read from the tokens of its title line.
///
/// When a field is written twice, the first token wins.
public struct ItemMetadata: Sendable, Hashable {
    /// The ids of a dependency token's (checked) value (`a,b` or `a, b`).
    package static func dependencyIDs(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingWhiteSpace() }.filter { !$0.isEmpty }
    }

    public var priority: Priority = .normal
    /// True when a priority token was written (the default is `normal`).
    public var hasPriority = false
    public var due: TaskDate?
    public var scheduled: TaskDate?
    public var start: TaskDate?
    public var created: TaskDate?
    public var done: TaskDate?
    public var cancelled: TaskDate?
    /// The recurrence rule as written (`week`, `every 2 weeks`).
    public var every: String?
    public var tags: [String] = []
    public var color: String?
    public var icon: String?
    public var id: String?
    /// The ids of the items this one waits for, in the order written
    /// (several tokens add up; an id is kept once).
    public var dependsOn: [String] = []
    /// What `tick done` does with the item once it is done: `delete` or
    /// `keep` (lowercase); nil when not written (`keep`).
    public var onCompletion: String?
    /// Other `key:value` fields, in the order written.
    public var fields: [(key: String, value: String)] = []
    /// The values of the fields that have no property of their own
    /// (`MetadataField.keptInMore`), the first token of each, in
    /// `keptInMore` order: a field added to the table is kept here, read
    /// from the cache and written to JSON with no code of its own.
    public private(set) var more: [(field: MetadataField, value: MetadataValue)] = []
    /// The dialect of the first token that is not a tag, if any.
    public var dialect: MetadataDialect?

    public init() {}

    public static func == (lhs: ItemMetadata, rhs: ItemMetadata) -> Bool {
        lhs.priority == rhs.priority && lhs.hasPriority == rhs.hasPriority && lhs.due == rhs.due
            && lhs.scheduled == rhs.scheduled && lhs.start == rhs.start && lhs.created == rhs.created
            && lhs.done == rhs.done && lhs.cancelled == rhs.cancelled && lhs.every == rhs.every
            && lhs.tags == rhs.tags && lhs.color == rhs.color && lhs.icon == rhs.icon && lhs.id == rhs.id
            && lhs.dependsOn == rhs.dependsOn && lhs.onCompletion == rhs.onCompletion
            && lhs.fields.map(\.key) == rhs.fields.map(\.key) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
            && lhs.more.map(\.field) == rhs.more.map(\.field) && lhs.more.map(\.value) == rhs.more.map(\.value)
            && lhs.dialect == rhs.dialect
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(due)
        hasher.combine(priority)
        hasher.combine(tags)
        hasher.combine(id)
    }

    /// The date stored for a date field.
    public func date(_ field: MetadataField) -> TaskDate? {
        switch field {
        case .due: due
        case .scheduled: scheduled
        case .start: start
        case .created: created
        case .done: done
        case .cancelled: cancelled
        default: value(field)?.date
        }
    }

    /// The value of a field kept in `more`; nil when not written.
    public func value(_ field: MetadataField) -> MetadataValue? {
        more.first { $0.field == field }?.value
    }

    /// Sets the value of a field kept in `more` (for the parse cache, which
    /// stores them in `keptInMore` order).
    package mutating func setValue(_ value: MetadataValue, of field: MetadataField) {
        if let index = more.firstIndex(where: { $0.field == field }) {
            more[index].value = value
            return
        }
        more.append((field, value))
        func rank(_ field: MetadataField) -> Int { MetadataField.keptInMore.firstIndex(of: field) ?? Int.max }
        more.sort { rank($0.field) < rank($1.field) }
    }

    /// Folds the tokens of a title into metadata.
    public init(tokens: [MetadataToken]) {
        for token in tokens { add(token) }
    }

    /// Folds one more token (the next in title order) into the metadata.
    package mutating func add(_ token: MetadataToken) {
        if dialect == nil, token.field != .tag { dialect = token.dialect }
        switch (token.field, token.value) {
        case (.priority, .priority(let value)):
            if !hasPriority {
                priority = value
                hasPriority = true
            }
        case (.due, .date(let date)): due = due ?? date
        case (.scheduled, .date(let date)): scheduled = scheduled ?? date
        case (.start, .date(let date)): start = start ?? date
        case (.created, .date(let date)): created = created ?? date
        case (.done, .date(let date)): done = done ?? date
        case (.cancelled, .date(let date)): cancelled = cancelled ?? date
        case (.recurrence, .text(let rule)): every = every ?? rule
        case (.tag, .text(let tag)): if !tags.contains(tag) { tags.append(tag) }
        case (.color, .text(let value)): color = color ?? value
        case (.icon, .text(let value)): icon = icon ?? value
        case (.blockID, .text(let value)): id = id ?? value
        case (.dependsOn, .text(let value)):
            for id in Self.dependencyIDs(value) where !dependsOn.contains(id) { dependsOn.append(id) }
        case (.onCompletion, .text(let value)): onCompletion = onCompletion ?? value.lowercased()
        case (.other(let key), .text(let value)): fields.append((key, value))
        case (let field, let value) where MetadataField.keptInMore.contains(field):
            if self.value(field) == nil { setValue(value, of: field) }
        default: break
        }
    }
}
