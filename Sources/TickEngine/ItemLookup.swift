import TickModel
import TickRecords
import TickSystem

/// Finds the item a user named: `PATH:LINE`, `^id`, or text that matches
/// exactly one item's title (case-insensitive substring; open items first,
/// or done and cancelled ones first for `reopen`).
///
/// The same rules search the read model (`EncodedDocument`, a whole folder
/// before anything is locked) and freshly parsed `Document`s (the files an
/// edit locked), through `LookupList`.
public enum ItemLookup {
    /// Where an item is: indices into the lists and their items.
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
    ///
    /// `opening` is called with each list before its items are first read
    /// (on the thread that reads them): the read model checks a list read
    /// from the parse cache there, as the search reaches it.
    public static func resolve<List: LookupList>(
        _ spec: String, in documents: [List], preferringCompleted: Bool = false, opening: (List) -> Void = { _ in }
    ) throws(Failure) -> Location {
        // PATH:LINE
        if let colon = spec.lastIndex(of: ":"), let line = Int(spec[spec.index(after: colon)...]) {
            let path = String(spec[..<colon])
            let wanted = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
            if let documentIndex = documents.firstIndex(where: { $0.path == wanted }) {
                let document = documents[documentIndex]
                opening(document)
                if let item = (0..<document.itemCount).first(where: { document.line(of: $0) == line }) {
                    return Location(document: documentIndex, item: item)
                }
                throw .unknown(spec, candidates: describe((0..<document.itemCount).map { Location(document: documentIndex, item: $0) }, documents))
            }
        }
        // ^id
        if spec.hasPrefix("^"), spec.count > 1 {
            let id = String(spec.dropFirst())
            let matches = all(in: documents, opening: opening) { list in (0..<list.itemCount).filter { list.id(of: $0) == id } }
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 { throw .ambiguous(spec, candidates: describe(matches, documents)) }
            throw .unknown(spec, candidates: [])
        }
        // Title text.
        let wanted = spec.lowercased()
        let matches = all(in: documents, opening: opening) { $0.items(whoseTitleLowercasedContains: wanted) }
        let exact = matches.filter { documents[$0.document].title(of: $0.item).lowercased() == wanted }
        let preferred = { (location: Location) in documents[location.document].isOpen(location.item) != preferringCompleted }
        for group in [exact.filter(preferred), exact, matches.filter(preferred), matches] where !group.isEmpty {
            if group.count == 1 { return group[0] }
            throw .ambiguous(spec, candidates: describe(group, documents))
        }
        throw .unknown(spec, candidates: [])
    }

    /// The items `matching` finds in each list (their indices, in file
    /// order), in order; the lists are searched on every core, chunk by
    /// chunk in the order their bytes lie (`readingPosition`), so that a
    /// search reads the parse cache from front to back.
    private static func all<List: LookupList>(in documents: [List], opening: (List) -> Void, where matching: (List) -> [Int]) -> [Location] {
        let positions = documents.map(\.readingPosition)
        let readingOrder = documents.indices.sorted { (positions[$0], $0) < (positions[$1], $1) }
        let chunkSize = max(64, documents.count / 32)
        let chunks = (documents.count + chunkSize - 1) / chunkSize
        var found = Array(
            Parallel.map(chunks) { chunk in
                let chunkOrder = readingOrder[chunk * chunkSize..<min(documents.count, (chunk + 1) * chunkSize)]
                var found: [Location] = []
                for documentIndex in chunkOrder {
                    let document = documents[documentIndex]
                    opening(document)
                    for item in matching(document) { found.append(Location(document: documentIndex, item: item)) }
                }
                List.finishedReading(chunkOrder.map { documents[$0] }[...])
                return found
            }.joined())
        found.sort { ($0.document, $0.item) < ($1.document, $1.item) }
        return found
    }

    /// `PATH:LINE  title` for each location, for error messages.
    public static func describe<List: LookupList>(_ locations: [Location], _ documents: [List]) -> [String] {
        locations.map {
            let document = documents[$0.document]
            return "\(document.path):\(document.line(of: $0.item))  \(document.title(of: $0.item))"
        }
    }
}

extension EncodedWorkspace {
    /// The item `spec` names (`ItemLookup.resolve`) among the lists in path
    /// order, or only in `lists` when given (some of `documents`): the list
    /// and the item's index in it. A list read from the parse cache is
    /// checked as the search first reads it, on every core, rather than
    /// every list before the search (which read the whole cache twice), and
    /// the cache is saved once after when any was found damaged.
    public func locate(_ spec: String, in lists: [EncodedDocument]? = nil, preferringCompleted: Bool = false) throws(ItemLookup.Failure)
        -> (list: EncodedDocument, item: Int)
    {
        let lists = lists ?? documents
        defer { saveRepairs() }
        let location = try ItemLookup.resolve(spec, in: lists, preferringCompleted: preferringCompleted, opening: { checkWithoutSaving($0) })
        return (lists[location.document], location.item)
    }
}

/// What `ItemLookup` and `ListLookup` read of a list: its path and name,
/// and each item's line, display title, block id and status.
public protocol LookupList {
    var path: String { get }
    var name: String { get }
    var itemCount: Int { get }
    func line(of item: Int) -> Int
    func title(of item: Int) -> String
    func id(of item: Int) -> String?
    func isOpen(_ item: Int) -> Bool
    /// The items whose title, lowercased, contains `wanted` (lowercased),
    /// by index, in file order.
    func items(whoseTitleLowercasedContains wanted: String) -> [Int]
    /// Called when a search has read the items of `lists`: memory read in
    /// place can be let go.
    static func finishedReading(_ lists: ArraySlice<Self>)
    /// Where the list's bytes lie among the other lists' (an address in the
    /// parse cache's mapping; 0 for a list whose bytes are its own).
    var readingPosition: Int { get }
}

extension LookupList {
    public static func finishedReading(_ lists: ArraySlice<Self>) {}
    public var readingPosition: Int { 0 }

    public func items(whoseTitleLowercasedContains wanted: String) -> [Int] {
        (0..<itemCount).filter { title(of: $0).lowercased().contains(wanted) }
    }
}

extension Document: LookupList {
    public var itemCount: Int { items.count }
    public func line(of item: Int) -> Int { items[item].line }
    public func title(of item: Int) -> String { items[item].title }
    public func id(of item: Int) -> String? { items[item].metadata.id }
    public func isOpen(_ item: Int) -> Bool { items[item].status.isOpen }
}

extension EncodedDocument: LookupList {
    public func line(of item: Int) -> Int { self.item(item).line }
    public func title(of item: Int) -> String { self.item(item).title.string }
    public func id(of item: Int) -> String? { self.item(item).id?.string }
    public func isOpen(_ item: Int) -> Bool { self.item(item).status.isOpen }
    public static func finishedReading(_ lists: ArraySlice<EncodedDocument>) {
        CachePages.release(lists)
    }
    public var readingPosition: Int { mappedPosition }

    /// Compares bytes in place when a title and `wanted` are ASCII (then
    /// lowercasing is ASCII's and characters are bytes: the same answer as
    /// the `String` comparison, without making a `String` per item). The
    /// titles are read in place (`titles`): no item value, which retains
    /// and releases the list, is made for each.
    public func items(whoseTitleLowercasedContains wanted: String) -> [Int] {
        let titles = self.titles
        var needle = wanted
        return needle.withUTF8 { needle in
            // (An empty needle is left to `String`, which finds it nowhere.)
            let needleIsASCII = !needle.isEmpty && ByteText.isASCII(needle)
            return titles.indices.filter { index in
                let title = titles[index].bytes
                if needleIsASCII, ByteText.isASCII(title) { return ByteText.containsASCIICaseFolded(title, needle) }
                return titles[index].string.lowercased().contains(wanted)
            }
        }
    }

    private func item(_ index: Int) -> EncodedListedItem {
        if !isComplete { complete { _ in } }
        return EncodedListedItem(document: self, index: index, listRank: 0)
    }
}

extension ItemLookup.Failure: TickErrorConvertible {
    /// One line for the user: what was not found or is ambiguous, and the candidates.
    public var message: String {
        switch self {
        case .unknown(let spec, let candidates):
            let base = "no item matches '\(spec)'"
            return candidates.isEmpty
                ? base + "; name it by PATH:LINE, ^id or part of its title"
                : base + "; items there: " + candidates.prefix(8).joined(separator: "; ")
        case .ambiguous(let spec, let candidates):
            return "'\(spec)' matches \(candidates.count) items; name one by PATH:LINE: "
                + candidates.prefix(10).joined(separator: "; ") + (candidates.count > 10 ? "; …" : "")
        }
    }

    public var tickError: TickError { .badData(message) }
}
