#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Posix {
    /// Maps the first `length` bytes of the open file read-only and private
    /// (`mmap`); nil when it cannot. Pages are mapped as they are read (the
    /// kernel maps the pages around each fault too), so that a process
    /// holds only what it reads, and lets go of it with `releasePages`.
    /// Not all at once (`MAP_POPULATE`): that maps a parse cache whole, the
    /// dead bytes edits leave in it too, and unmaps it all at exit, on one core.
    package static func mapReadOnly(_ descriptor: Int32, length: Int) -> UnsafeMutableRawPointer? {
        guard let mapping = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), mapping != MAP_FAILED else { return nil }
        return mapping
    }

    /// Gives back the pages that hold `bytes`, which must lie inside a
    /// mapping made by `mapReadOnly` (never heap memory, whose contents
    /// this would discard): they leave the process's memory, and reading
    /// them again maps them again from the file (from the page cache). The
    /// pages at either end are given back too, though they hold bytes of
    /// the neighbours (a reader of those maps them again): a list is often
    /// smaller than a page. A mapping covers whole pages, so these stay in it.
    package static func releasePages(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = Int(bitPattern: base) / page * page
        let end = (Int(bitPattern: base) + bytes.count + page - 1) / page * page
        guard let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, end - start, MADV_DONTNEED)
    }

    /// Releases a mapping made by `mapReadOnly`.
    package static func unmap(_ mapping: UnsafeMutableRawPointer, length: Int) { munmap(mapping, length) }
}
