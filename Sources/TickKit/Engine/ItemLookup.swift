/// Finds the item a user named: `PATH:LINE`, `^id`, or text that matches
/// exactly one item's title (case-insensitive substring; open items first,
/// or done and cancelled ones first for `reopen`).
public enum ItemLookup {
    /// Where an item is: indices into the documents and their items.
    public struct Location: Hashable, Sendable {
        public var document: Int
        public var item: Int
        public init(document: Int, item: Int) {
            self.document = document
            self.item = item
        }
    }

    public enum Failure: Error, Equatable {
        case unknown(String, candidates: [String])
        case ambiguous(String, candidates: [String])
    }

    /// With `preferringCompleted`, a title matching several items picks
    /// among the done and cancelled ones first (`reopen`: reopening an open
    /// item does nothing), else among the open ones.
    public static func resolve(_ spec: String, in documents: [Document], preferringCompleted: Bool = false) throws(Failure) -> Location {
        // PATH:LINE
        if let colon = spec.lastIndex(of: ":"), let line = Int(spec[spec.index(after: colon)...]) {
            let path = String(spec[..<colon])
            let wanted = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
            if let documentIndex = documents.firstIndex(where: { $0.path == wanted }) {
                let document = documents[documentIndex]
                if let item = document.items.firstIndex(where: { $0.line == line }) {
                    return Location(document: documentIndex, item: item)
                }
                throw .unknown(spec, candidates: document.items.map { document.address(of: $0) + "  " + $0.title })
            }
        }
        // ^id
        if spec.hasPrefix("^"), spec.count > 1 {
            let id = String(spec.dropFirst())
            let matches = all(in: documents) { $0.metadata.id == id }
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 { throw .ambiguous(spec, candidates: describe(matches, documents)) }
            throw .unknown(spec, candidates: [])
        }
        // Title text.
        let wanted = spec.lowercased()
        let matches = all(in: documents) { $0.title.lowercased().contains(wanted) }
        let exact = matches.filter { documents[$0.document].items[$0.item].title.lowercased() == wanted }
        let preferred = { (location: Location) in isOpen(location, documents) != preferringCompleted }
        for group in [exact.filter(preferred), exact, matches.filter(preferred), matches] where !group.isEmpty {
            if group.count == 1 { return group[0] }
            throw .ambiguous(spec, candidates: describe(group, documents))
        }
        throw .unknown(spec, candidates: [])
    }

    private static func isOpen(_ location: Location, _ documents: [Document]) -> Bool {
        documents[location.document].items[location.item].status.isOpen
    }

    private static func all(in documents: [Document], where test: (TaskItem) -> Bool) -> [Location] {
        var found: [Location] = []
        for (documentIndex, document) in documents.enumerated() {
            for item in document.items where test(item) {
                found.append(Location(document: documentIndex, item: item.index))
            }
        }
        return found
    }

    /// `PATH:LINE  title` for each location, for error messages.
    public static func describe(_ locations: [Location], _ documents: [Document]) -> [String] {
        locations.map {
            let document = documents[$0.document]
            let item = document.items[$0.item]
            return "\(document.address(of: item))  \(item.title)"
        }
    }
}
