/// The JSON shapes of SPEC §6, with keys in the SPEC's order.
public enum ItemJSON {
    /// One item as SPEC §6 shows it.
    public static func item(_ item: TaskItem, in document: Document) -> JSONValue {
        let metadata = item.metadata
        func date(_ value: TaskDate?) -> JSONValue { .string(value?.isoString) }
        var fields: [(String, JSONValue)] = []
        for field in metadata.fields where !fields.contains(where: { $0.0 == field.key }) {
            fields.append((field.key, .string(field.value)))
        }
        return .object([
            ("path", .string(document.path)),
            ("line", .int(item.line)),
            ("list", .string(document.name)),
            ("section", .string(item.section.map { document.sections[$0].title })),
            ("status", .string(item.status.rawValue)),
            ("title", .string(item.title)),
            ("text", .string(item.text)),
            ("priority", .string(metadata.priority.name)),
            ("due", date(metadata.due)),
            ("scheduled", date(metadata.scheduled)),
            ("start", date(metadata.start)),
            ("created", date(metadata.created)),
            ("done", date(metadata.done)),
            ("cancelled", date(metadata.cancelled)),
            ("every", .string(metadata.every)),
            ("tags", .array(metadata.tags.map { .string($0) })),
            ("color", .string(metadata.color)),
            ("icon", .string(metadata.icon)),
            ("id", .string(metadata.id)),
            ("fields", .object(fields)),
            ("parent", .string(item.parent.map { document.address(of: document.items[$0]) })),
            ("depth", .int(item.depth)),
            ("notes", .string(item.notes)),
            ("listColor", .string(document.color)),
            ("listIcon", .string(document.icon)),
        ])
    }

    /// One list as `tick lists --json` shows it. Front matter keys tick does
    /// not know are kept under `frontMatter`.
    public static func list(_ document: Document) -> JSONValue {
        let known: Set<String> = ["title", "color", "icon", "order"]
        let extra = (document.frontMatter?.values ?? []).filter { !known.contains($0.key) }
        var pairs: [(String, JSONValue)] = [
            ("name", .string(document.name)),
            ("path", .string(document.path)),
            ("color", .string(document.color)),
            ("icon", .string(document.icon)),
            ("open", .int(document.items.filter { $0.status.isOpen }.count)),
            ("done", .int(document.items.filter { $0.status == .done }.count)),
        ]
        if let order = document.order { pairs.append(("order", .int(order))) }
        if !extra.isEmpty { pairs.append(("frontMatter", .object(extra.map { ($0.key, $0.value) }))) }
        return .object(pairs)
    }

    /// `{"today": "...", "items": [...]}`
    public static func items(_ items: [(TaskItem, Document)], today: TaskDate) -> JSONValue {
        .object([("today", .string(today.isoString)), ("items", .array(items.map { item($0.0, in: $0.1) }))])
    }
}
