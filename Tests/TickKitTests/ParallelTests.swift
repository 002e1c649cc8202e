import Foundation
import Testing

@testable import TickSystem

/// `Parallel`'s passes on every core: results and chunks reach their
/// taker whole and in order, however long each one takes.
@Suite struct ParallelTests {
    /// A slow delivery lets other chunks finish while one is delivered
    /// (outside the pool's lock): they are delivered after it, in order,
    /// and never two at once.
    @Test(arguments: [0, 1, 2, 7, 50], [false, true])
    func chunksAreDeliveredInOrderWhateverTheirTiming(count: Int, slowDelivery: Bool) {
        for inFlight in [1, 2, 3, 8] {
            var delivered: [UInt8] = []
            var deliveries = 0
            var delivering = 0
            var mostAtOnce = 0
            Parallel.orderedChunks(
                count, inFlight: inFlight, capacity: 16,
                render: { index, output in
                    // Later chunks often finish first: early ones sleep longer.
                    usleep(useconds_t((count - index) % 4 * 300))
                    // Chunk i is i+1 copies of the byte i (beyond the buffer's capacity for some).
                    output.append(UInt8(truncatingIfNeeded: index), count: index + 1)
                },
                deliver: { chunk in
                    delivering += 1
                    mostAtOnce = max(mostAtOnce, delivering)
                    if slowDelivery { usleep(700) }
                    delivered.append(contentsOf: chunk)
                    deliveries += 1
                    delivering -= 1
                })
            let expected = (0..<count).flatMap { Array(repeating: UInt8(truncatingIfNeeded: $0), count: $0 + 1) }
            #expect(delivered == expected, "\(count) chunks, \(inFlight) in flight")
            #expect(deliveries == count)
            #expect(mostAtOnce <= 1)
        }
    }

    /// `Parallel.inOrder` takes each result once, in index order, one at a
    /// time, whatever order they are made in; no more than `inFlight` are
    /// being made or waiting at once; and each result is released once
    /// taken (none leaked).
    @Test(arguments: [0, 1, 2, 7, 50], [1, 2, 3, 8])
    func resultsAreTakenInOrderWithAtMostInFlightHeld(count: Int, inFlight: Int) {
        let tally = Tally()
        let held = Tally()
        let mostHeld = Tally()
        var taken: [Int] = []
        var taking = 0
        var mostTakingAtOnce = 0
        Parallel.inOrder(count, inFlight: inFlight) { index in
            held.add(1)
            mostHeld.raise(to: held.alive)
            // Later results are often made first: early ones sleep longer.
            usleep(useconds_t((count - index) % 4 * 300))
            return Counted(index * 5, in: tally)
        } take: { index, result in
            taking += 1
            mostTakingAtOnce = max(mostTakingAtOnce, taking)
            #expect(result.value == index * 5)
            taken.append(index)
            taking -= 1
            held.add(-1)
        }
        #expect(taken == Array(0..<count))
        #expect(mostTakingAtOnce <= 1)
        #expect(mostHeld.alive <= inFlight)
        #expect(tally.alive == 0)
    }

    /// How many `Counted` objects of one test are alive.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var alive: Int { lock.withLock { count } }
        func add(_ change: Int) { lock.withLock { count += change } }
        /// Keeps the larger of the count and `value`.
        func raise(to value: Int) { lock.withLock { count = max(count, value) } }
    }

    /// An object that counts itself in its test's tally while it lives.
    final class Counted {
        let value: Int
        let tally: Tally
        init(_ value: Int, in tally: Tally) {
            self.value = value
            self.tally = tally
            tally.add(1)
        }
        deinit { tally.add(-1) }
    }

    /// `Parallel.array` writes each piece's elements where they belong, on
    /// every core: the array holds every element once, in order, and its
    /// references are released with it (none leaked, none freed early).
    @Test(arguments: [0, 1, 2, 7, 100, 1000], [1, 3, 64, 5000])
    func arrayMadeInPiecesHoldsEveryElementInOrder(count: Int, chunkSize: Int) {
        let tally = Tally()
        do {
            let made = Parallel.array(count: count, chunksOf: chunkSize) { (range, append: (Counted) -> Void) in
                // Pieces finish out of order.
                usleep(useconds_t((count - range.lowerBound) % 3 * 200))
                for index in range { append(Counted(index * 3, in: tally)) }
            }
            #expect(made.map(\.value) == (0..<count).map { $0 * 3 })
            #expect(tally.alive == count)
        }
        #expect(tally.alive == 0)
    }

    /// How many times each of `count` indices ran in one `Parallel.perform`
    /// (each run also making a pass of its own, when `nested`).
    private func runs(_ count: Int, nested: Bool = false) -> [Int] {
        let lock = NSLock()
        nonisolated(unsafe) var runs = [Int](repeating: 0, count: count)
        Parallel.perform(count) { index in
            if nested { #expect(Parallel.map(3) { $0 } == [0, 1, 2]) }
            lock.withLock { runs[index] += 1 }
        }
        return runs
    }

    /// Passes one after another, while the workers wait awake.
    @Test func everyIndexRunsOnceInPassesOneAfterAnother() {
        for count in [0, 1, 2, 3, 17, 1000] {
            #expect(runs(count) == Array(repeating: 1, count: count), "\(count) indices")
        }
    }

    /// A pass after the workers have gone to sleep wakes them, or runs without them.
    @Test func everyIndexRunsOnceAfterTheWorkersHaveSlept() {
        _ = runs(10)
        usleep(useconds_t(Parallel.Workers.awakeNanoseconds / 1000 * 3))
        #expect(runs(50) == Array(repeating: 1, count: 50))
    }

    /// Passes from several threads at once (one has the workers, the
    /// others go to the global queue) and passes made inside a pass.
    @Test func passesAtOnceAndWithinPassesRunEveryIndexOnce() {
        let all = Parallel.map(4) { _ in runs(200, nested: true) }
        for runs in all { #expect(runs == Array(repeating: 1, count: 200)) }
    }

    /// A pass that does not return while a worker is at it, and that no
    /// worker comes late to: nothing runs once it has returned.
    @Test func nothingRunsAfterAPassReturns() {
        let lock = NSLock()
        nonisolated(unsafe) var calls = 0
        for pass in 1...50 {
            Parallel.perform(2) { _ in lock.withLock { calls += 1 } }
            #expect(lock.withLock { calls } == pass * 2)
            usleep(100)
            #expect(lock.withLock { calls } == pass * 2)
        }
    }

    /// A pass is shared with a worker where there are other cores: the
    /// thread that takes the first index waits (up to 2 s) until another
    /// thread has taken the second. (The workers are taken first, as
    /// `perform` takes them: another test's pass may hold them a moment.)
    @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount > 1))
    func aPassIsSharedWithAWorker() throws {
        let workers = try #require(Parallel.Workers.shared)
        let busyUntil = Date().addingTimeInterval(10)
        while !workers.take() {
            try #require(Date() < busyUntil, "another pass held the workers for 10 s")
            usleep(1000)
        }
        let lock = NSLock()
        nonisolated(unsafe) var threads = Set<UInt>()
        let pass = Parallel.Pass(iterations: 2) { _ in
            lock.withLock { _ = threads.insert(UInt(bitPattern: Int(bitPattern: pthread_self()))) }
            let waitUntil = Date().addingTimeInterval(2)
            while lock.withLock({ threads.count }) < 2, Date() < waitUntil { usleep(100) }
        }
        workers.start(pass)
        pass.work()
        pass.close()
        workers.finish()
        #expect(lock.withLock { threads.count } == 2)
    }
}
