#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Posix {
    /// A folder opened for reading its names (`opendir`, `readdir`), closed
    /// when the value goes away.
    ///
    /// Guarantees: each name is read where it lies in the entry `readdir`
    /// returned (an entry is only as long as its name, so copying the whole
    /// `d_name` array out of it could read past the end of readdir's
    /// buffer) and is valid until the next call of `nextEntry`; the type is
    /// `d_type` (`DT_UNKNOWN` where the file system does not say).
    package final class OpenFolder {
        #if canImport(Glibc)
            private typealias Stream = OpaquePointer
        #elseif canImport(Darwin)
            private typealias Stream = UnsafeMutablePointer<DIR>
        #endif
        private let stream: Stream
        /// The folder's descriptor, for the `…at` calls relative to it.
        package let descriptor: Int32

        /// Opens the folder at `path`; nil with `errno` set when it cannot be read.
        package init?(_ path: String) {
            guard let stream = opendir(path) else { return nil }
            self.stream = stream
            descriptor = dirfd(stream)
        }

        deinit { closedir(stream) }

        /// The next entry (`.` and `..` included): its NUL-terminated name and `d_type`; nil at the end.
        package func nextEntry() -> (name: UnsafePointer<CChar>, type: UInt8)? {
            guard let entry = readdir(stream) else { return nil }
            let raw = UnsafeRawPointer(entry)
            let name = (raw + MemoryLayout<dirent>.offset(of: \dirent.d_name)!).assumingMemoryBound(to: CChar.self)
            return (name, (raw + MemoryLayout<dirent>.offset(of: \dirent.d_type)!).load(as: UInt8.self))
        }
    }
}
