import TickModel
import TickRecords
import TickSystem

/// How a writer of an array of items (the JSON items document, the
/// iCalendar and CSV exports) cuts them into runs to render on every core
/// and write in order, and gives the parse cache's pages back as the runs
/// are written: the one way they all do it.
///
/// Guarantees: the runs cover the items in order, each of at most `length`
/// items. Items in the cache's order (results in manual order) are cut
/// every `length` items and their pages given back a few thousand items
/// at a time; items in another order (by due date, which lie far apart in
/// the cache) are cut where their lists would span more than 8 MB of the
/// cache (`CachePages.runs`), and each run's pages are given back once it
/// is written. Either way a writer holds a few runs' pages, not the cache's.
struct ItemRuns {
    let items: [EncodedListedItem]
    let runs: [Range<Int>]
    private let inCacheOrder: Bool
    private var released = 0

    init(_ items: [EncodedListedItem], ofAtMost length: Int) {
        self.items = items
        inCacheOrder = items.isInCacheOrder
        runs =
            inCacheOrder
            ? stride(from: 0, to: items.count, by: length).map { $0..<min(items.count, $0 + length) }
            : CachePages.runs(of: items.count, atMost: length, spanningAtMost: 8 << 20) { items[$0].document }
    }

    /// Gives back the pages of the runs written so far; `count`, how many
    /// runs are written, is told after each run, in order.
    mutating func written(_ count: Int) {
        if inCacheOrder {
            released = items.releaseCachePages(written: runs[count - 1].upperBound, releasedBefore: released)
        } else {
            items[runs[count - 1]].releaseCachePages()
        }
    }

    /// Renders each run on every core (`render` appends a run's bytes) and
    /// hands the runs' bytes to `deliver` in order, as soon as each and
    /// the runs before it are done, giving the pages back as they go.
    static func write(
        _ items: [EncodedListedItem], runsOfAtMost length: Int, bytesPerItem: Int,
        render: (ArraySlice<EncodedListedItem>, inout ByteOutput) -> Void,
        deliver: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var runs = ItemRuns(items, ofAtMost: length)
        let ranges = runs.runs
        var delivered = 0
        Parallel.orderedChunks(ranges.count, inFlight: 8, capacity: length * bytesPerItem) { run, output in
            render(items[ranges[run]], &output)
        } deliver: {
            deliver($0)
            delivered += 1
            runs.written(delivered)
        }
    }
}
