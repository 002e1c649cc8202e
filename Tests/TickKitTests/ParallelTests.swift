import Foundation
import Testing

@testable import TickSystem

/// `Parallel.orderedChunks`: chunks rendered on every core reach the
/// writer whole and in order, however long each one takes.
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
}
