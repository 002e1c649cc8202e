import Foundation
import TickModel
import TickRecords
import TickSystem

// How items compare under each sort key: the engine's half of `SortKey`.
extension SortKey {
    /// Sorts by `keys` in turn, then manual order; `reverse` flips the whole
    /// order. Each item's value for each key is read once, before sorting,
    /// into the key's column (`SortColumn`): comparing read the items'
    /// records, and made their strings, at every step of the sort.
    public static func sort(_ items: [EncodedListedItem], by keys: [SortKey], reverse: Bool = false, today: TaskDate) -> [EncodedListedItem] {
        sort(items, by: keys, reverse: reverse, today: today, inPiecesOf: itemsSortedAtOnce)
    }

    /// `sort(_:by:reverse:today:)`, a sort by title of more than
    /// `pieceSize` items sorted in pieces of that many (`sortedInPieces`;
    /// tests make the pieces small).
    package static func sort(
        _ items: [EncodedListedItem], by keys: [SortKey], reverse: Bool = false, today: TaskDate, inPiecesOf pieceSize: Int
    ) -> [EncodedListedItem] {
        // Items already in manual order (results are) keep it on a tie
        // without a column of it: the sort is stable.
        let columnKeys = keys + (isInManualOrder(items) ? [] : [.manual])
        var order: [Int32]? = nil
        if items.count > pieceSize, keys.contains(.title) {
            order = sortedInPieces(items, by: columnKeys, today: today, pieceSize: pieceSize)
        }
        var sorted = order ?? sortedOrder(items, by: columnKeys, today: today).order
        if reverse { sorted.reverse() }
        return sorted.map { items[Int($0)] }
    }

    /// The most items a sort by title sorts at once: its titles' bytes
    /// are held while it sorts (a million titles, 40 MB and more).
    static let itemsSortedAtOnce = 262_144

    /// The places of `items` in the order of the columns of `columnKeys`
    /// (ties keep the items' order), and the columns, texts kept when
    /// `keepingTexts`. The columns are let go before the items are put in
    /// this order.
    static func sortedOrder(
        _ items: [EncodedListedItem], by columnKeys: [SortKey], today: TaskDate, keepingTexts: Bool = false
    ) -> (order: [Int32], columns: [SortColumn]) {
        var columns = columnKeys.map { SortColumn(key: $0, capacity: items.count) }
        items.forEachReleasingCachePages { item in
            for place in columns.indices { columns[place].append(item, today: today) }
        }
        for place in columns.indices { columns[place].collate(keepingTexts: keepingTexts) }
        let filled = columns
        // Comparing texts in the locale's order is most of a sort by title or
        // list, worth a second core; comparing numbers is not.
        let cores = columnKeys.contains { $0 == .title || $0 == .list } ? ProcessInfo.processInfo.activeProcessorCount : 1
        // The texts are compared first, through references not retained: a
        // column read for a call into another module was copied for each
        // comparison, its arrays retained and released from both cores at
        // once (a third of a sort by title). (`filled` holds each column's
        // texts for the whole sort.)
        let texts = filled.map { $0.collated.map(Unmanaged.passUnretained) }
        let order = withExtendedLifetime(filled) {
            sortedIndices(items.count, onCores: cores) { lhs, rhs in
                for place in filled.indices {
                    var result = texts[place].map { texts in texts._withUnsafeGuaranteedRef { $0.compare(lhs, rhs) } } ?? 0
                    if result == 0 { result = filled[place].compare(lhs, rhs) }
                    if result != 0 { return result < 0 }
                }
                return false
            }
        }
        return (order, filled)
    }

    /// True when each item comes after the one before in manual order (its
    /// list's rank, then its place in the list), read from the items
    /// themselves, not their records.
    private static func isInManualOrder(_ items: [EncodedListedItem]) -> Bool {
        for place in items.indices.dropFirst() {
            let (previous, item) = (items[place - 1], items[place])
            if (previous.listRank, previous.index) >= (item.listRank, item.index) { return false }
        }
        return true
    }

    /// `0..<count` sorted by `less` on `cores` cores: a part of the indices
    /// sorted on each, then the parts merged, the earlier part's index
    /// first on a tie, so the order is the one sorting them all on one
    /// core gives (Swift's sort keeps ties in order). `less` runs on
    /// several threads at once. (Indices of 32 bits: a million items
    /// sorted hold several arrays of them at once.)
    private static func sortedIndices(_ count: Int, onCores cores: Int, by less: (Int, Int) -> Bool) -> [Int32] {
        guard count > 0 else { return [] }
        precondition(count <= Int(Int32.max), "more items than a sort can place")
        // Below this, a second core costs about what it saves.
        let parts = count < 20_000 ? 1 : max(1, cores)
        var sorted = Parallel.map(chunksOf: (count + parts - 1) / parts, in: count) { range in
            var part = (Int32(range.lowerBound)..<Int32(range.upperBound)).map { $0 }
            part.sort { less(Int($0), Int($1)) }
            return part
        }
        while sorted.count > 1 {
            sorted = Parallel.map((sorted.count + 1) / 2) { pair in
                pair * 2 + 1 < sorted.count ? merged(sorted[pair * 2], sorted[pair * 2 + 1], by: less) : sorted[pair * 2]
            }
        }
        return sorted.first ?? []
    }

    /// Two sorted runs as one, `left`'s element first on a tie.
    private static func merged(_ left: [Int32], _ right: [Int32], by less: (Int, Int) -> Bool) -> [Int32] {
        var result: [Int32] = []
        result.reserveCapacity(left.count + right.count)
        var (l, r) = (0, 0)
        while l < left.count, r < right.count {
            if less(Int(right[r]), Int(left[l])) {
                result.append(right[r])
                r += 1
            } else {
                result.append(left[l])
                l += 1
            }
        }
        result.append(contentsOf: left[l...])
        result.append(contentsOf: right[r...])
        return result
    }
}

/// One sort key's values for a run of items, read once, in the form the
/// key compares: a number (manual order, its list's rank and its place
/// packed in one; priority; dates), a real number (urgency), or a text
/// compared as people read it and then a path compared as bytes (title,
/// list). Only the key's own form is filled, so a key ordered by numbers
/// holds 8 bytes an item.
struct SortColumn {
    let key: SortKey
    private var numbers: [Int64] = []
    private var reals: [Double] = []
    /// The texts (titles, list names) as they are gathered, then made
    /// ready to compare (`collated`, once every item is in); nil for a key
    /// that compares no text.
    private var texts: CollatedTexts.Texts?
    /// The texts ready to compare; the comparisons compare them before
    /// `compare`.
    private(set) var collated: CollatedTexts?
    /// The list paths that break ties between list names.
    private var paths: [String] = []
    /// The list whose name was appended last: the items of a list come
    /// together, and share its name's text.
    private var lastList: EncodedDocument?

    init(key: SortKey, capacity: Int) {
        self.key = key
        texts = key == .title || key == .list ? CollatedTexts.Texts(capacity: capacity) : nil
        switch key {
        case .urgency: reals.reserveCapacity(capacity)
        case .title: break
        case .list: paths.reserveCapacity(capacity)
        case .manual, .priority, .due, .created, .done: numbers.reserveCapacity(capacity)
        }
    }

    /// Adds what the key compares of `item` (`today` counts only for urgency).
    mutating func append(_ item: EncodedListedItem, today: TaskDate) {
        switch key {
        case .urgency: reals.append(Urgency(item, today: today).total)
        // The list's rank, then the item's place in it (file order).
        case .manual: numbers.append(Int64(item.listRank) << 32 | Int64(item.index))
        case .title: texts!.append(utf8: item.title.bytes)
        // Higher priority first.
        case .priority: numbers.append(-Int64(item.priority.rawValue))
        case .due: numbers.append(Self.number(item.date(.due)))
        case .created: numbers.append(Self.number(item.date(.created)))
        case .done: numbers.append(Self.number(item.date(.done)))
        case .list:
            if lastList === item.document {
                texts!.appendLastAgain()
            } else {
                texts!.append(item.listName)
                lastList = item.document
            }
            paths.append(item.listPath)
        }
    }

    /// A date in `SortKey.orderKey(of:)`'s order (none last).
    private static func number(_ date: TaskDate?) -> Int64 { Int64(clamping: SortKey.orderKey(of: date)) }

    /// Makes the texts ready to compare, once every item is in; with
    /// `keepingTexts`, the texts are kept too (to be written out).
    mutating func collate(keepingTexts: Bool = false) {
        guard let gathered = texts else { return }
        if !keepingTexts { texts = nil }
        collated = CollatedTexts(gathered)
    }

    /// Appends this key's value of the item at `place` to `bytes`, as a
    /// sort in pieces writes it out (`compareWritten` reads it): a number
    /// in 8 bytes; a text (title, list name, then list path) as its length
    /// in 4 bytes and its bytes. The texts must be kept (`collate`).
    func appendValue(of place: Int, to bytes: inout [UInt8]) {
        func appendText(_ text: UnsafeBufferPointer<UInt8>) {
            withUnsafeBytes(of: UInt32(text.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: text)
        }
        switch key {
        case .urgency: withUnsafeBytes(of: reals[place].bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        case .manual, .priority, .due, .created, .done: withUnsafeBytes(of: numbers[place].littleEndian) { bytes.append(contentsOf: $0) }
        case .title: texts!.withText(place, appendText)
        case .list:
            texts!.withText(place, appendText)
            var path = paths[place]
            path.withUTF8(appendText)
        }
    }

    /// Compares the values of `key` that `appendValue` wrote of two items,
    /// at `leftAt` in `left` and `rightAt` in `right`, as `compare` and the
    /// column's texts compare them (`texts`: a column's, for its locale),
    /// and moves both past them.
    static func compareWritten(
        _ key: SortKey, _ left: UnsafeRawBufferPointer, _ leftAt: inout Int, _ right: UnsafeRawBufferPointer, _ rightAt: inout Int,
        texts: CollatedTexts
    ) -> Int {
        func number(_ bytes: UnsafeRawBufferPointer, _ at: inout Int) -> UInt64 {
            defer { at += 8 }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }
        func text(_ bytes: UnsafeRawBufferPointer, _ at: inout Int) -> UnsafeBufferPointer<UInt8> {
            let count = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
            defer { at += 4 + count }
            return UnsafeBufferPointer(rebasing: bytes.assumingMemoryBound(to: UInt8.self)[at + 4..<at + 4 + count])
        }
        switch key {
        case .urgency:
            // Most urgent first.
            return order(Double(bitPattern: number(right, &rightAt)), Double(bitPattern: number(left, &leftAt)))
        case .manual, .priority, .due, .created, .done:
            return order(Int64(bitPattern: number(left, &leftAt)), Int64(bitPattern: number(right, &rightAt)))
        case .title:
            return texts.compare(utf8: text(left, &leftAt), text(right, &rightAt))
        case .list:
            let names = texts.compare(utf8: text(left, &leftAt), text(right, &rightAt))
            let (leftPath, rightPath) = (text(left, &leftAt), text(right, &rightAt))
            if names != 0 { return names }
            return order(String(decoding: leftPath, as: UTF8.self), String(decoding: rightPath, as: UTF8.self))
        }
    }

    /// Negative, zero or positive as the item at `lhs` sorts before, with
    /// or after the one at `rhs` for this key alone, once their texts
    /// (`collated`), when the key has some, compare the same.
    func compare(_ lhs: Int, _ rhs: Int) -> Int {
        switch key {
        // Most urgent first.
        case .urgency: return Self.order(reals[rhs], reals[lhs])
        case .manual, .priority, .due, .created, .done: return Self.order(numbers[lhs], numbers[rhs])
        case .title: return 0
        case .list: return Self.order(paths[lhs], paths[rhs])
        }
    }

    /// Negative, zero or positive as `left` is below, equal to or above `right`.
    private static func order<Value: Comparable>(_ left: Value, _ right: Value) -> Int {
        left < right ? -1 : (left == right ? 0 : 1)
    }
}
