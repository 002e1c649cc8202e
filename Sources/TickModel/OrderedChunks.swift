import Foundation
import TickSystem

extension Parallel {
    /// Renders `count` chunks of bytes on every core and hands each to
    /// `deliver` in order, as soon as it and every chunk before it are done:
    /// no core waits for a batch to finish, and the whole output is never
    /// in memory. At most `inFlight` chunks are held at once, and their
    /// buffers serve chunk after chunk (fresh memory would cost a page fault
    /// per 4 KB written).
    ///
    /// `render` runs on several threads at once; `deliver` runs on one
    /// thread at a time, in chunk order.
    package static func orderedChunks(
        _ count: Int, inFlight: Int, capacity: Int,
        render: (Int, inout ByteOutput) -> Void,
        deliver: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        // Buffers delivered go back here for the next chunks: `inOrder`
        // holds at most `inFlight` at once.
        let lock = NSLock()
        nonisolated(unsafe) var free: [ByteOutput.Storage] = []
        inOrder(count, inFlight: inFlight) { index in
            let storage = lock.withLock { free.popLast() }
            var output = storage.map { ByteOutput(reusing: $0) } ?? ByteOutput(capacity: capacity)
            render(index, &output)
            return output.release()
        } take: { _, rendered in
            deliver(rendered.written)
            lock.withLock { free.append(rendered) }
        }
        for storage in free { storage.deallocate() }
    }
}
