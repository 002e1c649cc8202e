import TickModel
import TickRecords
import TickSystem

/// How a writer of an array of items (the JSON items and groups documents,
/// the iCalendar and CSV exports) cuts them into runs to render on every
/// core and write in order, and gives the parse cache's pages back as the
/// runs are written: the one way they all do it.
///
/// Guarantees: the runs cover the items in order, each of at most `length`
/// items and of lists that span at most `span` of the cache (8 MB;
/// `CachePages.runs`: items in manual order lie close together, items by
/// due date far apart). The pages of the runs written are given back as
/// `WrittenCachePages` gives them back, so a writer holds a few megabytes
/// of the cache's pages, whatever the order. Items so scattered that the
/// runs would be of one or two items are rendered a window at a time in
/// the cache's order (`writeScattered`). Either way the bytes `render`
/// appends for each item, joined in the items' order, are the output.
struct ItemRuns {
    private let items: [EncodedListedItem]
    private let runs: [Range<Int>]
    private var pages = WrittenCachePages()

    /// The runs of `items`; nil for items so scattered that the runs
    /// would be of one item or two (more than a run for every eight items),
    /// found before the runs of them all are made (a million runs took 33
    /// MB while such items were written).
    private init?(_ items: [EncodedListedItem], ofAtMost length: Int, spanningAtMost span: Int) {
        let most = items.count > 4096 ? items.count / 8 : .max
        let runs = CachePages.runs(of: items.count, atMost: length, spanningAtMost: span, stoppingAfter: most) { items[$0].document }
        guard runs.count <= most else { return nil }
        self.items = items
        self.runs = runs
    }

    /// Notes that the run at `count - 1` is written (`count` runs are, in
    /// order), and gives pages back when enough are held.
    private mutating func runWritten(_ count: Int) {
        let run = runs[count - 1]
        // Read in place: a copy of each item would retain and release its list.
        items.withUnsafeBufferPointer { items in
            for position in run { pages.include(items[position].document) }
        }
        pages.written(run.count, isLast: count == runs.count)
    }

    /// What renders items: `render(positions, &output, itemEnded)` appends
    /// the bytes of the items at `positions`, in that order, and calls
    /// `itemEnded(output.count)` after each item's bytes (an item may have
    /// none). The
    /// positions are a run of the items, or scattered ones in the cache's
    /// order; what a writer keeps from one item to the next (the
    /// iCalendar export's escaped list names and paths) it keeps for one
    /// call.
    typealias Render = (_ positions: ArraySlice<Int>, _ output: inout ByteOutput, _ itemEnded: (Int) -> Void) -> Void

    /// Renders each run on every core and hands the runs' bytes to
    /// `deliver` in order, as soon as each and the runs before it are
    /// done, giving the pages back as they go. Items scattered over the
    /// cache (sorted by title: the runs would be of one item or two) are
    /// written a window at a time instead (`writeScattered`).
    /// (`span` is how much of the cache a run's lists may span, 8 MB; tests
    /// make it small.)
    static func write(
        _ items: [EncodedListedItem], runsOfAtMost length: Int, bytesPerItem: Int, spanningAtMost span: Int = 8 << 20,
        render: Render, deliver: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        guard var runs = ItemRuns(items, ofAtMost: length, spanningAtMost: span) else {
            return writeScattered(items, bytesPerItem: bytesPerItem, stretchSpan: span / 2, render: render, deliver: deliver)
        }
        let ranges = runs.runs
        var delivered = 0
        Parallel.orderedChunks(ranges.count, inFlight: 8, capacity: length * bytesPerItem) { run, output in
            render(Array(ranges[run])[...], &output) { _ in }
        } deliver: {
            deliver($0)
            delivered += 1
            runs.runWritten(delivered)
        }
    }

    /// Writes items that lie far apart in the cache, in order, a window of
    /// 8 MB of output at a time: each window's items are rendered in the
    /// cache's order (a stretch of at most `stretchSpan` of the cache on
    /// each core, its pages given back after it), then delivered in the
    /// items' order. Rendered in the items' order, each would map the
    /// cache's pages around it again (up to 2 MB, for a few hundred
    /// bytes): sorted by title, a million items took a minute. Here each
    /// window sweeps the cache once.
    private static func writeScattered(
        _ items: [EncodedListedItem], bytesPerItem: Int, stretchSpan: Int, render: Render,
        deliver: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        let window = max(1024, (8 << 20) / bytesPerItem)
        var output: [UInt8] = []
        output.reserveCapacity(window * bytesPerItem)
        // Where each item of the window was rendered: its stretch and its place in it.
        var renderedAt = [(stretch: Int32, index: Int32)](repeating: (0, 0), count: window)
        for start in stride(from: 0, to: items.count, by: window) {
            let positions = (start..<min(items.count, start + window)).sorted { items[$0].cacheOrder < items[$1].cacheOrder }
            // Stretches of at most 1,024 items spanning at most `stretchSpan` of the cache.
            let ranges = CachePages.runs(of: positions.count, atMost: 1024, spanningAtMost: stretchSpan) {
                items[positions[$0]].document
            }
            let stretches = Parallel.map(ranges.count) { stretch in
                let range = ranges[stretch]
                var bytes = ByteOutput(capacity: range.count * bytesPerItem)
                var ends: [Int] = []
                ends.reserveCapacity(range.count)
                render(positions[range], &bytes) { ends.append($0) }
                precondition(ends.count == range.count, "a render must end every item it is given")
                var pages = CachePages()
                for position in positions[range] { pages.include(items[position].document) }
                pages.release()
                return (bytes: bytes.release(), ends: ends)
            }
            for (stretch, range) in ranges.enumerated() {
                for (index, position) in positions[range].enumerated() {
                    renderedAt[position - start] = (Int32(stretch), Int32(index))
                }
            }
            output.removeAll(keepingCapacity: true)
            for place in 0..<positions.count {
                let (stretch, index) = (Int(renderedAt[place].stretch), Int(renderedAt[place].index))
                let rendered = stretches[stretch]
                let from = index == 0 ? 0 : rendered.ends[index - 1]
                output.append(contentsOf: UnsafeBufferPointer(rebasing: rendered.bytes.written[from..<rendered.ends[index]]))
            }
            for rendered in stretches { rendered.bytes.deallocate() }
            output.withUnsafeBufferPointer { deliver($0) }
            // The pages mapped around each stretch's ends, beyond its own.
            CachePages.release(positions.lazy.map { items[$0].document })
        }
    }
}
