/// What the read engine needs of one item and its list: enough to evaluate a
/// query, sort, pick smart-group members and print the item's JSON.
///
/// `EncodedListedItem`, an item of the read model, conforms.
public protocol ItemRecord {
    associatedtype Text: ItemText

    var status: TaskStatus { get }
    /// 1-based line of the box.
    var line: Int { get }
    /// Number of enclosing items.
    var depth: Int { get }
    /// The byte offset of the item's block: manual order within a list.
    var fileOffset: Int { get }
    /// The list's place among all lists: manual order across lists.
    var listRank: Int { get }
    var priority: Priority { get }
    var hasPriority: Bool { get }
    func date(_ field: MetadataField) -> TaskDate?

    var title: Text { get }
    var text: Text { get }
    var notes: Text? { get }
    var every: Text? { get }
    var hasTags: Bool { get }
    var tags: [Text] { get }
    var color: Text? { get }
    var icon: Text? { get }
    var id: Text? { get }
    /// The ids the item depends on, joined by commas; nil when none.
    var dependsOnText: Text? { get }
    /// `delete` or `keep`, when written.
    var onCompletion: Text? { get }
    /// Other `key:value` fields in the order written, repeats included.
    var fields: [(key: Text, value: Text)] { get }
    /// The title of the nearest heading above the item.
    var sectionTitle: Text? { get }
    /// The line of the enclosing item.
    var parentLine: Int? { get }
    var hasSubtasks: Bool { get }

    /// The list's path relative to the notes folder.
    var listPath: String { get }
    var listName: String { get }
    var listColor: String { get }
    var listIcon: String { get }
    /// Appends one of the list's fields as a JSON string literal, as
    /// `String.appendJSON` would (an encoded list escapes them once, for
    /// every item of the list it prints).
    func appendListJSON(_ field: ListField, to output: inout ByteOutput)
    /// Calls `body` with each tag, in order (an encoded item reads them
    /// where they lie, with no array).
    func forEachTag(_ body: (Text) -> Void)
    /// Appends `"path:line"` of the enclosing item as a JSON string literal;
    /// nothing when there is none.
    func appendParentJSON(to output: inout ByteOutput)
}

/// The fields of an item's list that its JSON repeats.
public enum ListField: Sendable {
    case path, name, color, icon
}

extension ItemRecord {
    public func forEachTag(_ body: (Text) -> Void) {
        for tag in tags { body(tag) }
    }

    /// `"path:line"` of the enclosing item, as the `parent` field shows it.
    /// The earliest of the due, scheduled and start dates: when the item
    /// happens (Obsidian Tasks' `happens`).
    public var happens: TaskDate? {
        var earliest: TaskDate?
        for field in [MetadataField.due, .scheduled, .start] {
            if let date = date(field), earliest.map({ date.compareDay($0) < 0 }) ?? true { earliest = date }
        }
        return earliest
    }

    /// The ids the item depends on, in order.
    public var dependsOn: [String] { dependsOnText.map { MetadataScanner.dependencyIDs($0.string) } ?? [] }

    public var parentReference: String? { parentLine.map { "\(listPath):\($0)" } }

    public func appendParentJSON(to output: inout ByteOutput) {
        parentReference.map { JSONValue.appendString($0, to: &output) }
    }

    /// One of the list's fields, as `listPath`, `listName`, `listColor` or `listIcon`.
    public func listText(_ field: ListField) -> String {
        switch field {
        case .path: listPath
        case .name: listName
        case .color: listColor
        case .icon: listIcon
        }
    }
}

/// A piece of an item's text: a `String`, or UTF-8 bytes read in place.
public protocol ItemText {
    var string: String { get }
    /// Appends the text as a JSON string literal, quotes included.
    func appendJSON(to output: inout ByteOutput)
}

extension String: ItemText {
    public var string: String { self }
    public func appendJSON(to output: inout ByteOutput) { JSONValue.appendString(self, to: &output) }
}

/// A fixed word (a status, a priority) that needs no escaping.
struct JSONWord: ItemText {
    let word: StaticString
    var string: String { word.description }
    func appendJSON(to output: inout ByteOutput) {
        output.append(UInt8(ascii: "\""))
        output.append(word)
        output.append(UInt8(ascii: "\""))
    }
}

/// A date prints as its `isoString`, straight into the output.
extension TaskDate: ItemText {
    public var string: String { isoString }
    public func appendJSON(to output: inout ByteOutput) {
        output.append(UInt8(ascii: "\""))
        appendISO(to: &output)
        output.append(UInt8(ascii: "\""))
    }
}
