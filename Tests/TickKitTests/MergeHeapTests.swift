import Testing

@testable import TickSystem

/// The heap that merges sorted runs (a listing's rows into the cache's
/// order, a sort's pieces).
@Suite("Merge heap")
struct MergeHeapTests {
    @Test("merging sorted runs gives one sorted order, an earlier run's element first on a tie")
    func mergingRunsGivesOneStableOrder() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            // Runs of (value, run) pairs, each sorted by value; values repeat across runs.
            let runs = (0..<Int.random(in: 0...9, using: &generator)).map { run in
                (0..<Int.random(in: 0...12, using: &generator)).map { _ in Int.random(in: 0...6, using: &generator) }.sorted().map { ($0, run) }
            }
            var next = [Int](repeating: 0, count: runs.count)
            func before(_ a: Int, _ b: Int) -> Bool {
                let (left, right) = (runs[a][next[a]], runs[b][next[b]])
                return left.0 != right.0 ? left.0 < right.0 : left.1 < right.1
            }
            var merge = MergeHeap(runs.indices.filter { !runs[$0].isEmpty }, by: before)
            var merged: [(Int, Int)] = []
            while let run = merge.first {
                merged.append(runs[run][next[run]])
                next[run] += 1
                merge.firstRunMoved(ended: next[run] == runs[run].count, by: before)
            }
            let expected = runs.joined().sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            #expect(merged.map(\.0) == expected.map(\.0))
            #expect(merged.map(\.1) == expected.map(\.1))
        }
    }
}
