#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Why reading, locking or writing a list failed; each case maps to one
/// exit code of SPEC §7.
public enum WriteFailure: Error, Equatable, CustomStringConvertible {
    /// The file cannot be opened or read (66).
    case cannotRead(path: String, reason: String)
    /// The file or its folder cannot be written (73); nothing changed.
    case cannotWrite(path: String, reason: String)
    /// The file changed on disk between reading and writing (75); nothing written.
    case changedOnDisk(path: String)
    /// The file is not valid UTF-8 (65); tick never rewrites such a file.
    case notUTF8(path: String)
    /// A file to create exists already (73).
    case exists(path: String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason); nothing was changed (check the folder's permissions and free space)"
        case .changedOnDisk(let path): "\(path) changed on disk while tick was editing it; nothing was written, run the command again"
        case .notUTF8(let path): "\(path) is not valid UTF-8; tick will not rewrite it (re-save it as UTF-8)"
        case .exists(let path): "\(path) exists already; pick another name"
        }
    }

    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The same failure, naming the file by `path` (e.g. relative to the notes folder).
    public func naming(_ path: String) -> WriteFailure {
        switch self {
        case .cannotRead(_, let reason): .cannotRead(path: path, reason: reason)
        case .cannotWrite(_, let reason): .cannotWrite(path: path, reason: reason)
        case .changedOnDisk: .changedOnDisk(path: path)
        case .notUTF8: .notUTF8(path: path)
        case .exists: .exists(path: path)
        }
    }

    /// The path the failure is about.
    public var path: String {
        switch self {
        case .cannotRead(let path, _), .cannotWrite(let path, _), .changedOnDisk(let path), .notUTF8(let path), .exists(let path): path
        }
    }
}

/// An exclusive advisory lock (`flock`) on one list file, held from before
/// it is read until after it is replaced, with the bytes read under it.
///
/// Guarantees: tick processes that edit the same file take turns; the
/// bytes are those of the file the path names once the lock is held (if
/// another process replaced the file while this one waited, the lock is
/// taken again on the new file); through a symbolic link, the target is
/// locked and read. Other programs that do not lock are caught by
/// `AtomicWriter`'s unchanged check instead.
public final class FileLock {
    /// The path as given.
    public let path: String
    /// The real file the path names (symbolic links resolved).
    public let targetPath: String
    /// The file's bytes, read under the lock.
    public let bytes: [UInt8]
    /// The file's status when it was read, for the unchanged check.
    let status: stat
    private var descriptor: Int32

    private init(path: String, targetPath: String, bytes: [UInt8], status: stat, descriptor: Int32) {
        self.path = path
        self.targetPath = targetPath
        self.bytes = bytes
        self.status = status
        self.descriptor = descriptor
    }

    /// Locks and reads the file at `path` (absolute), waiting for other tick
    /// processes that hold its lock.
    public static func acquire(_ path: String) throws(WriteFailure) -> FileLock {
        for _ in 0..<1000 {
            let target = resolvedPath(path)
            let descriptor = open(target, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .cannotRead(path: path, reason: WriteFailure.reason(errno)) }
            var result: Int32
            repeat { result = flock(descriptor, LOCK_EX) } while result != 0 && errno == EINTR
            guard result == 0 else {
                let code = errno
                close(descriptor)
                throw .cannotRead(path: path, reason: "cannot lock it: " + WriteFailure.reason(code))
            }
            var held = stat()
            var named = stat()
            guard fstat(descriptor, &held) == 0 else {
                let code = errno
                close(descriptor)
                throw .cannotRead(path: path, reason: WriteFailure.reason(code))
            }
            // Another process may have renamed a new file over this one while
            // we waited: then lock the new one.
            if stat(target, &named) != 0 || named.st_ino != held.st_ino || named.st_dev != held.st_dev
                || resolvedPath(path) != target {
                close(descriptor)
                continue
            }
            if (held.st_mode & S_IFMT) != S_IFREG {
                close(descriptor)
                throw .cannotRead(path: path, reason: "not a regular file")
            }
            do {
                let bytes = try readAll(descriptor, sizeHint: Int(held.st_size))
                return FileLock(path: path, targetPath: target, bytes: bytes, status: held, descriptor: descriptor)
            } catch {
                close(descriptor)
                throw .cannotRead(path: path, reason: WriteFailure.reason(error.code))
            }
        }
        throw .cannotRead(path: path, reason: "it keeps being replaced; try again")
    }

    /// Releases the lock (also done when the value goes away).
    public func release() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }

    deinit { release() }

    /// The real path behind `path`, or `path` when it cannot be resolved.
    static func resolvedPath(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    struct ReadFailure: Error { var code: Int32 }

    static func readAll(_ descriptor: Int32, sizeHint: Int) throws(ReadFailure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(sizeHint, 0) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + count, buffer.count - count, off_t(count))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw ReadFailure(code: errno)
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}
