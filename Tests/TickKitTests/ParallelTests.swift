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
}
