import Dispatch
import Foundation

/// Runs `body` for every index on every core and collects the results in order.
public enum Parallel {
    /// Has the global queue make its threads now, from the calling thread's
    /// core: a thread that `BackgroundThread` started, while the main thread
    /// parses the command line. Made at the first `map`, they are made by the
    /// main thread, and Linux places a new thread on its maker's core, where
    /// it waited for up to 4 ms while the main thread worked through the map
    /// alone.
    public static func startWorkers() {
        for _ in 1..<ProcessInfo.processInfo.activeProcessorCount { DispatchQueue.global().async { HeapPages.enterThread() } }
    }

    /// `body(0)`, ..., `body(count - 1)`, in that order; `body` runs on
    /// several threads at once, so it must only read shared state.
    public static func map<T>(_ count: Int, _ body: (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            // Release what the buffer holds, then the buffer: without the
            // first step every result would leak.
            results.deinitialize()
            results.deallocate()
        }
        nonisolated(unsafe) let shared = results
        withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) let work = body
            DispatchQueue.concurrentPerform(iterations: count) { index in
                HeapPages.enterThread()
                shared[index] = work(index)
            }
        }
        return results.map { $0! }
    }

    /// An array of `count` elements made on every core. `fill` is called
    /// with each range of `0..<count` cut in pieces of `chunkSize` (the
    /// last one shorter) and calls `append` once for each index of its
    /// range, in order, with that index's element. Each element is written
    /// where it belongs in the array: results gathered per piece and then
    /// copied into one array would be copied on one core, and a copy of a
    /// reference retains it.
    public static func array<T>(count: Int, chunksOf chunkSize: Int, _ fill: (Range<Int>, _ append: (T) -> Void) -> Void) -> [T] {
        guard count > 0 else { return [] }
        precondition(chunkSize > 0, "Parallel.array needs pieces of at least one element")
        return [T](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            nonisolated(unsafe) let elements = buffer
            withoutActuallyEscaping(fill) { fill in
                nonisolated(unsafe) let work = fill
                DispatchQueue.concurrentPerform(iterations: (count + chunkSize - 1) / chunkSize) { chunk in
                    HeapPages.enterThread()
                    let range = chunk * chunkSize..<min(count, (chunk + 1) * chunkSize)
                    var next = range.lowerBound
                    work(range) { element in
                        precondition(next < range.upperBound, "Parallel.array: more elements than the range holds")
                        (elements.baseAddress! + next).initialize(to: element)
                        next += 1
                    }
                    precondition(next == range.upperBound, "Parallel.array: fewer elements than the range holds")
                }
            }
            initializedCount = count
        }
    }

    /// `body` of each range of `0..<count` cut in pieces of `chunkSize`
    /// (the last one shorter), in order, on every core.
    public static func map<T>(chunksOf chunkSize: Int, in count: Int, _ body: (Range<Int>) -> T) -> [T] {
        map((count + chunkSize - 1) / chunkSize) { chunk in
            body(chunk * chunkSize..<min(count, (chunk + 1) * chunkSize))
        }
    }

    /// Makes the result of each index of `0..<count` on every core, the
    /// indices taken in order, and hands each result to `take` in index
    /// order as soon as it and every one before it are made: no core waits
    /// for the others between steps, as it would after each `map`. At most
    /// `inFlight` results are being made or waiting to be taken.
    ///
    /// `make` runs on several threads at once, so it must only read shared
    /// state; `take` runs on one thread at a time, in index order (on the
    /// thread that made the next result in order, while the others go on
    /// making theirs).
    public static func inOrder<T>(_ count: Int, inFlight: Int, make: (Int) -> T, take: (Int, T) -> Void) {
        guard count > 0 else { return }
        let lock = NSLock()
        // An index is taken only with a slot, so the next result to take is
        // always being made or about to be: the slots can never all be held
        // by results that wait for it.
        let slots = DispatchSemaphore(value: max(1, inFlight))
        nonisolated(unsafe) var made = [T?](repeating: nil, count: count)
        nonisolated(unsafe) var nextIndex = 0
        nonisolated(unsafe) var nextToTake = 0
        withoutActuallyEscaping(make) { make in
            withoutActuallyEscaping(take) { take in
                nonisolated(unsafe) let make = make
                nonisolated(unsafe) let take = take
                DispatchQueue.concurrentPerform(iterations: min(count, ProcessInfo.processInfo.activeProcessorCount)) { _ in
                    HeapPages.enterThread()
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
                        lock.unlock()
                        let result = make(index)
                        lock.lock()
                        made[index] = result
                        // Whoever makes the next result in order takes it and
                        // the made ones after it, outside the lock. A result
                        // is moved out of `made` before it is taken, and the
                        // next is looked for only after: no other thread can
                        // take one meanwhile, and a result made meanwhile is
                        // found by the one taking.
                        while nextToTake < count, let ready = made[nextToTake].take() {
                            let index = nextToTake
                            lock.unlock()
                            take(index, ready)
                            lock.lock()
                            nextToTake += 1
                            slots.signal()
                        }
                        lock.unlock()
                    }
                }
            }
        }
    }
}
