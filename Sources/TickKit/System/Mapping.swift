#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Posix {
    /// Maps the first `length` bytes of the open file read-only and private
    /// (`mmap`); nil when it cannot. On Linux every page is mapped at once
    /// (`MAP_POPULATE`): one call is much cheaper than a page fault per
    /// page. Darwin has no such flag; its pages are mapped as they are read.
    static func mapReadOnly(_ descriptor: Int32, length: Int) -> UnsafeMutableRawPointer? {
        #if canImport(Glibc)
        let flags = MAP_PRIVATE | MAP_POPULATE
        #elseif canImport(Darwin)
        let flags = MAP_PRIVATE
        #endif
        guard let mapping = mmap(nil, length, PROT_READ, flags, descriptor, 0), mapping != MAP_FAILED else { return nil }
        return mapping
    }

    /// Releases a mapping made by `mapReadOnly`.
    static func unmap(_ mapping: UnsafeMutableRawPointer, length: Int) { munmap(mapping, length) }
}
