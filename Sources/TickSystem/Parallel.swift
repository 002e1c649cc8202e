import Dispatch

/// Runs `body` for every index on every core and collects the results in order.
public enum Parallel {
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
                shared[index] = work(index)
            }
        }
        return results.map { $0! }
    }

    /// `body` of each range of `0..<count` cut in pieces of `chunkSize`
    /// (the last one shorter), in order, on every core.
    public static func map<T>(chunksOf chunkSize: Int, in count: Int, _ body: (Range<Int>) -> T) -> [T] {
        map((count + chunkSize - 1) / chunkSize) { chunk in
            body(chunk * chunkSize..<min(count, (chunk + 1) * chunkSize))
        }
    }
}
