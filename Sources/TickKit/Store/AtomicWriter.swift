#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Replaces list files atomically, and only when nobody changed them since
/// they were read (SPEC §5.3, §5.4).
///
/// Guarantees: the new bytes go to a temporary file in the target's own
/// folder, which is flushed (`fsync`), given the old file's permissions (and
/// owner, where allowed) and renamed over the target; a crash leaves the old
/// file or the new one. Through a symbolic link the target is replaced and
/// the link kept. Just before the rename, the file's size, modification time,
/// inode and bytes are compared with what was read under the lock: if any
/// differ, nothing is written (`changedOnDisk`). On Linux the rename is an
/// atomic exchange that checks the replaced file once more, so a save in
/// between is put back, not lost. A file that is not valid
/// UTF-8 is never rewritten. On every failure the temporary files are removed
/// and the targets are untouched.
public enum AtomicWriter {
    /// One file to replace: its lock (with the bytes read under it) and the new bytes.
    public struct Change {
        public var lock: FileLock
        public var bytes: [UInt8]
        public init(lock: FileLock, bytes: [UInt8]) {
            self.lock = lock
            self.bytes = bytes
        }
    }

    /// Writes every change, or none when a check fails before the first
    /// rename. `beforeCheck` runs after the temporary files are written and
    /// before the unchanged check (a seam for tests).
    public static func commit(_ changes: [Change], beforeCheck: (() -> Void)? = nil) throws(WriteFailure) {
        signal(SIGXFSZ, SIG_IGN)   // a file size limit becomes an error, not a crash
        for change in changes where !UTF8Check.isValid(change.lock.bytes) {
            throw .notUTF8(path: change.lock.path)
        }
        var temporaries: [String] = []
        func discard() { for path in temporaries { unlink(path) } }
        do throws(WriteFailure) {
            for change in changes {
                temporaries.append(try writeTemporary(change.bytes, beside: change.lock.targetPath,
                                                      shownPath: change.lock.path, like: change.lock.status))
            }
            waitForTestSignal()
            beforeCheck?()
            for change in changes { try checkUnchanged(change.lock) }
        } catch {
            discard()
            throw error
        }
        for (index, change) in changes.enumerated() {
            do throws(WriteFailure) {
                try replace(change.lock, with: temporaries[index])
            } catch {
                for path in temporaries[(index + 1)...] { unlink(path) }
                throw error
            }
            syncFolder(of: change.lock.targetPath)
        }
    }

    /// Puts the temporary file in place of the locked file. On Linux this
    /// is an atomic exchange (`renameat2` with `RENAME_EXCHANGE`): the file
    /// that was at the path comes out under the temporary name, and unless
    /// it is the very file that was read (an editor saved in the moment
    /// since the unchanged check), it is swapped back and nothing is
    /// written (`changedOnDisk`). So no save is lost however close it comes
    /// to tick's. Elsewhere, or on a file system without exchange, a plain
    /// `rename`. The temporary file is gone afterwards either way.
    static func replace(_ lock: FileLock, with temporary: String) throws(WriteFailure) {
        if let exchange = exchangeFunction {
            var ours = stat()
            let haveOurs = lstat(temporary, &ours) == 0
            if exchange(AT_FDCWD, temporary, AT_FDCWD, lock.targetPath, 2 /* RENAME_EXCHANGE */) == 0 {
                if isTheFileRead(temporary, lock) {
                    unlink(temporary)
                    return
                }
                _ = exchange(AT_FDCWD, temporary, AT_FDCWD, lock.targetPath, 2)
                // Remove what came back out only if it is our own file.
                var back = stat()
                if haveOurs, lstat(temporary, &back) == 0, back.st_ino == ours.st_ino, back.st_dev == ours.st_dev {
                    unlink(temporary)
                }
                throw .changedOnDisk(path: lock.path)
            }
            let code = errno
            if code != EINVAL && code != ENOSYS && code != EOPNOTSUPP {
                unlink(temporary)
                throw .cannotWrite(path: lock.path, reason: WriteFailure.reason(code))
            }
        }
        if rename(temporary, lock.targetPath) != 0 {
            let code = errno
            unlink(temporary)
            throw .cannotWrite(path: lock.path, reason: WriteFailure.reason(code))
        }
    }

    typealias ExchangeFunction = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// `renameat2(2)`, found at run time (Glibc's Swift module does not
    /// declare it); nil where the C library has none. Set once, then only read.
    static let exchangeFunction: ExchangeFunction? = {
        #if os(Linux)
        guard let symbol = dlsym(nil, "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: ExchangeFunction.self)
        #else
        return nil
        #endif
    }()

    /// True when `path` names the file `lock` read, unchanged: same inode,
    /// size, modification time and bytes.
    static func isTheFileRead(_ path: String, _ lock: FileLock) -> Bool {
        var now = stat()
        guard lstat(path, &now) == 0 else { return false }
        let before = lock.status
        guard now.st_dev == before.st_dev, now.st_ino == before.st_ino, now.st_size == before.st_size,
              modificationTime(now) == modificationTime(before) else { return false }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard let bytes = try? FileLock.readAll(descriptor, sizeHint: Int(now.st_size)) else { return false }
        return bytes == lock.bytes
    }

    /// Creates a new file at `path` (absolute) with `bytes`, atomically and
    /// without replacing anything: fails with `exists` when the name is taken.
    public static func create(_ path: String, bytes: [UInt8]) throws(WriteFailure) {
        signal(SIGXFSZ, SIG_IGN)
        let mask = umask(0)
        umask(mask)
        var status = stat()
        status.st_mode = mode_t(0o666) & ~mask
        status.st_uid = getuid()
        status.st_gid = getgid()
        let temporary = try writeTemporary(bytes, beside: path, shownPath: path, like: status)
        if link(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            if code == EEXIST { throw .exists(path: path) }
            throw .cannotWrite(path: path, reason: WriteFailure.reason(code))
        }
        unlink(temporary)
        syncFolder(of: path)
    }

    /// Writes `bytes` to a new hidden file in `target`'s folder and flushes it.
    static func writeTemporary(_ bytes: [UInt8], beside target: String, shownPath: String, like status: stat) throws(WriteFailure) -> String {
        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        var template = Array(((folder.isEmpty ? "." : folder) + "/." + name + ".tick-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw .cannotWrite(path: shownPath, reason: WriteFailure.reason(errno)) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        func fail(_ code: Int32) -> WriteFailure {
            close(descriptor)
            unlink(temporary)
            return .cannotWrite(path: shownPath, reason: WriteFailure.reason(code))
        }
        if let code = bytes.withUnsafeBytes({ FileIO.writeAll($0, to: descriptor) }) { throw fail(code) }
        if fchmod(descriptor, status.st_mode & 0o7777) != 0 { throw fail(errno) }
        _ = fchown(descriptor, status.st_uid, status.st_gid)   // keeps the owner where allowed
        if fsync(descriptor) != 0 { throw fail(errno) }
        if close(descriptor) != 0 {
            let code = errno
            unlink(temporary)
            throw .cannotWrite(path: shownPath, reason: WriteFailure.reason(code))
        }
        return temporary
    }

    /// Throws `changedOnDisk` unless the file at the lock's path is still the
    /// one that was read, with the same bytes.
    static func checkUnchanged(_ lock: FileLock) throws(WriteFailure) {
        var now = stat()
        guard FileLock.resolvedPath(lock.path) == lock.targetPath, stat(lock.targetPath, &now) == 0 else {
            throw .changedOnDisk(path: lock.path)
        }
        let before = lock.status
        guard now.st_dev == before.st_dev, now.st_ino == before.st_ino, now.st_size == before.st_size,
              modificationTime(now) == modificationTime(before) else {
            throw .changedOnDisk(path: lock.path)
        }
        let descriptor = open(lock.targetPath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .changedOnDisk(path: lock.path) }
        defer { close(descriptor) }
        guard let bytes = try? FileLock.readAll(descriptor, sizeHint: Int(now.st_size)), bytes == lock.bytes else {
            throw .changedOnDisk(path: lock.path)
        }
    }

    static func modificationTime(_ status: stat) -> [Int] {
        #if os(Linux)
        return [Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec)]
        #else
        return [Int(status.st_mtimespec.tv_sec), Int(status.st_mtimespec.tv_nsec)]
        #endif
    }

    /// Flushes the folder's entry for `path`, so that the rename survives a crash.
    static func syncFolder(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// Test seam: when `TICK_TEST_WAIT_BEFORE_COMMIT` names a FIFO, wait for
    /// a test to open it and close it again (the test changes the file in
    /// between) before the unchanged check. Does nothing otherwise.
    static func waitForTestSignal() {
        guard let fifo = ProcessInfo.processInfo.environment["TICK_TEST_WAIT_BEFORE_COMMIT"], !fifo.isEmpty else { return }
        var status = stat()
        guard stat(fifo, &status) == 0, (status.st_mode & S_IFMT) == S_IFIFO else { return }
        let descriptor = open(fifo, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) > 0 {}
        close(descriptor)
    }
}
