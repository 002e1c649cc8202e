/// Every list of a notes folder, loaded once, with every item in manual order.
///
/// The engine's input: `items` holds each item of each list exactly once,
/// ordered by list (`order:`, then name, then path) and then by position in
/// the file. It is a plain value; building one from documents touches no files.
public struct Workspace: Sendable {
    /// The lists, in the order the folder scan found them (by path).
    public let documents: [Document]
    /// `listRanks[i]` is the place of `documents[i]` among all lists.
    public let listRanks: [Int]
    /// Every item of every list, in manual order.
    public let items: [ListedItem]
    /// What was skipped while loading (unreadable or non-UTF-8 files, links out of the root).
    public let warnings: [String]

    public init(documents: [Document], warnings: [String] = []) {
        self.documents = documents
        self.warnings = warnings
        let ranks = SortKey.listRanks(documents)
        listRanks = ranks
        var items: [ListedItem] = []
        items.reserveCapacity(documents.reduce(0) { $0 + $1.items.count })
        for documentIndex in documents.indices.sorted(by: { ranks[$0] < ranks[$1] }) {
            let document = documents[documentIndex]
            for item in document.items {
                items.append(ListedItem(document: document, item: item, listRank: ranks[documentIndex]))
            }
        }
        self.items = items
    }

    /// Scans and parses the folder's lists in parallel, taking unchanged
    /// files from `cache` when one is given. The documents do not keep their
    /// files' bytes: a workspace is for reading, never for edits.
    public static func load(_ folder: NotesFolder, cache: ParseCache? = nil) -> Workspace {
        let (documents, warnings) = folder.loadAll(cache: cache, keepingBytes: false)
        return Workspace(documents: documents, warnings: warnings)
    }

    /// The lists in list order (`order:`, then name, then path).
    public var listsInOrder: [Document] {
        documents.indices.sorted { listRanks[$0] < listRanks[$1] }.map { documents[$0] }
    }

    /// The items of one list, in file order.
    public func items(of document: Document) -> [ListedItem] {
        items.filter { $0.document.path == document.path }
    }
}
