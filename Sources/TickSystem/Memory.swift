#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Posix {
    /// The first `byte` in the `count` bytes at `base` (`memchr`, which the
    /// C library vectorises), or nil.
    @inline(__always)
    package static func findByte(_ byte: UInt8, _ base: UnsafeRawPointer, _ count: Int) -> UnsafeRawPointer? {
        UnsafeRawPointer(memchr(base, Int32(byte), count))
    }

    /// Compares `count` bytes at `left` and `right` (`memcmp`): negative,
    /// zero or positive as `left` orders before, with or after `right`.
    @inline(__always)
    package static func compareBytes(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer, _ count: Int) -> Int32 {
        memcmp(left, right, count)
    }

    /// Sets `count` bytes at `target` to `byte` (`memset`).
    @inline(__always)
    package static func fillBytes(_ target: UnsafeMutableRawPointer, _ byte: UInt8, _ count: Int) {
        memset(target, Int32(byte), count)
    }

    /// Copies `count` bytes from `source` to `target`, which do not overlap (`memcpy`).
    @inline(__always)
    package static func copyBytes(to target: UnsafeMutableRawPointer, from source: UnsafeRawPointer, _ count: Int) {
        memcpy(target, source, count)
    }
}

extension Posix {
    /// The length of the NUL-terminated `text` (`strlen`).
    package static func cStringLength(_ text: UnsafePointer<CChar>) -> Int { strlen(text) }
}
