import Foundation
import Testing

@testable import TickSystem

/// `Parallel.orderedChunks`: chunks rendered on every core reach the
/// writer whole and in order, however long each one takes.
@Suite struct ParallelTests {
    @Test(arguments: [0, 1, 2, 7, 50])
    func chunksAreDeliveredInOrderWhateverTheirTiming(count: Int) {
        for inFlight in [1, 2, 3, 8] {
            var delivered: [UInt8] = []
            var deliveries = 0
            Parallel.orderedChunks(
                count, inFlight: inFlight, capacity: 16,
                render: { index, output in
                    // Later chunks often finish first: early ones sleep longer.
                    usleep(useconds_t((count - index) % 4 * 300))
                    // Chunk i is i+1 copies of the byte i (beyond the buffer's capacity for some).
                    output.append(UInt8(truncatingIfNeeded: index), count: index + 1)
                },
                deliver: { chunk in
                    delivered.append(contentsOf: chunk)
                    deliveries += 1
                })
            let expected = (0..<count).flatMap { Array(repeating: UInt8(truncatingIfNeeded: $0), count: $0 + 1) }
            #expect(delivered == expected, "\(count) chunks, \(inFlight) in flight")
            #expect(deliveries == count)
        }
    }
}
