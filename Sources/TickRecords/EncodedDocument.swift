import Synchronization
import TickModel
import TickSyntax
import TickSystem

/// A list as the parse cache encodes it (`DocumentCoding`), read in place.
///
/// Answering a query from the cache this way builds no `Document` and
/// decodes nothing ahead: each item is a fixed-size record
/// (`ItemRecordLayout`) whose fields are read where they lie, and a string
/// becomes a Swift `String` only when a query compares it; JSON output
/// copies its bytes. Reads are bounds-checked (a payload from the cache has
/// also passed its checksum); a damaged field reads as empty, never crashes.
///
/// The bytes stay alive as long as the document: they belong to the cache
/// file's mapping or to the payload that a fresh parse was encoded into.
public final class EncodedDocument: @unchecked Sendable {
    // The header is immutable after init. The body is set in init, or, for
    // a document read from the cache unchecked, once by `complete`, which
    // every reader of items calls first (`EncodedWorkspace.forEachItem`):
    // one thread checks and sets it, and `state` orders that before any
    // other thread's reads.
    // `state` and `unchecked` come first, in the object's first two cache
    // lines: the passes over every list read them (whether a list is
    // complete, its item count, where its bytes lie) and ask the processor
    // ahead for the first four lines of the lists to come
    // (`Prefetch.object`), which the fields after them reach past.
    /// 0: unchecked; 1: being checked; 2: complete.
    private let state: Atomic<Int>
    /// The payload `complete` checks, for a document made unchecked.
    private let unchecked: Unchecked?
    public let path: String
    public let name: String
    /// The name as list order compares it (`SortKey.foldedName`), folded
    /// when asked for: only a workspace whose list order the cache does
    /// not give sorts its lists (`EncodedWorkspace.init`).
    var foldedName: String { SortKey.foldedName(name) }
    /// The list's `order:` from its front matter.
    public let order: Int?
    package let isValidUTF8: Bool
    /// The front matter's `color:` and `icon:`.
    let explicitColor: String?
    let explicitIcon: String?
    private(set) var body: Body

    /// The parts of a document read from its payload past the header.
    struct Body {
        /// What keeps `buffer` alive; nil when the document's `unchecked` does.
        let owner: AnyObject?
        let buffer: UnsafeBufferPointer<UInt8>
        /// Where the front matter block starts.
        let frontMatterOffset: Int
        let sectionTitles: [ByteSlice]
        /// Where each section's details (level, line, color, icon) start.
        let sectionDetails: [Int]
        /// Where the diagnostics start.
        let diagnosticsOffset: Int
        let records: ItemRecordLayout.Records
        /// The list's path, name, color and icon as JSON string literals,
        /// escaped once for every item of the list that is printed: one
        /// allocation, read in place (no reference counting per item).
        let listJSON: UnsafeMutableBufferPointer<UInt8>
        let listJSONEnds: (path: Int, name: Int, color: Int, icon: Int)

        static var empty: Body {
            Body(
                owner: nil, buffer: UnsafeBufferPointer(start: nil, count: 0),
                frontMatterOffset: 0, sectionTitles: [], sectionDetails: [], diagnosticsOffset: 0, records: .empty,
                listJSON: UnsafeMutableBufferPointer(start: nil, count: 0),
                listJSONEnds: (0, 0, 0, 0))
        }
    }

    /// A payload from the cache not yet checked against its checksum.
    struct Unchecked {
        let owner: AnyObject
        /// The owner as the parse cache's mapping, when it is one.
        let mapping: (any ListMapping)?
        let buffer: UnsafeBufferPointer<UInt8>
        let checksum: UInt64
        let itemCount: Int
        /// The open and done counts and the open items' due days the index gives.
        let counts: (open: Int, done: Int)
        let openDueDays: OpenDueDays
    }

    /// Reads the document encoded in `buffer`, which `owner` keeps alive.
    package init(_ buffer: UnsafeBufferPointer<UInt8>, owner: AnyObject) throws {
        var reader = ByteReader(buffer, range: 0..<buffer.count)
        let header = try Self.readHeader(&reader)
        path = header.path
        name = header.name
        order = header.order
        isValidUTF8 = header.isValidUTF8
        explicitColor = header.explicitColor
        explicitIcon = header.explicitIcon
        body = try Self.readBody(&reader, header: header, buffer: buffer, owner: owner)
        unchecked = nil
        state = Atomic(2)
    }

    /// A document of the cache whose header came from the cache's index
    /// (checked when the cache was opened) and whose payload is checked
    /// and read by `complete`, in the task that reads its items: reading a
    /// payload right before its items are tested keeps it in the processor's
    /// cache, where checking every payload up front read each twice from memory.
    ///
    /// The payload lies in the parse cache's `mapping`, which keeps it
    /// alive and is asked to give its pages back (`CachePages`).
    package convenience init(
        unchecked buffer: UnsafeBufferPointer<UInt8>, in mapping: any ListMapping, checksum: UInt64,
        path: String, summary: ListSummary
    ) {
        self.init(unchecked: buffer, owner: mapping, mapping: mapping, checksum: checksum, path: path, summary: summary)
    }

    /// A document as `init(unchecked:in:checksum:path:summary:)` makes it,
    /// from a payload in memory `owner` keeps alive that is not a mapping.
    package convenience init(
        unchecked buffer: UnsafeBufferPointer<UInt8>, owner: AnyObject, checksum: UInt64,
        path: String, summary: ListSummary
    ) {
        self.init(unchecked: buffer, owner: owner, mapping: nil, checksum: checksum, path: path, summary: summary)
    }

    // The mapping is passed, not found by casting the owner: a cast to a
    // protocol asks the runtime's conformance tables, once for each list.
    private init(
        unchecked buffer: UnsafeBufferPointer<UInt8>, owner: AnyObject, mapping: (any ListMapping)?, checksum: UInt64,
        path: String, summary: ListSummary
    ) {
        self.path = path
        name = summary.name
        order = summary.order
        isValidUTF8 = summary.isValidUTF8
        explicitColor = summary.explicitColor
        explicitIcon = summary.explicitIcon
        body = .empty
        unchecked = Unchecked(
            owner: owner, mapping: mapping, buffer: buffer, checksum: checksum, itemCount: summary.itemCount,
            counts: (summary.openCount, summary.doneCount), openDueDays: summary.openDueDays)
        state = Atomic(0)
    }

    deinit { body.listJSON.baseAddress?.deallocate() }

    /// `document` as the read model holds it: for a list that is not in a
    /// folder's cache (one being edited, or an editor's unsaved text).
    /// Nil for a list too large for the encoding (a file of gigabytes).
    public convenience init?(encoding document: Document) {
        guard let payload = ListPayload(encoding: document) else { return nil }
        try? self.init(payload.buffer, owner: payload.storage)
    }

    /// The items in file order, each with `rank` as its list's rank.
    public func items(rank: Int = 0) -> [EncodedListedItem] {
        if !isComplete { complete { _ in } }
        return (0..<itemCount).map { EncodedListedItem(document: self, index: $0, listRank: rank) }
    }

    /// The items' titles in file order, read in place: no item value is
    /// made for each (one would retain and release the list).
    public var titles: [EncodedText] {
        if !isComplete { complete { _ in } }
        var item = EncodedListedItem(document: self, index: 0, listRank: 0)
        return (0..<itemCount).map { index in
            item.index = index
            return item.title
        }
    }

    /// False until `complete` has run on a document made unchecked.
    package var isComplete: Bool { state.load(ordering: .acquiring) == 2 }

    /// Checks an unchecked payload against its checksum and reads its body,
    /// once, whichever thread asks first (the others wait for it). When the
    /// payload is damaged, or does not hold the header the index gave,
    /// `repair` is called to `adopt` a payload parsed again; until then, and
    /// for good if it does not, the list has no items.
    package func complete(repair: (EncodedDocument) -> Void) {
        if state.load(ordering: .acquiring) == 2 { return }
        guard state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged else {
            while state.load(ordering: .acquiring) != 2 { Posix.yieldProcessor() }
            return
        }
        // The payload's fields are read one by one, not the whole
        // `Unchecked` copied (a retain and a release of its owner, which
        // every list shares, on every core at once), and the body keeps no
        // owner of its own: `unchecked` keeps the payload alive.
        if let buffer = unchecked?.buffer, let checksum = unchecked?.checksum, ListPayload.checksum(buffer) == checksum,
            let body = try? readBody(buffer, owner: nil)
        {
            self.body = body
        } else {
            repair(self)
        }
        state.store(2, ordering: .releasing)
    }

    /// The parse cache's mapping a list read from the cache came from; nil
    /// for a list parsed afresh (its bytes are its own).
    package var mapping: (any ListMapping)? { unchecked?.mapping }

    /// Where the list's bytes lie in the parse cache's mapping (their
    /// address); 0 for a list parsed afresh.
    package var mappedPosition: Int { Int(bitPattern: mappedBytes?.baseAddress) }

    /// The list's payload in the parse cache's mapping; nil for a list
    /// parsed afresh.
    var mappedBytes: UnsafeBufferPointer<UInt8>? { unchecked?.mapping == nil ? nil : unchecked?.buffer }

    /// Reads the body from `payload`, the file parsed again after its cached
    /// payload failed its check (inside `complete`'s `repair`); false when it
    /// is another file's, or not UTF-8. Its name, order, color and icon may
    /// differ from the index's when the file changed meanwhile: the list
    /// keeps its place and the index's header, in its items' JSON too.
    package func adopt(_ payload: ListPayload) -> Bool {
        var reader = ByteReader(payload.buffer, range: 0..<payload.buffer.count)
        guard let header = try? Self.readHeader(&reader), header.path == path, header.isValidUTF8 else { return false }
        // The list keeps the header the index gave, in its JSON too.
        let kept = Header(
            path: path, explicitColor: explicitColor, explicitIcon: explicitIcon, order: order, name: name, isValidUTF8: isValidUTF8)
        guard let body = try? Self.readBody(&reader, header: kept, buffer: payload.buffer, owner: payload.storage) else { return false }
        self.body = body
        return true
    }

    /// The body of `buffer`, when its header is this document's. The path
    /// and name are compared as bytes, where they lie: no `String` is made
    /// for them for each list a query reads.
    private func readBody(_ buffer: UnsafeBufferPointer<UInt8>, owner: AnyObject?) throws -> Body {
        // Compared where the string's bytes lie: a `var` copy to call
        // `withUTF8` retained and released the string, for every list read.
        func same(_ slice: ByteSlice, _ text: String) -> Bool {
            let bytes = slice.bytes(in: buffer)
            return text.utf8.withContiguousStorageIfAvailable { ByteText.compare(bytes, $0) == 0 }
                ?? bytes.elementsEqual(text.utf8)
        }
        var reader = ByteReader(buffer, range: 0..<buffer.count)
        guard same(try reader.slice(), path), try reader.optionalString() == explicitColor,
            try reader.optionalString() == explicitIcon, try reader.optionalInt() == order,
            same(try reader.slice(), name), try reader.bool() == isValidUTF8
        else {
            throw ByteReader.Damaged()
        }
        let header = Header(
            path: path, explicitColor: explicitColor, explicitIcon: explicitIcon, order: order, name: name,
            isValidUTF8: isValidUTF8)
        return try Self.readBody(&reader, header: header, buffer: buffer, owner: owner)
    }

    /// What a payload holds before its sections.
    private struct Header {
        let path: String
        let explicitColor: String?
        let explicitIcon: String?
        let order: Int?
        let name: String
        let isValidUTF8: Bool
    }

    private static func readHeader(_ reader: inout ByteReader) throws -> Header {
        Header(
            path: try reader.string(), explicitColor: try reader.optionalString(), explicitIcon: try reader.optionalString(),
            order: try reader.optionalInt(), name: try reader.string(), isValidUTF8: try reader.bool())
    }

    private static func readBody(
        _ reader: inout ByteReader, header: Header, buffer: UnsafeBufferPointer<UInt8>,
        owner: AnyObject?
    ) throws -> Body {
        let frontMatterOffset = reader.position
        try reader.skipBlock()
        let sectionCount = try reader.count(limit: 1 << 24)
        var sectionTitles: [ByteSlice] = []
        var sectionDetails: [Int] = []
        sectionTitles.reserveCapacity(sectionCount)
        sectionDetails.reserveCapacity(sectionCount)
        for _ in 0..<sectionCount {
            sectionTitles.append(try reader.slice())
            sectionDetails.append(reader.position)
            try reader.skipBlock()
        }
        let diagnosticsOffset = reader.position
        try reader.skipBlock()
        let records = try ItemRecordLayout.Records(&reader, in: buffer)
        var json = ByteOutput(capacity: header.path.utf8.count + header.name.utf8.count + 32)
        JSONValue.appendString(header.path, to: &json)
        let pathEnd = json.count
        JSONValue.appendString(header.name, to: &json)
        let nameEnd = json.count
        JSONValue.appendString(header.explicitColor ?? Document.defaultColor, to: &json)
        let colorEnd = json.count
        JSONValue.appendString(header.explicitIcon ?? Document.defaultIcon, to: &json)
        let iconEnd = json.count
        return Body(
            owner: owner, buffer: buffer, frontMatterOffset: frontMatterOffset, sectionTitles: sectionTitles, sectionDetails: sectionDetails,
            diagnosticsOffset: diagnosticsOffset,
            records: records, listJSON: json.release().allocation,
            listJSONEnds: (pathEnd, nameEnd, colorEnd, iconEnd))
    }

    var buffer: UnsafeBufferPointer<UInt8> { body.buffer }
    var records: ItemRecordLayout.Records { body.records }
    var sectionTitles: [ByteSlice] { body.sectionTitles }

    /// The list's color and icon, defaulting as `Document.color` and `Document.icon` do.
    public var color: String { explicitColor ?? Document.defaultColor }
    public var icon: String { explicitIcon ?? Document.defaultIcon }

    /// The list's front matter (`Document.frontMatter`), read when asked
    /// for; nil when there is none or the payload is damaged there.
    public var frontMatter: FrontMatter? {
        var reader = ByteReader(body.buffer, range: body.frontMatterOffset..<body.buffer.count)
        return (try? DocumentCoding.decodeFrontMatter(&reader)) ?? nil
    }

    /// How many of the list's items are open (or in progress) and how many
    /// done: for a list read from the cache and not yet checked, as the
    /// cache's index says (its payload is not read).
    public var openAndDoneCounts: (open: Int, done: Int) {
        if !isComplete, let counts = unchecked?.counts { return counts }
        return (count { $0.isOpen }, count { $0 == .done })
    }

    /// The list's tally on `today` (`ListTally`): for a list read from the
    /// cache and not yet checked, from the cache's index (its payload is
    /// not read); else from its items, after `complete(repair:)`.
    package func tally(today: TaskDate, repair: (EncodedDocument) -> Void) -> ListTally {
        if !isComplete, let unchecked {
            var tally = ListTally()
            tally.open = unchecked.counts.open
            tally.done = unchecked.counts.done
            if unchecked.openDueDays.add(to: &tally, today: today) { return tally }
        }
        complete(repair: repair)
        var tally = ListTally()
        for index in 0..<body.records.count {
            let item = EncodedListedItem(document: self, index: index, listRank: 0)
            tally += ListTally(status: item.status, due: item.date(.due), today: today)
        }
        return tally
    }

    /// How many of the list's items have a status `include` accepts.
    public func count(where include: (TaskStatus) -> Bool) -> Int {
        if !isComplete { complete { _ in } }
        let records = body.records
        var count = 0
        for index in 0..<records.count where include(records.record(index).status ?? .open) { count += 1 }
        return count
    }

    /// The number of sections (headings).
    public var sectionCount: Int { body.sectionTitles.count }

    /// The section at `index` (its place among the list's headings), read
    /// from the payload when asked for; a damaged one has only its title.
    public func section(_ index: Int) -> Section {
        let title = body.sectionTitles[index].string(in: body.buffer)
        var section = Section(level: 1, title: title, line: 0, range: 0..<0, color: nil, icon: nil)
        var reader = ByteReader(body.buffer, range: body.sectionDetails[index]..<body.buffer.count)
        try? reader.block { reader in
            section.level = try reader.int()
            section.line = try reader.int()
            section.range = try reader.range()
            section.color = try reader.optionalString()
            section.icon = try reader.optionalString()
        }
        return section
    }

    /// What the parse found wrong with the list (`Document.diagnostics`);
    /// none when the payload is damaged there.
    public var diagnostics: [Diagnostic] {
        var reader = ByteReader(body.buffer, range: body.diagnosticsOffset..<body.buffer.count)
        var diagnostics: [Diagnostic] = []
        try? reader.block { reader in
            let count = try reader.count(limit: 1 << 24)
            for _ in 0..<count {
                diagnostics.append(Diagnostic(line: try reader.int(), column: try reader.int(), message: try reader.string()))
            }
        }
        return diagnostics
    }

    /// The index of the item that encloses the item at `index`, if any.
    public func parentIndex(of index: Int) -> Int? {
        let parent = body.records.record(index)[.parent]
        return parent > 0 && parent <= index ? parent - 1 : nil
    }

    /// The JSON string literal of one of the list's fields.
    func listJSON(_ field: ListField) -> UnsafeBufferPointer<UInt8> {
        let ends = body.listJSONEnds
        let range: Range<Int>
        switch field {
        case .path: range = 0..<ends.path
        case .name: range = ends.path..<ends.name
        case .color: range = ends.name..<ends.color
        case .icon: range = ends.color..<ends.icon
        }
        return UnsafeBufferPointer(rebasing: body.listJSON[range])
    }

    /// True when an item carries a block id or a dependency: only such a
    /// list can hold a dependency problem (`DependencyIndex.problems`).
    /// The list must be ready for its items to be read.
    public var carriesDependencies: Bool {
        (0..<itemCount).contains { index in
            let item = EncodedListedItem(document: self, index: index, listRank: 0)
            return item.id != nil || item.dependsOnText != nil
        }
    }

    /// Where the list's bytes lie in memory: its items' places in the parse
    /// cache (`EncodedListedItem.CacheOrder`) follow it.
    public var cachePlace: Int { Int(bitPattern: body.buffer.baseAddress) }

    /// The number of items: before `complete`, as the cache's index says.
    public var itemCount: Int { isComplete ? body.records.count : unchecked?.itemCount ?? 0 }

    func text(_ slice: ByteSlice) -> EncodedText { EncodedText(bytes: slice.bytes(in: body.buffer)) }
}

/// The memory lists were read from in place, whose pages can be given
/// back: the parse cache's mapping (`ParseCache.Contents`, in the store).
/// The read model gives back the pages of each run of lists it has read
/// (`releaseCachePages`); it never maps, reads or writes a file itself.
package protocol ListMapping: AnyObject, Sendable {
    /// Lets the process's memory go of the pages that hold `bytes`, as
    /// far as they lie in the mapping: what is read again is mapped again
    /// from the file.
    func releasePages(holding bytes: UnsafeBufferPointer<UInt8>)
    /// False when `releasePages` gives nothing back (a small cache is held
    /// whole): a pass then need not note which pages it read.
    var givesPagesBack: Bool { get }
}

/// The pages of the parse cache that hold the payloads of the lists
/// included (`include`), to give back (`release`) once they are read:
/// every page from the lowest payload to the highest (a run of lists in
/// list order lies in one stretch of the cache). Only these: the lists
/// other threads are reading meanwhile keep their pages. A list is often
/// smaller than a page, so the pages at either end may hold a neighbour's
/// bytes too; its reader maps them again.
public struct CachePages {
    private var mapping: (any ListMapping)?
    private var lowest = UInt.max
    private var highest = UInt.min
    private var last: ObjectIdentifier?

    public init() {}

    /// Adds the pages of `document`'s payload (none for a list parsed afresh).
    public mutating func include(_ document: EncodedDocument) {
        // Items come a list at a time: each list is looked at once.
        guard ObjectIdentifier(document) != last else { return }
        last = ObjectIdentifier(document)
        guard let bytes = document.mappedBytes, let base = bytes.baseAddress else { return }
        if mapping == nil { mapping = document.mapping }
        lowest = min(lowest, UInt(bitPattern: base))
        highest = max(highest, UInt(bitPattern: base) + UInt(bytes.count))
    }

    /// Adds the lists of the items at `places` of `items`, each item read
    /// where it lies: a copy of each, made to pass its list to
    /// `include(_:)` from another module, retained and released the list.
    public mutating func include(listsOf items: [EncodedListedItem], at places: [Int]) {
        for place in places { include(items[place].document) }
    }

    /// Adds the pages `other` holds (a part of a pass, on another core, included them).
    public mutating func include(_ other: CachePages) {
        guard other.lowest < other.highest else { return }
        if mapping == nil { mapping = other.mapping }
        lowest = min(lowest, other.lowest)
        highest = max(highest, other.highest)
        last = nil
    }

    /// How many bytes of the cache the included payloads span, from the
    /// lowest to the end of the highest (0 when none is mapped).
    public var spannedBytes: Int { lowest < highest ? Int(highest - lowest) : 0 }

    /// Cuts the positions `0..<count` into runs, in order, each of at most
    /// `length` positions whose lists (`document(position)`, nil for a
    /// position without one) span at most `bytes` of the cache: a writer
    /// that builds a few runs at a time and gives each run's pages back
    /// once it is written then holds a few runs' pages, whatever the order
    /// (items by due date lie far apart in the cache; in manual order, close).
    /// It stops once it has cut more than `maximumRuns` runs (the runs
    /// then cover only the first positions).
    public static func runs(
        of count: Int, atMost length: Int, spanningAtMost bytes: Int, stoppingAfter maximumRuns: Int = .max,
        document: (Int) -> EncodedDocument?
    ) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start = 0
        var pages = CachePages()
        for position in 0..<count {
            if runs.count > maximumRuns { return runs }
            if position - start == length {
                runs.append(start..<position)
                (start, pages) = (position, CachePages())
            }
            guard let document = document(position) else { continue }
            let spanned = pages.spannedBytes
            pages.include(document)
            // Cut only where this list widened the span: a list larger than
            // `bytes` on its own is cut by `length` alone.
            if pages.spannedBytes > bytes, pages.spannedBytes > spanned, position > start {
                runs.append(start..<position)
                (start, pages) = (position, CachePages())
                pages.include(document)
            }
        }
        if start < count { runs.append(start..<count) }
        return runs
    }

    /// Gives back the pages of the payloads of `documents` (each included,
    /// then released).
    @inlinable
    public static func release(_ documents: some Sequence<EncodedDocument>) {
        var pages = CachePages()
        for document in documents { pages.include(document) }
        pages.release()
    }

    /// Lets the process's memory go of the pages: what is read again is
    /// mapped again from the file.
    public func release() {
        guard let mapping, lowest < highest else { return }
        mapping.releasePages(holding: UnsafeBufferPointer(start: UnsafePointer(bitPattern: lowest), count: Int(highest - lowest)))
    }
}

/// The parse cache's pages of what a writer has written since it last gave
/// pages back: a writer that writes runs of items in order includes each
/// run's lists once it is written, and the pages are given back once the runs added
/// hold 4,096 items or span more than 8 MB of the cache, and after the
/// last. A writer then holds a few megabytes of the cache's pages,
/// whatever the order of its items. (Giving back each run's own pages
/// would not do: the kernel maps up to 2 MB around each page read, and
/// pages mapped around a run, in runs given back before it, would stay.)
public struct WrittenCachePages {
    private var pending = CachePages()
    private var pendingItems = 0

    public init() {}

    /// Adds the list of an item written (`CachePages.include`). Not
    /// generic over a sequence of lists: a generic call from another
    /// module runs unspecialized, an iterator call per item.
    public mutating func include(_ document: EncodedDocument) { pending.include(document) }

    /// Adds the lists `pages` holds (`CachePages.include(_:)`).
    public mutating func include(_ pages: CachePages) { pending.include(pages) }

    /// Notes that `items` more items are written (their lists included),
    /// and gives pages back when enough are held or `isLast`.
    public mutating func written(_ items: Int, isLast: Bool) {
        pendingItems += items
        if isLast || pendingItems >= 4096 || pending.spannedBytes > 8 << 20 {
            pending.release()
            (pending, pendingItems) = (CachePages(), 0)
        }
    }
}

/// The parse cache's pages a pass over items reads, given back as it goes
/// (`Collection.forEachReleasingCachePages`): every 65,536 items, and
/// sooner, once 256 have come, while the items come mostly in the order
/// their lists lie in the cache (jumping back before fewer than one item
/// in 64: results in manual order, a few lists saved again at the cache's
/// end after edits) and those lists span more than 8 MB of it. A result of
/// a few items of each list (a query on tags, a sorted one's keys) spans
/// the whole cache in 65,536 items and mapped all of it; items in any
/// other order span it in a few, and giving their pages back then would
/// unmap them every few items.
public struct PassPages {
    private var pages = CachePages()
    private var count = 0
    private var jumpsBack = 0
    private var lastPlace = 0
    private let span: Int

    /// (`span` is how much of the cache the lists of items in its order
    /// may span before their pages go back, 8 MB; tests make it small.)
    public init(spanningAtMost span: Int = 8 << 20) { self.span = span }

    /// Notes that an item of `document` was read; gives the pages back when it is time.
    public mutating func read(_ document: EncodedDocument) {
        let place = document.mappedPosition
        if place < lastPlace { jumpsBack += 1 }
        lastPlace = place
        pages.include(document)
        count += 1
        if count >= 65_536 || (count >= 256 && jumpsBack * 64 < count && pages.spannedBytes > span) { release() }
    }

    /// Gives back the pages read since the last release.
    public mutating func release() {
        pages.release()
        self = PassPages(spanningAtMost: span)
    }
}

/// UTF-8 bytes of an encoded document, valid while the document lives.
public struct EncodedText: ItemText {
    package let bytes: UnsafeBufferPointer<UInt8>
    /// True when the bytes are known, from the cache, to be plain ASCII
    /// (`ItemRecordLayout.isPlainASCII`: printable, without `"`, `\`, `,`
    /// or `;`), which a terminal row, a JSON string and an iCalendar TEXT
    /// value hold as they are; false when they were not looked at.
    package let isPlainASCII: Bool

    init(bytes: UnsafeBufferPointer<UInt8>, isPlainASCII: Bool = false) {
        self.bytes = bytes
        self.isPlainASCII = isPlainASCII
    }

    static var empty: EncodedText { EncodedText(bytes: UnsafeBufferPointer(start: nil, count: 0)) }

    public var string: String { String(decoding: bytes, as: UTF8.self) }
    /// Appends the text as a JSON string literal (`JSONValue.appendString`),
    /// its bytes copied unscanned when they are plain ASCII.
    public func appendJSON(to output: inout ByteOutput) {
        JSONValue.appendString(utf8: bytes, escapeFree: isPlainASCII, to: &output)
    }
}

/// An item of an `EncodedDocument` together with its list's rank: the
/// encoded counterpart of `ListedItem`. Guarantees: 16 bytes, so that a
/// result of a million items is an array of 16 MB (the place and the rank
/// are kept as 32-bit numbers: a list holds fewer than 2³¹ items, a folder
/// fewer than 2³¹ lists).
public struct EncodedListedItem: @unchecked Sendable {
    // Sendable: the document's body is set once, before any item is read (`EncodedDocument.complete`).
    /// The item's list.
    public let document: EncodedDocument
    private var storedIndex: Int32
    private let storedListRank: Int32

    /// The item's place in its list (file order).
    public internal(set) var index: Int {
        get { Int(storedIndex) }
        set { storedIndex = Int32(newValue) }
    }
    /// The place of the item's list among the folder's lists.
    public var listRank: Int { Int(storedListRank) }

    /// The item at `index` of `document`, a list whose items can be read
    /// (one from `EncodedWorkspace`, or made with `EncodedDocument(encoding:)`).
    public init(document: EncodedDocument, index: Int, listRank: Int) {
        self.document = document
        self.storedIndex = Int32(index)
        self.storedListRank = Int32(listRank)
    }

    private var record: ItemRecordLayout.Record { document.records.record(index) }

    public var status: TaskStatus { record.status ?? .open }
    public var line: Int { record[.line] }
    public var depth: Int { record[.depth] }
    public var fileOffset: Int { record[.fileOffset] }
    public var priority: Priority { record.priority ?? .normal }
    public var hasPriority: Bool { record.hasPriority }
    /// The hash its iCalendar UID is made of when it has no block id,
    /// kept in the cache since the list was parsed
    /// (`ItemRecordLayout.storeUIDHashes`).
    package var uidHash: UInt64 { record.uidHash }

    public func date(_ field: MetadataField) -> TaskDate? {
        let position: Int
        switch field {
        case .due: position = 0
        case .scheduled: position = 1
        case .start: position = 2
        case .created: position = 3
        case .done: position = 4
        case .cancelled: position = 5
        default:
            if case .date(let date) = value(field) { return date }
            return nil
        }
        return (try? record.date(position)) ?? nil
    }

    /// A value of a field kept in `ItemMetadata.more`, read in place.
    public enum MoreValue {
        case date(TaskDate)
        case text(EncodedText)
    }

    /// The value of a field kept in `ItemMetadata.more`; nil when not written.
    public func value(_ field: MetadataField) -> MoreValue? {
        guard let more = try? record.more(), let found = more.first(where: { $0.field == field }) else { return nil }
        switch found.value {
        case .date(let date): return .date(date)
        case .text(let bytes): return .text(EncodedText(bytes: bytes))
        }
    }

    private func text(_ field: ItemRecordLayout.TextField, isPlainASCII: Bool = false) -> EncodedText? {
        guard let bytes = (try? record.slice(field)) ?? nil else { return nil }
        return EncodedText(bytes: bytes, isPlainASCII: isPlainASCII)
    }

    public var title: EncodedText { text(.title, isPlainASCII: record.hasPlainASCIITitle) ?? .empty }
    public var text: EncodedText { text(.text) ?? .empty }
    public var notes: EncodedText? { text(.notes) }
    public var every: EncodedText? { text(.every) }
    public var color: EncodedText? { text(.color) }
    public var icon: EncodedText? { text(.icon) }
    public var id: EncodedText? { text(.id) }
    public var dependsOnText: EncodedText? { text(.dependsOn) }
    public var onCompletion: EncodedText? { text(.onCompletion) }

    /// Starts loading the list object of the item at `place` of `items`
    /// (its reference count and the fields a row reads, in its first four
    /// cache lines), for a read soon: the first row of each list otherwise
    /// waits for them.
    public static func prefetchList(of items: UnsafeBufferPointer<Self>, at place: Int) {
        Prefetch.object(at: UnsafeRawPointer(Unmanaged.passUnretained(items[place].document).toOpaque()))
    }

    /// Starts loading the record of the item at `place` of `items`, for a
    /// read soon: a loop over items scattered in the cache asks for one
    /// several items ahead (`prefetchTitle` once the record is at hand).
    /// The item is read where it lies: a copy of it, made to call a method
    /// of another module, retained and released its list.
    public static func prefetchRecord(of items: UnsafeBufferPointer<Self>, at place: Int) { items[place].record.prefetch() }

    /// Starts loading the start of the title of the item at `place` of
    /// `items`, reading its record (best asked for with `prefetchRecord`
    /// a few items before).
    public static func prefetchTitle(of items: UnsafeBufferPointer<Self>, at place: Int) {
        let record = items[place].record
        Prefetch.line(at: ((try? record.slice(.title)) ?? nil)?.baseAddress)
    }

    public var hasTags: Bool { record.hasTags }

    /// Calls `body` with each tag, in order, read in place.
    public func forEachTag(_ body: (EncodedText) -> Void) {
        withTags { tags in
            for tag in tags { body(tag) }
        }
    }

    /// Calls `body` with all the item's tags at once, read in place: every
    /// one is read (and checked: a damaged list gives no tags, as `tags`
    /// does) before `body` sees any, once, into a buffer on the stack for
    /// the usual few. (Read twice, once to check and once for `body`, the
    /// tags were a twentieth of building a listing's rows.)
    public func withTags(_ body: (UnsafeBufferPointer<EncodedText>) -> Void) {
        let record = record
        guard record.hasTags, var reader = try? record.reader(at: .tags), let count = try? reader.count(limit: 1 << 20) else {
            return body(UnsafeBufferPointer(start: nil, count: 0))
        }
        withUnsafeTemporaryAllocation(of: EncodedText.self, capacity: count) { tags in
            for index in 0..<count {
                guard let slice = try? reader.slice() else {
                    tags.baseAddress!.deinitialize(count: index)
                    return body(UnsafeBufferPointer(start: nil, count: 0))
                }
                (tags.baseAddress! + index).initialize(to: document.text(slice))
            }
            body(UnsafeBufferPointer(tags))
            tags.baseAddress!.deinitialize(count: count)
        }
    }

    /// `"path:line"` from the list's path escaped once (`listJSON`): no
    /// `String` made for each item.
    public func appendParentJSON(to output: inout ByteOutput) {
        guard let line = parentLine else { return }
        let path = document.listJSON(.path)
        output.append(UnsafeBufferPointer(rebasing: path.dropLast())) // without its closing quote
        output.append(UInt8(ascii: ":"))
        output.appendDecimal(line)
        output.append(UInt8(ascii: "\""))
    }

    public var tags: [EncodedText] {
        var tags: [EncodedText] = []
        forEachTag { tags.append($0) }
        return tags
    }

    public var fields: [(key: EncodedText, value: EncodedText)] {
        let record = record
        guard record.hasFields else { return [] }
        return ((try? record.slicePairs(at: .fields)) ?? []).map { (document.text($0.0), document.text($0.1)) }
    }

    public var sectionTitle: EncodedText? {
        let section = record[.section]
        guard section > 0, section <= document.sectionTitles.count else { return nil }
        return document.text(document.sectionTitles[section - 1])
    }

    public var parentLine: Int? { record[.parent] == 0 ? nil : record[.parentLine] }
    /// `path:line`, the item's address.
    public var address: String { "\(listPath):\(line)" }
    /// The index of the enclosing item in its list.
    public var parentIndex: Int? { document.parentIndex(of: index) }
    /// The index of the nearest heading above the item among its list's sections.
    public var sectionIndex: Int? {
        let section = record[.section]
        return section > 0 && section <= document.sectionCount ? section - 1 : nil
    }

    /// The title's runs, metadata tokens included, parsed from the item's
    /// own text (as `TaskItem.runs`, with ranges counted from the title's start).
    public var runs: [TitleRun] {
        let bytes = text.bytes
        return TitleParser.parse(bytes, title: 0..<bytes.count).runs
    }

    /// True when the item's text holds no inline markup (`TitleParser.isPlain`,
    /// learnt when the title was parsed): its runs are plain text and tokens,
    /// and its display title is `title` with no style of its own, so a
    /// renderer need not parse the runs.
    public var hasPlainTitle: Bool { !record.hasMarkup }
    public var hasSubtasks: Bool { record[.childCount] > 0 }
    public var listPath: String { document.path }
    public var listName: String { document.name }
    public var listColor: String { document.color }
    public var listIcon: String { document.icon }

    public func appendListJSON(_ field: ListField, to output: inout ByteOutput) {
        output.append(document.listJSON(field))
    }
}

extension EncodedListedItem {
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
    public var dependsOn: [String] { dependsOnText.map { ItemMetadata.dependencyIDs($0.string) } ?? [] }

    /// `path:line` of the enclosing item, as the `parent` field shows it.
    public var parentReference: String? { parentLine.map { "\(listPath):\($0)" } }

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

extension EncodedListedItem {
    /// Where an item's record lies in memory: its list's bytes, then its
    /// place in the list. Items read in this order read the parse cache
    /// front to back (a list parsed afresh lies elsewhere, in no order that
    /// matters).
    public struct CacheOrder: Comparable, Sendable {
        let list: Int
        let index: Int

        /// The place of the item at `index` of the list whose bytes lie at
        /// `listPlace` (`EncodedDocument.cachePlace`).
        public init(listPlace: Int, index: Int) { (list, self.index) = (listPlace, index) }

        public static func < (lhs: CacheOrder, rhs: CacheOrder) -> Bool {
            lhs.list != rhs.list ? lhs.list < rhs.list : lhs.index < rhs.index
        }
    }

    public var cacheOrder: CacheOrder { CacheOrder(listPlace: document.cachePlace, index: index) }
}

extension Collection where Element == EncodedListedItem {
    /// Gives back the pages of the parse cache these items were read from
    /// (`CachePages`): for a writer that
    /// has written a run of results and goes on to the next. Reading an
    /// item again maps its pages again.
    @inlinable
    public func releaseCachePages() { CachePages.release(lazy.map(\.document)) }

    /// True when the items come in the order their records lie in the
    /// parse cache (`cacheOrder`): results in manual order do.
    @inlinable
    public var isInCacheOrder: Bool {
        var previous: EncodedListedItem.CacheOrder?
        for item in self {
            let order = item.cacheOrder
            if let previous, order < previous { return false }
            previous = order
        }
        return true
    }

    /// Calls `body` with each item, in order, a run at a time, and gives the
    /// parse cache's pages back after each run (`releaseCachePages`): a pass
    /// over a whole folder's items in manual order, which is the cache's
    /// order, holds a run's pages, not the cache.
    @inlinable
    public func forEachReleasingCachePages(_ body: (EncodedListedItem) -> Void) {
        var pages = PassPages()
        for item in self {
            body(item)
            pages.read(item.document)
        }
        pages.release()
    }

    /// The non-nil results of `transform` on the items, in order, read as
    /// `forEachReleasingCachePages` reads them.
    @inlinable
    public func compactMapReleasingCachePages<Result>(_ transform: (EncodedListedItem) -> Result?) -> [Result] {
        var results: [Result] = []
        forEachReleasingCachePages { item in
            if let result = transform(item) { results.append(result) }
        }
        return results
    }

    /// Calls `body` with each item in the order their records lie in the
    /// parse cache (`cacheOrder`), not the collection's, a run at a time,
    /// and gives the cache's pages back after each run: a pass whose
    /// order does not matter over items in any order (by due date, by
    /// priority) holds a run's pages, not the cache.
    public func forEachInCacheOrderReleasingCachePages(_ body: (EncodedListedItem) -> Void) {
        var ordered = Array(self)
        // Results in manual order are in the cache's order already.
        if !ordered.isInCacheOrder { ordered.sort { $0.cacheOrder < $1.cacheOrder } }
        ordered.forEachReleasingCachePages(body)
    }
}
