/// The runs of a merge of sorted runs, in a binary heap by their current
/// heads: the run whose head is first in order on top. The one heap of
/// tick's merges of many runs (a listing's rows into the parse cache's
/// order, a sort's pieces read back from disk). A merge takes the head of
/// `first`, moves that run to its next head (or finds it ended), and tells
/// the heap (`firstRunMoved`).
///
/// Runs are numbers, their heads the caller's: `before(a, b)` says whether
/// run `a`'s current head comes before run `b`'s, and is passed to each
/// call rather than kept, so that it reads the heads as the caller moves
/// them. A merge that breaks ties by run number (as `before` must, for a
/// stable merge) gives the heads in the order one stable sort of them all
/// would. (Numbers, not the heads themselves: a generic heap used from
/// other modules ran unspecialized, a call through a witness table for
/// every step.) A public type with package members, so that its
/// `@inlinable` members are inlined into other modules (`WordBytes`).
public struct MergeHeap {
    @usableFromInline var runs: [Int]

    /// The heap of `runs`, each with a head (in any order).
    @inlinable
    package init(_ runs: [Int], by before: (Int, Int) -> Bool) {
        self.runs = runs
        for index in stride(from: runs.count / 2 - 1, through: 0, by: -1) { siftDown(index, by: before) }
    }

    /// The run whose head is first in order; nil once every run has ended.
    @inlinable
    package var first: Int? { runs.first }

    /// Puts the first run back in its place once its head has moved on,
    /// or takes it out when `ended`.
    @inlinable
    package mutating func firstRunMoved(ended: Bool, by before: (Int, Int) -> Bool) {
        guard !runs.isEmpty else { return }
        if ended {
            runs[0] = runs[runs.count - 1]
            runs.removeLast()
        }
        if !runs.isEmpty { siftDown(0, by: before) }
    }

    @inlinable
    mutating func siftDown(_ start: Int, by before: (Int, Int) -> Bool) {
        var parent = start
        while true {
            var first = parent
            let left = 2 * parent + 1
            if left < runs.count, before(runs[left], runs[first]) { first = left }
            if left + 1 < runs.count, before(runs[left + 1], runs[first]) { first = left + 1 }
            if first == parent { return }
            runs.swapAt(parent, first)
            parent = first
        }
    }
}
