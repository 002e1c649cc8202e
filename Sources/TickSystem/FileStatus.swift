#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the library reads of a `stat` record, named the same on every
/// platform: Linux calls the timestamps `st_mtim` and `st_ctim`, Darwin
/// `st_mtimespec` and `st_ctimespec`, and the two give the inode and the
/// device numbers different types.
///
/// Guarantees: times are whole seconds and nanoseconds as the file system
/// keeps them (0 nanoseconds where it keeps whole seconds); the inode and
/// device numbers are their bit patterns, the same value however the
/// platform types them.
extension stat {
    /// The last modification (mtime).
    package var modificationTime: (seconds: Int, nanoseconds: Int) {
        #if canImport(Darwin)
            return (Int(st_mtimespec.tv_sec), Int(st_mtimespec.tv_nsec))
        #else
            return (Int(st_mtim.tv_sec), Int(st_mtim.tv_nsec))
        #endif
    }

    /// The last status change (ctime), which no user can set.
    package var changeTime: (seconds: Int, nanoseconds: Int) {
        #if canImport(Darwin)
            return (Int(st_ctimespec.tv_sec), Int(st_ctimespec.tv_nsec))
        #else
            return (Int(st_ctim.tv_sec), Int(st_ctim.tv_nsec))
        #endif
    }

    /// The inode number.
    package var inodeNumber: UInt64 { UInt64(truncatingIfNeeded: st_ino) }

    /// The device number (`dev_t` is unsigned on Linux, `Int32` on Darwin).
    package var deviceNumber: UInt64 {
        #if canImport(Darwin)
            return UInt64(UInt32(bitPattern: st_dev))
        #else
            return UInt64(truncatingIfNeeded: st_dev)
        #endif
    }

    /// The file's type bits (`st_mode & S_IFMT`).
    package var fileType: mode_t { st_mode & S_IFMT }
    package var isRegularFile: Bool { fileType == S_IFREG }
    package var isDirectory: Bool { fileType == S_IFDIR }
    package var isSymbolicLink: Bool { fileType == S_IFLNK }
    package var isFIFO: Bool { fileType == S_IFIFO }

    /// True when `self` and `other` are the same file: same inode on the same device.
    package func isSameFile(as other: stat) -> Bool { st_ino == other.st_ino && st_dev == other.st_dev }
}
