import Foundation
import TickModel
import TickSystem

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
    /// The file holds git conflict markers, the first at `line` (65); tick never rewrites such a file.
    case conflicted(path: String, line: Int)
    /// A file to create exists already (73).
    case exists(path: String)
    /// The path leads (through a symbolic link) outside the notes folder (65).
    case outside(path: String)
    /// The file must not be replaced: it is read-only, or has other names (73).
    case protected(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .cannotWrite(let path, let reason):
            "cannot write \(path): \(reason); nothing was changed (check the folder's permissions and free space)"
        case .changedOnDisk(let path): "\(path) changed on disk while tick was editing it; nothing was written, run the command again"
        case .notUTF8(let path): "\(path) is not valid UTF-8; tick will not rewrite it (re-save it as UTF-8)"
        case .conflicted(let path, let line):
            "\(path) has an unresolved git merge conflict (markers from line \(line)); resolve the conflict first, then run tick again"
        case .exists(let path): "\(path) exists already; pick another name"
        case .outside(let path): "\(path) leads outside the notes folder; tick only changes files inside it"
        case .protected(let path, let reason): "\(path) \(reason); nothing was changed"
        }
    }

    static func reason(_ code: Int32) -> String { Posix.describe(code) }

    /// The same failure, naming the file by `path` (e.g. relative to the notes folder).
    public func naming(_ path: String) -> WriteFailure {
        switch self {
        case .cannotRead(_, let reason): .cannotRead(path: path, reason: reason)
        case .cannotWrite(_, let reason): .cannotWrite(path: path, reason: reason)
        case .changedOnDisk: .changedOnDisk(path: path)
        case .notUTF8: .notUTF8(path: path)
        case .conflicted(_, let line): .conflicted(path: path, line: line)
        case .exists: .exists(path: path)
        case .outside: .outside(path: path)
        case .protected(_, let reason): .protected(path: path, reason: reason)
        }
    }

    /// The path the failure is about.
    public var path: String {
        switch self {
        case .cannotRead(let path, _), .cannotWrite(let path, _), .changedOnDisk(let path), .notUTF8(let path), .exists(let path),
            .outside(let path), .protected(let path, _), .conflicted(let path, _):
            path
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
///
/// The path is resolved once, its real path checked to lie inside the
/// notes folder, and that real path opened by walking it from the folder's
/// root one name at a time without following any link (`openat` with
/// `O_NOFOLLOW`): a link swapped in meanwhile makes the walk fail, never
/// leads it outside. The file's folder stays open (`folder`), and the
/// temporary file, the rename and the unchanged check all go through it, so
/// the file written is the file that was checked. Only regular files are
/// opened (a FIFO or a device is refused without blocking on it).
public final class FileLock {
    /// The path as given (the notes folder's root joined with the relative path).
    public let path: String
    /// The real file the path names (symbolic links resolved), as checked and opened.
    public let targetPath: String
    /// The file's bytes, read under the lock.
    public let bytes: [UInt8]
    /// The file's status when it was read, for the unchanged check.
    let status: stat
    /// The open folder that holds the file opened: temporary files, the
    /// rename and the checks go through it.
    let folder: Int32
    /// The file's name in `folder`.
    let name: String
    private var descriptor: Int32

    private init(path: String, targetPath: String, bytes: [UInt8], status: stat, folder: Int32, name: String, descriptor: Int32) {
        self.path = path
        self.targetPath = targetPath
        self.bytes = bytes
        self.status = status
        self.folder = folder
        self.name = name
        self.descriptor = descriptor
    }

    /// Locks and reads the file at `path` (absolute), which must lie (once
    /// links are resolved) in the real folder of `path`'s own folder.
    public static func acquire(_ path: String) throws(WriteFailure) -> FileLock {
        let parent = (path as NSString).deletingLastPathComponent
        return try acquire((path as NSString).lastPathComponent, in: resolvedPath(parent.isEmpty ? "." : parent), shownAs: path)
    }

    /// Locks and reads the file at `relativePath` below `root` (an absolute
    /// path with links resolved), waiting for other tick processes that hold
    /// its lock. Refuses (`outside`) a path that leads out of `root`.
    public static func acquire(_ relativePath: String, in root: String, shownAs shown: String? = nil) throws(WriteFailure) -> FileLock {
        let named = root + "/" + relativePath
        let path = shown ?? named
        for attempt in 0..<1000 {
            // The one resolution: where the path leads now, which must be inside the root.
            guard let target = Posix.realPath(named) else { throw .cannotRead(path: path, reason: WriteFailure.reason(errno)) }
            guard target.hasPrefix(root + "/") else { throw .outside(path: path) }
            if attempt == 0 { TestSeam.wait("TICK_TEST_WAIT_BEFORE_OPEN") }
            let opened: (folder: Int32, name: String, descriptor: Int32)
            do throws(OpenFailure) {
                opened = try openWithoutLinks(String(target.dropFirst(root.count + 1)), from: root)
            } catch {
                switch error {
                case .replaced: continue // a link or folder was swapped in: resolve again
                case .failed(let code): throw .cannotRead(path: path, reason: WriteFailure.reason(code))
                case .notRegular: throw .cannotRead(path: path, reason: FileIO.notRegularReason)
                }
            }
            let (folder, name, descriptor) = opened
            func giveUp() {
                Posix.closeFile(descriptor)
                Posix.closeFile(folder)
            }
            guard Posix.lock(descriptor, LOCK_EX) else {
                let code = errno
                giveUp()
                throw .cannotRead(path: path, reason: "cannot lock it: " + WriteFailure.reason(code))
            }
            guard let held = Posix.status(of: descriptor) else {
                let code = errno
                giveUp()
                throw .cannotRead(path: path, reason: WriteFailure.reason(code))
            }
            // Another process may have renamed a new file over this one (or
            // swapped a link on the way) while we waited: then start again.
            guard let inFolder = Posix.status(in: folder, name), inFolder.isSameFile(as: held),
                let viaName = Posix.status(atPath: named), viaName.isSameFile(as: held)
            else {
                giveUp()
                continue
            }
            let (bytes, failure) = Posix.readAll(descriptor, sizeHint: Int(held.st_size))
            if let failure {
                giveUp()
                throw .cannotRead(path: path, reason: WriteFailure.reason(failure))
            }
            return FileLock(path: path, targetPath: target, bytes: bytes, status: held, folder: folder, name: name, descriptor: descriptor)
        }
        throw .cannotRead(path: path, reason: "it keeps being replaced; try again")
    }

    enum OpenFailure: Error {
        /// A name on the way is (now) a link, or not what it was: resolve again.
        case replaced
        /// The file is not a regular file.
        case notRegular
        case failed(Int32)
    }

    /// Opens `relative` (a path with no links in it) below `root` one name at
    /// a time, never following a link: the file (a regular file, opened
    /// read-only without blocking) and its open folder.
    static func openWithoutLinks(_ relative: String, from root: String) throws(OpenFailure) -> (folder: Int32, name: String, descriptor: Int32) {
        var names = relative.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let name = names.popLast() else { throw .failed(EISDIR) }
        var folder = Posix.openFile(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw .failed(errno) }
        for component in names {
            let next = Posix.openFile(in: folder, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let code = errno
            Posix.closeFile(folder)
            guard next >= 0 else { throw code == ELOOP || code == ENOTDIR || code == ENOENT ? .replaced : .failed(code) }
            folder = next
        }
        let descriptor = Posix.openFile(in: folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            Posix.closeFile(folder)
            throw code == ELOOP || code == ENOENT ? .replaced : .failed(code)
        }
        guard let status = Posix.status(of: descriptor), status.isRegularFile else {
            Posix.closeFile(descriptor)
            Posix.closeFile(folder)
            throw .notRegular
        }
        return (folder, name, descriptor)
    }

    /// The file's status now (`fstat` of the locked file): its mode, owner
    /// and links as they are at the moment of writing, not as they were
    /// when it was read.
    func currentStatus() -> stat? {
        descriptor >= 0 ? Posix.status(of: descriptor) : nil
    }

    /// The locked file's descriptor, for copying its extended attributes.
    var fileDescriptor: Int32 { descriptor }

    /// Removes the locked file, by its open folder and name (no path is resolved again).
    public func removeFile() { Posix.remove(in: folder, name) }

    /// Releases the lock (also done when the value goes away).
    public func release() {
        if descriptor >= 0 {
            Posix.closeFile(descriptor)
            Posix.closeFile(folder)
            descriptor = -1
        }
    }

    deinit { release() }

    /// The real path behind `path`, or `path` when it cannot be resolved.
    static func resolvedPath(_ path: String) -> String { Posix.realPath(path) ?? path }
}

/// Test seams: pauses at a critical moment so that a test can change the
/// folder exactly then. Each is an environment variable naming a FIFO; tick
/// opens it for reading and goes on when the test's writer closes it. Unset,
/// empty or not a FIFO, it does nothing.
public enum TestSeam {
    public static func wait(_ variable: String) {
        guard let fifo = Environment.process[variable], !fifo.isEmpty else { return }
        guard let status = Posix.status(atPath: fifo), status.isFIFO else { return }
        let descriptor = Posix.openFile(fifo, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        var byte: UInt8 = 0
        while withUnsafeMutableBytes(of: &byte, { Posix.read(descriptor, into: $0) }) > 0 {}
        Posix.closeFile(descriptor)
    }
}

extension WriteFailure: TickErrorConvertible {
    /// SPEC §7's kind: a file that cannot be read (66), written (73),
    /// changed on disk meanwhile (75), or one tick refuses to change (65).
    public var tickError: TickError {
        switch self {
        case .cannotRead: .noInput(description)
        case .cannotWrite, .exists, .protected: .cannotWrite(description)
        case .changedOnDisk: .changedOnDisk(description)
        case .notUTF8, .conflicted, .outside: .badData(description)
        }
    }
}
