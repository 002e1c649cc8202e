import Foundation

/// Reads whole files (one `open`, `fstat` and as few `read`s as the size
/// allows, through `Posix`), the fastest way to get a file's bytes.
///
/// Only regular files are read: the file is opened without blocking (a FIFO
/// with no writer would block `open` forever) and anything else (a FIFO, a
/// device such as `/dev/zero`, a socket) is refused before a byte is read.
public enum FileIO {
    public struct ReadError: Error, CustomStringConvertible {
        public var path: String
        public var code: Int32
        /// Why, when `code` does not say it well (a file that is not a regular file).
        public var reason: String? = nil
        public var description: String { "cannot read \(path): \(reason ?? Posix.describe(code))" }
    }

    /// Why a file that is not a regular file is not read.
    public static let notRegularReason = "not a regular file; only regular files are lists"

    public static func read(_ path: String) throws -> [UInt8] {
        let descriptor = Posix.openFile(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw ReadError(path: path, code: errno) }
        defer { Posix.closeFile(descriptor) }
        guard let info = Posix.status(of: descriptor) else { throw ReadError(path: path, code: errno) }
        if info.isDirectory { throw ReadError(path: path, code: EISDIR) }
        if !info.isRegularFile { throw ReadError(path: path, code: EINVAL, reason: notRegularReason) }
        let (bytes, failure) = Posix.readAll(descriptor, sizeHint: Int(info.st_size))
        if let failure { throw ReadError(path: path, code: failure) }
        return bytes
    }

    /// Everything readable from `descriptor` (a pipe) until its end, retrying
    /// interrupted reads (Foundation's `FileHandle` readers trap on EINTR).
    public static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        Posix.readAll(descriptor, sizeHint: 65535).bytes
    }
}

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
}

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
    static func orderedChunks(
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
                        // and the finished ones after it.
                        while nextToDeliver < count, let ready = done[nextToDeliver] {
                            done[nextToDeliver] = nil
                            deliver(ready.written)
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
