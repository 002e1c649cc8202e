#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Reads whole files with POSIX calls (one `open`, `fstat` and as few `read`s
/// as the size allows), the fastest way to get a file's bytes.
public enum FileIO {
    public struct ReadError: Error, CustomStringConvertible {
        public var path: String
        public var code: Int32
        public var description: String { "cannot read \(path): \(String(cString: strerror(code)))" }
    }

    public static func read(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadError(path: path, code: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ReadError(path: path, code: errno) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw ReadError(path: path, code: EISDIR) }
        var capacity = max(Int(info.st_size), 0) + 1
        var bytes = [UInt8](repeating: 0, count: capacity)
        var count = 0
        while true {
            if count == capacity {
                capacity *= 2
                bytes.append(contentsOf: repeatElement(0, count: capacity - bytes.count))
            }
            let got = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, capacity - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw ReadError(path: path, code: errno)
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}

/// Runs `body` for every index on every core and collects the results in order.
enum Parallel {
    static func map<T>(_ count: Int, _ body: (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        // Deinitialize before deallocating: the results hold references
        // (LeakSanitizer found every parsed document leaked without it).
        defer {
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
