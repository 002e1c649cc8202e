import Foundation
import TickModel
import TickSystem

/// Reads whole files (one `open`, `fstat` and as few `read`s as the size
/// allows, through `Posix`), the fastest way to get a file's bytes.
///
/// Only regular files are read: the file is opened without blocking (a FIFO
/// with no writer would block `open` forever) and anything else (a FIFO, a
/// device such as `/dev/zero`, a socket) is refused before a byte is read.
public enum FileIO {
    public struct ReadError: Error, CustomStringConvertible, TickErrorConvertible {
        public var path: String
        public var code: Int32
        /// Why, when `code` does not say it well (a file that is not a regular file).
        public var reason: String? = nil
        public var description: String { "cannot read \(path): \(reason ?? Posix.describe(code))" }
        public var tickError: TickError { .noInput(description) }
    }

    /// Why a file that is not a regular file is not read.
    public static let notRegularReason = "not a regular file; only regular files are lists"

    public static func read(_ path: String) throws -> [UInt8] {
        let descriptor = Posix.openFile(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw ReadError(path: path, code: errno) }
        defer { Posix.closeFile(descriptor) }
        guard let info = Posix.status(of: descriptor) else { throw ReadError(path: path, code: errno) }
        if info.isDirectory { throw ReadError(path: path, code: EISDIR) }
        if !info.isRegularFile { throw ReadError(path: path, code: EINVAL, reason: notRegularReason) }
        let (bytes, failure) = Posix.readAll(descriptor, sizeHint: Int(info.st_size))
        if let failure { throw ReadError(path: path, code: failure) }
        return bytes
    }

    /// Everything readable from `descriptor` (a pipe) until its end, retrying
    /// interrupted reads (Foundation's `FileHandle` readers trap on EINTR).
    public static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        Posix.readAll(descriptor, sizeHint: 65535).bytes
    }
}
