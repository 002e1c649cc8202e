/// The JSON documents of the read commands (SPEC §6), keys in a fixed order.
extension ItemJSON {
    /// `{"today": "...", "items": [...]}`
    public static func items(_ items: [ListedItem], today: TaskDate) -> JSONValue {
        .object([
            ("today", .string(today.isoString)),
            ("items", .array(items.map { item($0.item, in: $0.document) })),
        ])
    }

    /// `{"today": "...", "groups": [{"name": "...", "items": [...]}]}`
    public static func groups(_ groups: [ItemGroup], today: TaskDate) -> JSONValue {
        .object([
            ("today", .string(today.isoString)),
            ("groups", .array(groups.map { group in
                .object([
                    ("name", .string(group.name)),
                    ("items", .array(group.items.map { item($0.item, in: $0.document) })),
                ])
            })),
        ])
    }

    /// `{"today": "...", "lists": [...]}`, lists in list order.
    public static func lists(_ workspace: Workspace, today: TaskDate) -> JSONValue {
        .object([
            ("today", .string(today.isoString)),
            ("lists", .array(workspace.listsInOrder.map { list($0) })),
        ])
    }

    /// The home screen: `{"today": "...", "counts": {"today": N, "scheduled":
    /// N, "all": N, "overdue": N}, "lists": [...]}`.
    public static func home(_ workspace: Workspace, today: TaskDate) -> JSONValue {
        let counts = SmartGroup.homeGroups.map { group in
            (group.rawValue, JSONValue.int(workspace.items.filter { group.contains($0.item, today: today) }.count))
        }
        return .object([
            ("today", .string(today.isoString)),
            ("counts", .object(counts)),
            ("lists", .array(workspace.listsInOrder.map { list($0) })),
        ])
    }
}
