import TickModel
import TickRecords
import TickSystem

/// How a writer of an array of items (the JSON items document, the
/// iCalendar and CSV exports) cuts them into runs to render on every core
/// and write in order, and gives the parse cache's pages back as the runs
/// are written: the one way they all do it.
///
/// Guarantees: the runs cover the items in order, each of at most `length`
/// items and of lists that span at most 8 MB of the cache
/// (`CachePages.runs`: items in manual order lie close together, items by
/// due date far apart). The pages of the runs written are given back as
/// `WrittenCachePages` gives them back, so a writer holds a few megabytes
/// of the cache's pages, whatever the order.
struct ItemRuns {
    let items: [EncodedListedItem]
    let runs: [Range<Int>]
    private var written = WrittenCachePages()

    init(_ items: [EncodedListedItem], ofAtMost length: Int) {
        self.items = items
        runs = CachePages.runs(of: items.count, atMost: length, spanningAtMost: 8 << 20) { items[$0].document }
    }

    /// Notes that the run at `count - 1` is written (`count` runs are, in
    /// order), and gives pages back when enough are held.
    mutating func written(_ count: Int) {
        let run = runs[count - 1]
        written.add(items[run].lazy.map(\.document), items: run.count, isLast: count == runs.count)
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
