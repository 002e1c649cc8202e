import CSystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// GNU calls that Swift's Glibc module does not declare, through
// `CSystemCalls`, which calls them directly: looked up at run time
// (`dlsym`), they were never found in the static release build.

extension Posix {
    /// True when the C library can swap two names atomically (`exchange`):
    /// on Linux (glibc has `renameat2`).
    package static var canExchange: Bool {
        #if os(Linux)
            true
        #else
            false
        #endif
    }

    /// Swaps the names `first` and `second` in the open `folder` atomically
    /// (`renameat2` with `RENAME_EXCHANGE`); false with `errno` set when it
    /// fails (`EINVAL`, `ENOSYS` or `EOPNOTSUPP` on a file system without
    /// exchange, `ENOSYS` where the C library has no exchange).
    package static func exchange(in folder: Int32, _ first: String, _ second: String) -> Bool {
        tick_exchange_names(folder, first, second) == 0
    }

    /// Copies every extended attribute of the open file `source` to the
    /// open file `target`, skipping those the user may not set (such as
    /// `security.*` for others than root). Does nothing where the C library
    /// has no `flistxattr` (Darwin's calls take other arguments and are not used).
    package static func copyExtendedAttributes(from source: Int32, to target: Int32) {
        let size = tick_list_attributes(source, nil, 0)
        guard size > 0 else { return }
        var names = [CChar](repeating: 0, count: size)
        let got = names.withUnsafeMutableBufferPointer { tick_list_attributes(source, $0.baseAddress, size) }
        guard got > 0 else { return }
        for name in names[..<got].split(separator: 0) {
            let key = Array(name) + [0]
            let length = tick_get_attribute(source, key, nil, 0)
            guard length >= 0 else { continue }
            var value = [UInt8](repeating: 0, count: max(length, 1))
            let read = value.withUnsafeMutableBytes { tick_get_attribute(source, key, $0.baseAddress, length) }
            guard read >= 0 else { continue }
            _ = value.withUnsafeBytes { tick_set_attribute(target, key, $0.baseAddress, read) }
        }
    }
}
