#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The library's one door to the operating system: every system call of
/// TickKit goes through here, and no other file of the library calls the C
/// library for files, descriptors, locks, time or processes.
///
/// Guarantees: calls that can be interrupted by a signal (`read`, `write`,
/// `writev`, `flock`) are retried on `EINTR`, in one place
/// (`retryingInterrupts`); a failure keeps the C convention (-1, nil or
/// false, with `errno` set as the call left it), so callers report the
/// call's own error. What differs between Linux and Darwin (timestamps in
/// `stat`, `renameat2`, extended attributes, the type
/// `opendir` returns) is decided here and nowhere else. Nothing here sets a
/// signal disposition: that is the program's business (`ProcessHooks`).
public enum Posix {
    // MARK: Errors and interrupts

    /// The result of `call`, called again for as long as it fails (-1) with `EINTR`.
    @inline(__always)
    static func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result == -1 && errno == EINTR { continue }
            return result
        }
    }

    /// The C library's text for the error `code` (`strerror`).
    public static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    // MARK: Opening and closing

    /// `open(2)`: the descriptor, or -1 with `errno` set.
    package static func openFile(_ path: String, _ flags: Int32, permissions: mode_t = 0) -> Int32 {
        open(path, flags, permissions)
    }

    /// `openat(2)`: `name` in the open `folder`; the descriptor, or -1 with `errno` set.
    package static func openFile(in folder: Int32, _ name: String, _ flags: Int32, permissions: mode_t = 0) -> Int32 {
        openat(folder, name, flags, permissions)
    }

    /// `close(2)`: 0, or -1 with `errno` set. (Not retried: on Linux the
    /// descriptor is gone even when `close` reports `EINTR`.)
    @discardableResult
    package static func closeFile(_ descriptor: Int32) -> Int32 { close(descriptor) }

    // MARK: Status

    /// `fstat(2)`: the status of an open file, or nil with `errno` set.
    package static func status(of descriptor: Int32) -> stat? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? info : nil
    }

    /// `stat(2)`: the status of the file `path` names (links followed), or nil with `errno` set.
    package static func status(atPath path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    /// `fstatat(2)`: the status of `name` in the open `folder`, the link
    /// itself unless `followingLink`; nil with `errno` set.
    package static func status(in folder: Int32, _ name: String, followingLink: Bool = false) -> stat? {
        var info = stat()
        return fstatat(folder, name, &info, followingLink ? 0 : AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
    }

    /// The same for a name given as NUL-terminated bytes (one that is not UTF-8).
    package static func status(in folder: Int32, rawName: [UInt8], followingLink: Bool = false) -> stat? {
        var info = stat()
        let found = rawName.withUnsafeBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { fstatat(folder, $0.baseAddress!, &info, followingLink ? 0 : AT_SYMLINK_NOFOLLOW) == 0 }
        }
        return found ? info : nil
    }

    /// True when `path` exists (`access(F_OK)`).
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// True when the user may list and enter the folder `path` (`access(R_OK | X_OK)`).
    package static func mayReadAndSearch(_ path: String) -> Bool { access(path, R_OK | X_OK) == 0 }

    /// True when the user may write `name` in the open `folder`, as the
    /// effective user (`faccessat(W_OK, AT_EACCESS)`).
    package static func mayWrite(in folder: Int32, _ name: String) -> Bool { faccessat(folder, name, W_OK, AT_EACCESS) == 0 }

    /// The real path behind `path`, every link resolved (`realpath(3)`), or nil with `errno` set.
    public static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    // MARK: Reading and writing

    /// `read(2)` into `buffer`, retried on `EINTR`: the count read (0 at
    /// the end), or -1 with `errno` set.
    public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        return retryingInterrupts {
            #if canImport(Glibc)
                return Glibc.read(descriptor, base, buffer.count)
            #elseif canImport(Darwin)
                return Darwin.read(descriptor, base, buffer.count)
            #endif
        }
    }

    /// `write(2)` from `buffer`, retried on `EINTR`: the count written, or -1 with `errno` set.
    public static func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        return retryingInterrupts {
            #if canImport(Glibc)
                return Glibc.write(descriptor, base, buffer.count)
            #elseif canImport(Darwin)
                return Darwin.write(descriptor, base, buffer.count)
            #endif
        }
    }

    /// Fills `buffer` with the file's bytes from `offset` on (`pread(2)`,
    /// retried on interrupts and short reads); false when the file ends
    /// first or a read fails.
    package static func read(_ descriptor: Int32, at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        transfersAll(buffer.count) { done in pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done)) }
    }

    /// True once `transfer(done)` (a `pread` or `pwrite` of what is left
    /// after the first `done` bytes, returning how many it moved) has moved
    /// all `count` bytes, retried on interrupts and short transfers; false
    /// when a call fails or moves nothing.
    private static func transfersAll(_ count: Int, _ transfer: (_ done: Int) -> Int) -> Bool {
        var done = 0
        while done < count {
            let moved = retryingInterrupts { transfer(done) }
            guard moved > 0 else { return false }
            done += moved
        }
        return true
    }

    /// Everything readable from `descriptor` from where it stands to its
    /// end (a regular file's size, or a pipe's end), reading at most
    /// `limit` bytes: the whole-file read of the library. `sizeHint` (the
    /// file's size, when known) sizes the first read, so that a file that
    /// did not grow takes one `read` and one to see its end. A failure ends
    /// the reading: the bytes read until then and the failure's `errno`.
    package static func readAll(_ descriptor: Int32, sizeHint: Int, limit: Int = .max) -> (bytes: [UInt8], failure: Int32?) {
        var capacity = min(max(sizeHint, 0) + 1, limit)
        var bytes = [UInt8](repeating: 0, count: capacity)
        var count = 0
        var failure: Int32? = nil
        while count < limit {
            if count == capacity {
                capacity = min(capacity * 2, limit)
                bytes.append(contentsOf: repeatElement(0, count: capacity - bytes.count))
            }
            let got = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[count..<capacity]))
            }
            if got < 0 {
                failure = errno
                break
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeLast(bytes.count - count)
        return (bytes, failure)
    }

    /// Writes all of `buffer` to `descriptor`, retrying interrupted and
    /// partial writes; the `errno` of a write that failed, else nil.
    public static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var written = 0
        while written < buffer.count {
            let count = write(descriptor, from: UnsafeRawBufferPointer(rebasing: buffer[written...]))
            if count < 0 { return errno }
            written += count
        }
        return nil
    }

    /// Writes all of `buffer` into the file at `offset` (`pwrite(2)`,
    /// retried on interrupts and short writes); false when a write fails.
    package static func write(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int) -> Bool {
        transfersAll(buffer.count) { done in pwrite(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done)) }
    }

    /// Writes `buffers` one after another with `writev(2)`, up to 512 at a
    /// call (thousands of `write` calls cost more than the copying),
    /// retrying interrupted and partial writes; false when a write fails.
    package static func writeAll(_ buffers: [UnsafeBufferPointer<UInt8>], to descriptor: Int32) -> Bool {
        var index = 0
        var offset = 0 // the next byte to write: buffers[index], from offset
        var vectors: [iovec] = []
        vectors.reserveCapacity(512)
        while true {
            while index < buffers.count && buffers[index].count == offset {
                index += 1
                offset = 0
            }
            guard index < buffers.count else { return true }
            vectors.removeAll(keepingCapacity: true)
            for position in index..<min(buffers.count, index + 512) where buffers[position].count > 0 {
                let skip = position == index ? offset : 0
                let buffer = buffers[position]
                vectors.append(
                    iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: buffer.baseAddress! + skip),
                        iov_len: buffer.count - skip))
            }
            let written = vectors.withUnsafeBufferPointer { vectors in
                retryingInterrupts { writev(descriptor, vectors.baseAddress, Int32(vectors.count)) }
            }
            if written < 0 { return false }
            var remaining = written
            while remaining > 0 {
                let left = buffers[index].count - offset
                if remaining >= left {
                    remaining -= left
                    index += 1
                    offset = 0
                } else {
                    offset += remaining
                    remaining = 0
                }
            }
        }
    }

    /// Moves the file position of `descriptor` to `offset` (`lseek(SEEK_SET)`); false on failure.
    package static func seek(_ descriptor: Int32, to offset: Int) -> Bool {
        lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset)
    }

    /// Cuts the open file to `length` bytes (`ftruncate(2)`); false on failure.
    @discardableResult
    package static func truncate(_ descriptor: Int32, to length: Int) -> Bool { ftruncate(descriptor, off_t(length)) == 0 }

    /// Flushes the open file (or folder) to the disk (`fsync(2)`); false with `errno` set on failure.
    @discardableResult
    package static func sync(_ descriptor: Int32) -> Bool { fsync(descriptor) == 0 }

    // MARK: Locks

    /// Takes `operation` (`LOCK_EX`, `LOCK_SH`) with `flock(2)`, waiting for
    /// it, retried on `EINTR`; false with `errno` set on failure.
    package static func lock(_ descriptor: Int32, _ operation: Int32) -> Bool {
        retryingInterrupts { flock(descriptor, operation) } == 0
    }

    /// Takes `operation` without waiting (`LOCK_NB`): false with `errno` set
    /// (`EWOULDBLOCK` while another holds it).
    package static func tryLock(_ descriptor: Int32, _ operation: Int32) -> Bool { flock(descriptor, operation | LOCK_NB) == 0 }

    /// Releases a lock taken with `lock` or `tryLock`.
    package static func unlock(_ descriptor: Int32) { _ = flock(descriptor, LOCK_UN) }

    // MARK: Names in folders

    /// `unlink(2)`; false with `errno` set on failure.
    @discardableResult
    package static func remove(_ path: String) -> Bool { unlink(path) == 0 }

    /// `unlinkat(2)`: removes `name` (a file) from the open `folder`; false with `errno` set on failure.
    @discardableResult
    package static func remove(in folder: Int32, _ name: String) -> Bool { unlinkat(folder, name, 0) == 0 }

    /// `rename(2)`; false with `errno` set on failure.
    package static func rename(_ from: String, to target: String) -> Bool {
        #if canImport(Glibc)
            return Glibc.rename(from, target) == 0
        #elseif canImport(Darwin)
            return Darwin.rename(from, target) == 0
        #endif
    }

    /// `renameat(2)` within the open `folder`; false with `errno` set on failure.
    package static func rename(in folder: Int32, _ from: String, to target: String) -> Bool {
        renameat(folder, from, folder, target) == 0
    }

    /// `linkat(2)` within the open `folder`: a new name `target` for `from`;
    /// false with `errno` set on failure (`EEXIST` when the name is taken).
    package static func link(in folder: Int32, _ from: String, to target: String) -> Bool {
        linkat(folder, from, folder, target, 0) == 0
    }

    // MARK: Permissions and owners

    /// `fchown(2)`; false on failure (`uid_t.max` or `gid_t.max` leaves that one as it is).
    @discardableResult
    package static func setOwner(_ descriptor: Int32, user: uid_t, group: gid_t) -> Bool { fchown(descriptor, user, group) == 0 }

    /// `fchmod(2)`; false with `errno` set on failure.
    package static func setPermissions(_ descriptor: Int32, _ mode: mode_t) -> Bool { fchmod(descriptor, mode) == 0 }

    /// The process's file creation mask (`umask`, read and put back).
    package static func creationMask() -> mode_t {
        let mask = umask(0)
        umask(mask)
        return mask
    }

    /// The real user and group, and whether the effective user is root.
    package static var userID: uid_t { getuid() }
    package static var groupID: gid_t { getgid() }
    package static var isRoot: Bool { geteuid() == 0 }

    // MARK: Processes and time

    /// This process's id.
    package static var processID: pid_t { getpid() }

    /// True when no process `pid` exists (`kill(pid, 0)` fails with `ESRCH`).
    package static func processIsGone(_ pid: pid_t) -> Bool { kill(pid, 0) != 0 && errno == ESRCH }

    /// Gives the processor to another thread for a moment (`sched_yield`).
    package static func yieldProcessor() { sched_yield() }

    /// Sleeps `microseconds` (`usleep`).
    package static func pause(microseconds: UInt32) { usleep(useconds_t(microseconds)) }

    /// The current time, in nanoseconds since 1970 (`clock_gettime(CLOCK_REALTIME)`).
    package static func nanosecondsNow() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int(now.tv_sec) &* 1_000_000_000 &+ Int(now.tv_nsec)
    }

    /// The current time, in whole seconds since 1970 (`time(3)`).
    package static func secondsNow() -> Int { Int(time(nil)) }

    // MARK: Environment

    /// The environment variable `name` (`getenv`), or nil when it is not set.
    package static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
