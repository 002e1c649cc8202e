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
        // The mode, owner and links as they are now, under the lock (a
        // chmod made since the file was read is kept, not undone).
        var statuses: [stat] = []
        for change in changes {
            guard let now = change.lock.currentStatus() else { throw .changedOnDisk(path: change.lock.path) }
            try checkReplaceable(change.lock, now)
            statuses.append(now)
        }
        var temporaries: [(folder: Int32, name: String)] = []
        func discard() { for temporary in temporaries { unlinkat(temporary.folder, temporary.name, 0) } }
        do throws(WriteFailure) {
            for (change, status) in zip(changes, statuses) {
                temporaries.append((change.lock.folder, try writeTemporary(change.bytes, in: change.lock.folder, beside: change.lock.name,
                                                                           shownPath: change.lock.path, like: status,
                                                                           attributesFrom: change.lock.fileDescriptor)))
            }
            TestSeam.wait("TICK_TEST_WAIT_BEFORE_COMMIT")
            beforeCheck?()
            for change in changes { try checkUnchanged(change.lock) }
        } catch {
            discard()
            throw error
        }
        for (index, change) in changes.enumerated() {
            do throws(WriteFailure) {
                try replace(change.lock, with: temporaries[index].name)
            } catch {
                for temporary in temporaries[(index + 1)...] { unlinkat(temporary.folder, temporary.name, 0) }
                throw error
            }
            _ = fsync(change.lock.folder)   // the rename survives a crash
        }
    }

    /// Puts the temporary file (named `temporary` in the lock's folder) in
    /// place of the locked file. On Linux this
    /// is an atomic exchange (`renameat2` with `RENAME_EXCHANGE`): the file
    /// that was at the path comes out under the temporary name, and unless
    /// it is the very file that was read (an editor saved in the moment
    /// since the unchanged check), it is swapped back and nothing is
    /// written (`changedOnDisk`). So no save is lost however close it comes
    /// to tick's. Elsewhere, or on a file system without exchange, a plain
    /// `rename`. The temporary file is gone afterwards either way. Both
    /// names are taken in the folder the lock holds open.
    static func replace(_ lock: FileLock, with temporary: String) throws(WriteFailure) {
        let folder = lock.folder
        if let exchange = exchangeFunction {
            var ours = stat()
            let haveOurs = fstatat(folder, temporary, &ours, AT_SYMLINK_NOFOLLOW) == 0
            if exchange(folder, temporary, folder, lock.name, 2 /* RENAME_EXCHANGE */) == 0 {
                if isTheFileRead(temporary, lock) {
                    unlinkat(folder, temporary, 0)
                    return
                }
                _ = exchange(folder, temporary, folder, lock.name, 2)
                // Remove what came back out only if it is our own file.
                var back = stat()
                if haveOurs, fstatat(folder, temporary, &back, AT_SYMLINK_NOFOLLOW) == 0, FileLock.sameFile(back, ours) {
                    unlinkat(folder, temporary, 0)
                }
                throw .changedOnDisk(path: lock.path)
            }
            let code = errno
            if code != EINVAL && code != ENOSYS && code != EOPNOTSUPP {
                unlinkat(folder, temporary, 0)
                throw .cannotWrite(path: lock.path, reason: WriteFailure.reason(code))
            }
        }
        if renameat(folder, temporary, folder, lock.name) != 0 {
            let code = errno
            unlinkat(folder, temporary, 0)
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

    /// True when `name` in the lock's folder is the file `lock` read,
    /// unchanged: same inode, size, modification time and bytes.
    static func isTheFileRead(_ name: String, _ lock: FileLock) -> Bool {
        var now = stat()
        guard fstatat(lock.folder, name, &now, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
        let before = lock.status
        guard FileLock.sameFile(now, before), now.st_size == before.st_size,
              modificationTime(now) == modificationTime(before) else { return false }
        let descriptor = openat(lock.folder, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard let bytes = try? FileLock.readAll(descriptor, sizeHint: Int(now.st_size)) else { return false }
        return bytes == lock.bytes
    }

    /// Creates a new file at `path` (absolute) in the real folder of its own folder.
    @discardableResult
    public static func create(_ path: String, bytes: [UInt8]) throws(WriteFailure) -> CreatedFile {
        let parent = (path as NSString).deletingLastPathComponent
        return try create((path as NSString).lastPathComponent, in: FileLock.resolvedPath(parent.isEmpty ? "." : parent), shownAs: path, bytes: bytes)
    }

    /// Creates a new file at `relativePath` below `root` (absolute, links
    /// resolved) with `bytes`, atomically and without replacing anything:
    /// fails with `exists` when the name is taken. The folder it goes in
    /// must exist and lie inside `root`; it is opened without following
    /// links (as `FileLock` opens a file), and the file is made in it.
    /// Returns the file made, for removing it again.
    @discardableResult
    public static func create(_ relativePath: String, in root: String, shownAs shown: String? = nil, bytes: [UInt8]) throws(WriteFailure) -> CreatedFile {
        let path = shown ?? root + "/" + relativePath
        let parent = (relativePath as NSString).deletingLastPathComponent
        let name = (relativePath as NSString).lastPathComponent
        var folder: Int32 = -1
        for attempt in 0..<1000 {
            let named = parent.isEmpty ? root : root + "/" + parent
            guard let real = FileLock.realPath(named) else { throw .cannotWrite(path: path, reason: WriteFailure.reason(errno)) }
            guard real == root || real.hasPrefix(root + "/") else { throw .outside(path: path) }
            if attempt == 0 { TestSeam.wait("TICK_TEST_WAIT_BEFORE_CREATE") }
            folder = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard folder >= 0 else { throw .cannotWrite(path: path, reason: WriteFailure.reason(errno)) }
            var replaced = false
            for component in real.dropFirst(root.count).split(separator: "/") {
                let next = openat(folder, String(component), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                close(folder)
                folder = next
                if next < 0 {
                    replaced = true
                    break
                }
            }
            if !replaced { break }
        }
        guard folder >= 0 else { throw .changedOnDisk(path: path) }
        // The folder as named must still be the folder opened: else the new
        // file would be made where its name no longer leads.
        var opened = stat(), viaName = stat()
        let named = parent.isEmpty ? root : root + "/" + parent
        guard fstat(folder, &opened) == 0, stat(named, &viaName) == 0, FileLock.sameFile(opened, viaName) else {
            close(folder)
            throw .changedOnDisk(path: path)
        }
        signal(SIGXFSZ, SIG_IGN)
        let mask = umask(0)
        umask(mask)
        var status = stat()
        status.st_mode = mode_t(0o666) & ~mask
        status.st_uid = getuid()
        status.st_gid = getgid()
        let temporary: String
        do throws(WriteFailure) {
            temporary = try writeTemporary(bytes, in: folder, beside: name, shownPath: path, like: status)
        } catch {
            close(folder)
            throw error
        }
        if linkat(folder, temporary, folder, name, 0) != 0 {
            let code = errno
            unlinkat(folder, temporary, 0)
            close(folder)
            if code == EEXIST { throw .exists(path: path) }
            throw .cannotWrite(path: path, reason: WriteFailure.reason(code))
        }
        unlinkat(folder, temporary, 0)
        _ = fsync(folder)
        return CreatedFile(folder: folder, name: name)
    }

    /// A file `create` made: its open folder and its name there.
    public final class CreatedFile {
        let folder: Int32
        let name: String

        init(folder: Int32, name: String) {
            self.folder = folder
            self.name = name
        }

        /// Removes the file again (from the folder it was made in).
        public func remove() { unlinkat(folder, name, 0) }

        deinit { close(folder) }
    }

    /// Refuses (`protected`) to replace a file the user may not write
    /// (read-only to them; for root, a file with no write permission at all)
    /// or a file with more than one name (hard links): renaming a new file
    /// over it would ignore its permissions, or leave its other names with
    /// the old text.
    static func checkReplaceable(_ lock: FileLock, _ status: stat) throws(WriteFailure) {
        let readOnly = geteuid() == 0 ? status.st_mode & 0o222 == 0 : faccessat(lock.folder, lock.name, W_OK, AT_EACCESS) != 0
        if readOnly {
            throw .protected(path: lock.path, reason: "is read-only; tick does not replace a file it may not write (make it writable first)")
        }
        if status.st_nlink > 1 {
            throw .protected(path: lock.path, reason: "has \(status.st_nlink) names (hard links); replacing it would leave the other names with the old text (copy the file to a name of its own, or remove the other links, then run the command again)")
        }
    }

    /// Writes `bytes` to a new hidden file beside the locked file, in its
    /// folder, and flushes it; returns the file's name in that folder.
    static func writeTemporary(_ bytes: [UInt8], for lock: FileLock) throws(WriteFailure) -> String {
        try writeTemporary(bytes, in: lock.folder, beside: lock.name, shownPath: lock.path, like: lock.status)
    }

    /// Writes `bytes` to a new hidden file `.NAME.tick-XXXXXX` in the open
    /// `folder`, with the permissions (and owner, where allowed) of `status`,
    /// and flushes it; returns the new file's name.
    /// The extended attributes of the open file `attributesFrom` (user
    /// attributes, and ACLs, which are attributes too) are copied where
    /// allowed.
    static func writeTemporary(_ bytes: [UInt8], in folder: Int32, beside name: String, shownPath: String, like status: stat,
                               attributesFrom original: Int32? = nil) throws(WriteFailure) -> String {
        var descriptor: Int32 = -1
        var temporary = ""
        for _ in 0..<100 {
            temporary = "." + name + ".tick-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
            descriptor = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw .cannotWrite(path: shownPath, reason: WriteFailure.reason(errno)) }
        let name = temporary
        func fail(_ code: Int32) -> WriteFailure {
            close(descriptor)
            unlinkat(folder, name, 0)
            return .cannotWrite(path: shownPath, reason: WriteFailure.reason(code))
        }
        if let code = bytes.withUnsafeBytes({ FileIO.writeAll($0, to: descriptor) }) { throw fail(code) }
        if fchown(descriptor, status.st_uid, status.st_gid) != 0 {   // keeps the owner where allowed
            _ = fchown(descriptor, uid_t.max, status.st_gid)            // else at least the group, where allowed
        }
        if let original { copyAttributes(from: original, to: descriptor) }
        if fchmod(descriptor, status.st_mode & 0o7777) != 0 { throw fail(errno) }
        if fsync(descriptor) != 0 { throw fail(errno) }
        if close(descriptor) != 0 {
            let code = errno
            unlinkat(folder, name, 0)
            throw .cannotWrite(path: shownPath, reason: WriteFailure.reason(code))
        }
        return name
    }

    /// Copies every extended attribute of the open file `source` to the
    /// open file `target`, skipping those the user may not set (such as
    /// `security.*` for others than root). Does nothing where the C library
    /// has no `flistxattr`.
    static func copyAttributes(from source: Int32, to target: Int32) {
        guard let calls = AttributeCalls.shared else { return }
        let size = calls.list(source, nil, 0)
        guard size > 0 else { return }
        var names = [CChar](repeating: 0, count: size)
        let got = names.withUnsafeMutableBufferPointer { calls.list(source, $0.baseAddress, size) }
        guard got > 0 else { return }
        for name in names[..<got].split(separator: 0) {
            let key = Array(name) + [0]
            let length = calls.get(source, key, nil, 0)
            guard length >= 0 else { continue }
            var value = [UInt8](repeating: 0, count: max(length, 1))
            let read = value.withUnsafeMutableBytes { calls.get(source, key, $0.baseAddress, length) }
            guard read >= 0 else { continue }
            _ = value.withUnsafeBytes { calls.set(target, key, $0.baseAddress, read, 0) }
        }
    }

    /// `flistxattr`, `fgetxattr` and `fsetxattr`, found at run time (Glibc's
    /// Swift module does not declare them); nil where the C library has none.
    struct AttributeCalls {
        typealias List = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int
        typealias Get = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
        typealias Set = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
        var list: List
        var get: Get
        var set: Set

        /// Set once, then only read.
        static let shared: AttributeCalls? = {
            #if os(Linux)
            guard let list = dlsym(nil, "flistxattr"), let get = dlsym(nil, "fgetxattr"), let set = dlsym(nil, "fsetxattr") else { return nil }
            return AttributeCalls(list: unsafeBitCast(list, to: List.self), get: unsafeBitCast(get, to: Get.self),
                                  set: unsafeBitCast(set, to: Set.self))
            #else
            return nil
            #endif
        }()
    }

    /// Throws `changedOnDisk` unless the file at the lock's path is still the
    /// one that was read, with the same bytes: its name in the locked folder
    /// names the locked file, and so does the path as given.
    static func checkUnchanged(_ lock: FileLock) throws(WriteFailure) {
        var now = stat()
        var viaPath = stat()
        guard fstatat(lock.folder, lock.name, &now, AT_SYMLINK_NOFOLLOW) == 0, stat(lock.path, &viaPath) == 0,
              FileLock.sameFile(viaPath, now) else {
            throw .changedOnDisk(path: lock.path)
        }
        let before = lock.status
        guard FileLock.sameFile(now, before), now.st_size == before.st_size,
              modificationTime(now) == modificationTime(before) else {
            throw .changedOnDisk(path: lock.path)
        }
        guard isTheFileRead(lock.name, lock) else { throw .changedOnDisk(path: lock.path) }
    }

    static func modificationTime(_ status: stat) -> [Int] {
        #if os(Linux)
        return [Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec)]
        #else
        return [Int(status.st_mtimespec.tv_sec), Int(status.st_mtimespec.tv_nsec)]
        #endif
    }
}
