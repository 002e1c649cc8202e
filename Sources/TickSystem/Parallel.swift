import CSystemCalls
import Dispatch
import Foundation
import Synchronization

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
        perform(count) { index in
            HeapPages.enterThread()
            results[index] = body(index)
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
            let elements = buffer
            perform((count + chunkSize - 1) / chunkSize) { chunk in
                HeapPages.enterThread()
                let range = chunk * chunkSize..<min(count, (chunk + 1) * chunkSize)
                var next = range.lowerBound
                fill(range) { element in
                    precondition(next < range.upperBound, "Parallel.array: more elements than the range holds")
                    (elements.baseAddress! + next).initialize(to: element)
                    next += 1
                }
                precondition(next == range.upperBound, "Parallel.array: fewer elements than the range holds")
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
        perform(min(count, ProcessInfo.processInfo.activeProcessorCount)) { _ in
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

    /// `body(0)`, ..., `body(iterations - 1)`, each once, on the calling
    /// thread and on `Workers`; it returns when every call is done. It
    /// waits only for the workers that began: one that comes late finds
    /// every index taken and the pass closed, and leaves at once. While
    /// another thread's pass has the workers, or without them, it is the
    /// global queue's `concurrentPerform`.
    static func perform(_ iterations: Int, _ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            guard iterations > 1, let workers = Workers.shared, workers.take() else {
                nonisolated(unsafe) let work = body
                DispatchQueue.concurrentPerform(iterations: iterations) { work($0) }
                return
            }
            let pass = Pass(iterations: iterations, body: body)
            workers.start(pass)
            pass.work()
            pass.close()
            workers.finish()
        }
    }

    /// One `perform`: the next index to take, and who is working on it.
    final class Pass: @unchecked Sendable {
        let iterations: Int
        let next = Atomic<Int>(0)
        /// Twice the number of workers working, plus one once the pass is
        /// closed: a worker may begin only while it is open.
        let state = Atomic<Int>(0)
        /// Signalled by the last worker to leave a closed pass.
        let workersDone = DispatchSemaphore(value: 0)
        /// Read by workers only between a begin and a leave, both before
        /// `close` returns, which lets it go: `perform`'s caller owns it.
        private var body: ((Int) -> Void)?

        init(iterations: Int, body: @escaping (Int) -> Void) {
            self.iterations = iterations
            self.body = body
        }

        /// Takes indices until none is left.
        func work() {
            guard let body else { return }
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < iterations else { return }
                body(index)
            }
        }

        /// A worker's part: work, if the pass is still open.
        func help() {
            var seen = state.load(ordering: .acquiring)
            while true {
                if seen & 1 != 0 { return }
                let (exchanged, original) = state.compareExchange(
                    expected: seen, desired: seen + 2, ordering: .acquiringAndReleasing)
                if exchanged { break }
                seen = original
            }
            work()
            if state.wrappingSubtract(2, ordering: .acquiringAndReleasing).newValue == 1 { workersDone.signal() }
        }

        /// Closes the pass to workers not yet begun, waits for those at
        /// work, and lets `body` go.
        func close() {
            if state.bitwiseOr(1, ordering: .acquiringAndReleasing).newValue != 1 { workersDone.wait() }
            body = nil
        }
    }

    /// The threads that work on `Parallel`'s passes beside the calling
    /// thread, one for each other core. They are started on other cores
    /// than their starter's (`tick_thread_start_elsewhere`), and between
    /// passes they wait awake for a moment before they sleep.
    ///
    /// Why not the global queue alone: its threads sleep as soon as a pass
    /// ends, and Linux (in the VM tick is measured in) often queued the
    /// woken thread on its waker's core, which the waker keeps busy with
    /// the pass, though the other core was idle: in one text query in six
    /// the walk's pass took 9.5 ms instead of 6, the two threads sharing
    /// one core for 3 ms. A worker that waits awake for the next pass (most
    /// follow within a millisecond or two) keeps its core.
    final class Workers: @unchecked Sendable {
        /// Nil on a machine with one core.
        static let shared: Workers? = {
            let others = ProcessInfo.processInfo.activeProcessorCount - 1
            return others > 0 ? Workers(count: others) : nil
        }()

        /// How long a worker waits awake for the next pass.
        static let awakeNanoseconds = 2_000_000

        /// Taken by one pass at a time.
        private let busy = Atomic<Bool>(false)
        /// Counts the passes started; workers wait for it to change.
        private let passes = Atomic<Int>(0)
        /// Guards `current` and `sleeping`, and wakes sleeping workers.
        private let condition = NSCondition()
        private var current: Pass?
        private var sleeping = 0

        private init(count: Int) {
            for _ in 0..<count {
                BackgroundThread.start { [self] in run() }
            }
        }

        /// Takes the workers for a pass; false while another pass has them.
        func take() -> Bool {
            busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        }

        /// Hands `pass` to the workers.
        func start(_ pass: Pass) {
            condition.lock()
            current = pass
            passes.wrappingAdd(1, ordering: .releasing)
            if sleeping > 0 { condition.broadcast() }
            condition.unlock()
        }

        /// Lets the workers go after a pass `start` handed them, closed.
        func finish() {
            condition.lock()
            current = nil
            condition.unlock()
            busy.store(false, ordering: .releasing)
        }

        /// A worker's life: wait for a pass, help with it, again.
        private func run() {
            // From the first pass on: a worker that starts late still finds
            // the pass that made it, if that pass is still open.
            var seen = 0
            while true {
                if !awaitsAwake(after: seen) {
                    condition.lock()
                    sleeping += 1
                    while passes.load(ordering: .acquiring) == seen { condition.wait() }
                    sleeping -= 1
                    condition.unlock()
                }
                condition.lock()
                seen = passes.load(ordering: .acquiring)
                let pass = current
                condition.unlock()
                pass?.help()
            }
        }

        /// Whether a pass after `seen` starts within `awakeNanoseconds`,
        /// waited for awake.
        private func awaitsAwake(after seen: Int) -> Bool {
            let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(Self.awakeNanoseconds)
            while true {
                for _ in 0..<64 {
                    if passes.load(ordering: .relaxed) != seen { return true }
                    tick_spin_pause()
                }
                if DispatchTime.now().uptimeNanoseconds > deadline { return false }
            }
        }
    }
}
