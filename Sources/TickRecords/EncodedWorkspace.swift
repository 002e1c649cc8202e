import TickModel
import TickSystem

/// Every list of a notes folder, read for answering a query: the
/// counterpart of `Workspace` made of `EncodedDocument`s.
///
/// Unchanged files are read in place from the parse cache, so a repeated
/// query builds no `Document` at all; the others are parsed and encoded
/// first (and the cache saved). `items` holds every item once, in manual
/// order, exactly as `Workspace.items` does; queries, smart groups, sorting
/// and JSON output give the same answers as from a `Workspace`.
public struct EncodedWorkspace: Sendable {
    /// Every list, in path order (as the folder scan found them). A list
    /// read from the cache may not be checked yet: its name and path are
    /// there to look lists up by (the cache's index holds them), its items
    /// are read through `checked(_:)`, `items(ofListAt:)` or a search
    /// (`locate`, which checks each list as it reaches it).
    public let documents: [EncodedDocument]
    /// What was skipped while loading (unreadable files, links out of the root, files not UTF-8).
    public let warnings: [String]
    /// The same, by kind: the list files that are not among `documents`, and why.
    public let skipped: SkippedLists
    /// Where the list of each rank (its place in list order) lies in
    /// `documents`. Places, not the lists: holding each list again retained
    /// it, each a cache miss in turn, on one core (2–3 ms at 50,000 notes).
    private let placeOfRank: [Int32]

    /// Checks the lists read from the cache unchecked, as their items are
    /// first read, and saves the ones found damaged (`CacheRepairs`, in the store).
    private let repairs: (any ListRepairing)?

    public init(documents: [EncodedDocument], warnings: [String] = []) {
        self.init(documents: documents, warnings: warnings, repairs: nil, listOrder: nil, skipped: SkippedLists())
    }

    /// `listOrder`, when given, is the documents' list order as the parse
    /// cache stored it (see `NotesFolder.loadEncoded`); otherwise it is
    /// computed.
    package init(
        documents: [EncodedDocument], warnings: [String], repairs: (any ListRepairing)?, listOrder: [Int]?,
        skipped: SkippedLists
    ) {
        self.documents = documents
        self.warnings = warnings
        self.skipped = skipped
        self.repairs = repairs
        let order: [Int]
        if let listOrder, listOrder.count == documents.count {
            order = listOrder
            orderCameFromCache = true
        } else {
            order = SortKey.listOrder(
                foldedNames: documents.map(\.foldedName), orders: documents.map(\.order),
                paths: documents.map(\.path))
            orderCameFromCache = false
        }
        placeOfRank = order.map { Int32($0) }
    }

    /// How many lists ahead a pass over every list on one core asks for
    /// the list it will read (`Prefetch.object(referencedAt:)`).
    static let listsAhead = 16

    /// Whether the list order was the cache's (for tests).
    let orderCameFromCache: Bool

    /// The paths of the lists in list order (for tests).
    var pathsInListOrder: [String] { lists.map(\.path) }

    /// The list of rank `rank`.
    private func list(ranked rank: Int) -> EncodedDocument { documents[Int(placeOfRank[rank])] }

    /// The lists in list order.
    private var lists: [EncodedDocument] { placeOfRank.map { documents[Int($0)] } }

    /// Every item of every list, in manual order.
    public var items: [EncodedListedItem] { items { _ in true } }

    /// The lists in list order (`order:`, then name, then path), each
    /// ready for its items to be read.
    public var listsInOrder: [EncodedDocument] {
        completeAll()
        return lists
    }

    /// Checks and reads every list read from the cache unchecked, on every core.
    private func completeAll() {
        let runs = listRuns(minimumSize: 4096)
        _ = Parallel.map(runs.count) { run in
            for rank in runs[run] { checkWithoutSaving(list(ranked: rank)) }
            releasePages(of: runs[run])
        }
        saveRepairs()
    }

    /// Each list whose parse found something wrong, with what it found
    /// (`EncodedDocument.diagnostics`), the lists not UTF-8 among them
    /// (`skipped.notUTF8`): read on every core, the cache's pages given
    /// back as each run of lists is read. In no order.
    public func diagnosedLists() -> [(path: String, diagnostics: [Diagnostic])] {
        everyList { document in
            let diagnostics = document.diagnostics
            return diagnostics.isEmpty ? nil : (document.path, diagnostics)
        }
    }

    /// The paths of the lists (those not UTF-8 too) whose items carry a
    /// block id or a dependency: the only lists a dependency problem (a
    /// duplicate id, an unknown id, a cycle) can lie in.
    public func pathsOfListsWithDependencies() -> Set<String> {
        Set(everyList { document in document.carriesDependencies ? document.path : nil })
    }

    /// What `read` answers of each list, the lists not UTF-8
    /// (`skipped.notUTF8`) among them, each checked first, read on every
    /// core, the cache's pages given back as each run of lists is read:
    /// the non-nil answers, in no order.
    private func everyList<Answer>(_ read: (EncodedDocument) -> Answer?) -> [Answer] {
        let runs = listRuns(minimumSize: 4096)
        let perRun = Parallel.map(runs.count) { run in
            defer { releasePages(of: runs[run]) }
            return runs[run].compactMap { rank in
                let document = list(ranked: rank)
                checkWithoutSaving(document)
                return read(document)
            }
        }
        let notUTF8 = skipped.notUTF8.compactMap { document in
            checkWithoutSaving(document)
            return read(document)
        }
        saveRepairs()
        return Array(perRun.joined()) + notUTF8
    }

    /// The lists in list order with only what the cache's index says of
    /// each known (path, name, order, color, icon, open and done counts):
    /// their payloads are not read, so the list of lists reads no item.
    /// Their items are read through `listsInOrder`, `checked` or the item
    /// iterators.
    public var listHeadersInOrder: [EncodedDocument] { lists }

    /// The number of open and of done items of each list, lists in list
    /// order: the cache's index says it for a list read from the cache.
    public func listCounts() -> [(open: Int, done: Int)] {
        placeOfRank.indices.map { list(ranked: $0).openAndDoneCounts }
    }

    /// Each list's tally on `today` (`ListTally`), lists in list order: the
    /// cache's index says it for a list read from the cache; the others'
    /// items are counted on every core.
    public func listTallies(today: TaskDate) -> [ListTally] {
        let runs = listRuns(minimumSize: 4096)
        let perRun = Parallel.map(runs.count) { run in
            defer { releasePages(of: runs[run]) }
            return runs[run].map { rank in list(ranked: rank).tally(today: today) { repairs?.repair($0) } }
        }
        saveRepairs()
        return Array(perRun.joined())
    }

    /// `document`, one of `documents`, ready for its items to be read: a
    /// list read from the cache unchecked is checked first (and, when
    /// damaged, parsed again and the cache saved), the other lists left as
    /// they are: a lookup by name needs only the one list it finds.
    public func checked(_ document: EncodedDocument) -> EncodedDocument {
        if !document.isComplete {
            checkWithoutSaving(document)
            saveRepairs()
        }
        return document
    }

    /// Checks `document`, one of `documents` read from the cache unchecked,
    /// once, from any thread, repairing it when damaged, without saving
    /// the repairs: a pass over many lists calls `saveRepairs()` once, after.
    package func checkWithoutSaving(_ document: EncodedDocument) {
        if !document.isComplete { document.complete { repairs?.repair($0) } }
    }

    /// The items of the list at `path`, in file order; none when no list has that path.
    public func items(ofListAt path: String) -> [EncodedListedItem] {
        guard let rank = placeOfRank.indices.first(where: { list(ranked: $0).path == path }) else { return [] }
        return checked(list(ranked: rank)).items(rank: rank)
    }

    /// The items `include` accepts, in manual order, tested on every core.
    public func items(where include: (EncodedListedItem) -> Bool) -> [EncodedListedItem] {
        withoutActuallyEscaping(include) { include in itemsAccepted(byTestsFrom: { include }) }
    }

    /// The items accepted by the tests `makeTest` makes, one per task, so
    /// that a test can hold values of its own: a query tree shared by both
    /// cores would have its reference counts bounce between them on every
    /// item (that was a tenth of a repeated query's time).
    package func itemsAccepted(byTestsFrom makeTest: () -> (EncodedListedItem) -> Bool) -> [EncodedListedItem] {
        let places = gathered {
            let include = makeTest()
            return { include($0) ? () : nil }
        }
        return items(at: places, inOrder: places.indices)
    }

    /// The items the functions `makeKey` make give a key, keyed on every
    /// core (one function per task, as `itemsAccepted`), in the order of
    /// their keys, manual order breaking ties: each record is read once,
    /// and the items are made in that order, once.
    package func itemsInKeyOrder(byFunctionsFrom makeKey: () -> (EncodedListedItem) -> UInt64?) -> [EncodedListedItem] {
        let keyed = gathered {
            let key = makeKey()
            return { key($0) }
        }
        guard keyed.indices.dropFirst().contains(where: { keyed[$0].value < keyed[$0 - 1].value }) else {
            return items(at: keyed, inOrder: keyed.indices)
        }
        // A few small keys (`today`'s two: overdue first) are counted, not
        // sorted: the items' places in each key's bucket, in one pass, keep
        // their (manual) order, as a sort by key and position does. A sort
        // of `today`'s 240,000 at 50,000 notes took 15 ms on one core.
        if let largest = keyed.lazy.map(\.value).max(), largest < Self.countedKeys {
            var starts = [Int](repeating: 0, count: Int(largest) + 2)
            for entry in keyed { starts[Int(entry.value) + 1] += 1 }
            for key in starts.indices.dropFirst() { starts[key] += starts[key - 1] }
            var order = [Int](repeating: 0, count: keyed.count)
            for position in keyed.indices {
                let key = Int(keyed[position].value)
                order[starts[key]] = position
                starts[key] += 1
            }
            return items(at: keyed, inOrder: order)
        }
        // Keys and positions below 2^32 (`today`'s, `overdue`'s, `all`'s,
        // and `completed`'s dated ones; `scheduled`'s hold a day and a time)
        // sort as one number each, key then position: a sort of plain
        // integers, where comparing pairs was most of the time.
        if keyed.count <= 1 << 32, !keyed.contains(where: { $0.value >= 1 << 32 }) {
            var order = keyed.indices.map { keyed[$0].value << 32 | UInt64($0) }
            order.sort()
            return items(at: keyed, inOrder: order.lazy.map { Int(truncatingIfNeeded: $0 & 0xFFFF_FFFF) })
        }
        var order = keyed.indices.map { (key: keyed[$0].value, position: $0) }
        order.sort { $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position }
        return items(at: keyed, inOrder: order.lazy.map(\.position))
    }

    /// Keys below this are counted into buckets rather than sorted (`itemsInKeyOrder`).
    static let countedKeys: UInt64 = 64

    /// Where each item lies (its list's rank and its place in the list)
    /// that the functions `makeTransform` make (one per task) give a value,
    /// with that value, in manual order, tested on every core.
    ///
    /// The tasks keep places, not items: plain numbers, joined with a copy
    /// of their bytes, and the items are made once, in the order they are
    /// asked for (`items(at:inOrder:)`). Gathering items, then copying them
    /// into one array, retained each for the copy and released each for
    /// the gathered one, on one core: at 50,000 notes, 4–10% of `today`'s
    /// time and 3–10% of the iCalendar export's.
    private func gathered<Value>(_ makeTransform: () -> (EncodedListedItem) -> Value?) -> [(rank: Int32, index: Int32, value: Value)] {
        let runs = listRuns(minimumSize: 1024)
        var found = Parallel.map(runs.count) { run in
            let transform = makeTransform()
            var found: [(rank: Int32, index: Int32, value: Value)] = []
            forEachItem(in: runs[run]) { item in
                if let value = transform(item) { found.append((Int32(item.listRank), Int32(item.index), value)) }
            }
            return found
        }
        saveRepairs()
        if found.count == 1 { return found[0] }
        var all: [(rank: Int32, index: Int32, value: Value)] = []
        all.reserveCapacity(found.reduce(0) { $0 + $1.count })
        for run in found.indices {
            all.append(contentsOf: found[run])
            found[run] = []
        }
        return all
    }

    /// The items at `places` (each a list's rank and a place in that
    /// list), taken in the order of `positions`, each place once, made on
    /// every core (`Parallel.array`, in pieces of 4,096: each item retains
    /// its list, and 600,000 of them made on one core were a tenth of an
    /// export at 50,000 notes; `today`'s 24,000 at 5,000 notes, in one
    /// piece of the 32,768 there were, took 0.7 ms on one core).
    private func items<Value>(
        at places: [(rank: Int32, index: Int32, value: Value)], inOrder positions: some RandomAccessCollection<Int>
    ) -> [EncodedListedItem] {
        Parallel.array(count: positions.count, chunksOf: 4096) { (range, append: (EncodedListedItem) -> Void) in
            // One value, moved from place to place: a new one for each would
            // retain and release its list once more.
            var item: EncodedListedItem? = nil
            var at = positions.index(positions.startIndex, offsetBy: range.lowerBound)
            for _ in range {
                let place = places[positions[at]]
                positions.formIndex(after: &at)
                let rank = Int(place.rank)
                if item?.listRank != rank { item = EncodedListedItem(document: list(ranked: rank), index: 0, listRank: rank) }
                item!.index = Int(place.index)
                append(item!)
            }
        }
    }

    /// Runs of lists (ranges of ranks) of about the same number of items,
    /// about 64 in all and at least `minimumSize` items each (the last
    /// excepted): the tasks that test items on every core.
    package func listRuns(minimumSize: Int) -> [Range<Int>] {
        // Each list is asked for ahead: it is first read here, in list
        // order, not the order the lists lie in memory (a cache miss each).
        // Each is read once: its count is kept for cutting the runs.
        let counts = documents.withUnsafeBufferPointer { documents in
            placeOfRank.indices.map { rank in
                if rank + Self.listsAhead < placeOfRank.count {
                    Prefetch.object(referencedAt: documents.baseAddress! + Int(placeOfRank[rank + Self.listsAhead]))
                }
                return documents[Int(placeOfRank[rank])].itemCount
            }
        }
        let target = max(minimumSize, counts.reduce(0, +) / 64)
        var runs: [Range<Int>] = []
        var start = 0
        var size = 0
        for (rank, count) in counts.enumerated() {
            size += count
            if size >= target {
                runs.append(start..<rank + 1)
                start = rank + 1
                size = 0
            }
        }
        if start < placeOfRank.count { runs.append(start..<placeOfRank.count) }
        return runs
    }

    /// Lets the process's memory go of the parse cache's pages that hold
    /// the lists of `run` (`CachePages`); called after each run.
    func releasePages(of run: Range<Int>) { CachePages.release(run.lazy.map { list(ranked: $0) }) }

    /// Saves the parse cache again when lists read from it were found damaged.
    package func saveRepairs() { repairs?.saveIfRepaired() }

    /// Calls `body` with every item of the lists of `run`, in manual order.
    /// A list read from the cache unchecked is checked first: runs never
    /// overlap, so each list is checked by one task, right before its items
    /// are read.
    package func forEachItem(in run: Range<Int>, _ body: (EncodedListedItem) -> Void) {
        for rank in run {
            let document = list(ranked: rank)
            checkWithoutSaving(document)
            // One value per list, moved from item to item: a new value for
            // each item would retain and release the document every time.
            var item = EncodedListedItem(document: document, index: 0, listRank: rank)
            for index in 0..<document.itemCount {
                item.index = index
                body(item)
            }
        }
        releasePages(of: run)
    }
}

/// What checks the lists a workspace read from the parse cache unchecked:
/// a list whose payload fails its check is parsed again from its file
/// (`repair`, which gives it the new payload through
/// `EncodedDocument.adopt`), and the cache is saved again with the lists
/// repaired once their items have been read (`saveIfRepaired`). The store's
/// `CacheRepairs` does both; the read model calls it back without any I/O
/// of its own.
package protocol ListRepairing: Sendable {
    /// Parses the file of `document`, whose cached payload failed its
    /// check, and gives the document the new payload, kept for the next save.
    func repair(_ document: EncodedDocument)
    /// Saves the cache again when lists were repaired since the last save.
    func saveIfRepaired()
}

/// The list files a load found and could not make lists of, by kind:
/// `tick check` reports each where it falls among the lists; every other
/// command prints the load's `warnings`, which say the same.
public struct SkippedLists: Sendable {
    /// What the walk of the folder met and skipped (a folder that cannot
    /// be read, a link out of the notes folder), one sentence each.
    public var walkWarnings: [String] = []
    /// List files and folders whose names are not UTF-8, escaped
    /// (`NotesFolder.escapedName`).
    public var unnamable: [String] = []
    /// List files that could not be read, each with why.
    public var unreadable: [(path: String, reason: String)] = []
    /// Lists whose bytes are not UTF-8, read and parsed but left out of
    /// the workspace's lists: an edit that names one is refused saying so,
    /// not told that nothing has that name.
    public var notUTF8: [EncodedDocument] = []

    public init(walkWarnings: [String] = [], unnamable: [String] = []) {
        self.walkWarnings = walkWarnings
        self.unnamable = unnamable
    }
}
