import Dispatch
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
        guard count > 0 else { return }
        let lock = NSLock()
        // A chunk takes a slot before it takes its index, so the next chunk
        // to deliver is always being rendered or about to be: the slots can
        // never all be held by chunks that wait for it.
        let slots = DispatchSemaphore(value: max(1, inFlight))
        nonisolated(unsafe) var free: [ByteOutput.Storage] = []
        nonisolated(unsafe) var done = [ByteOutput.Storage?](repeating: nil, count: count)
        nonisolated(unsafe) var nextIndex = 0
        nonisolated(unsafe) var nextToDeliver = 0
        withoutActuallyEscaping(render) { render in
            withoutActuallyEscaping(deliver) { deliver in
                nonisolated(unsafe) let render = render
                nonisolated(unsafe) let deliver = deliver
                let workers = min(count, ProcessInfo.processInfo.activeProcessorCount)
                DispatchQueue.concurrentPerform(iterations: workers) { _ in
                    while true {
                        slots.wait()
                        lock.lock()
                        guard nextIndex < count else {
                            lock.unlock()
                            slots.signal()
                            return
                        }
                        let index = nextIndex
                        nextIndex += 1
                        let storage = free.popLast()
                        lock.unlock()
                        var output = storage.map { ByteOutput(reusing: $0) } ?? ByteOutput(capacity: capacity)
                        render(index, &output)
                        let rendered = output.release()
                        lock.lock()
                        done[index] = rendered
                        // Whoever finishes the next chunk in order delivers it
                        // and the finished ones after it, outside the lock, so
                        // that the other cores go on rendering meanwhile. A
                        // chunk is taken out of `done` before it is delivered
                        // and the next one is looked for only after it: no
                        // other thread can deliver until then, and a chunk
                        // finished meanwhile is found by the one delivering.
                        while nextToDeliver < count, let ready = done[nextToDeliver] {
                            done[nextToDeliver] = nil
                            lock.unlock()
                            deliver(ready.written)
                            lock.lock()
                            free.append(ready)
                            nextToDeliver += 1
                            slots.signal()
                        }
                        lock.unlock()
                    }
                }
            }
        }
        for storage in free { storage.deallocate() }
    }
}
