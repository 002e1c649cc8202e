import Foundation

/// Folders a test process shares between its tests (the CLI tests' cache
/// folder, the CommonMark corpus's files): removed when the process exits,
/// so that test runs leave nothing behind in the temporary folder.
enum ScratchFolders {
    nonisolated(unsafe) private static var paths: [String] = []
    private static let lock = NSLock()
    private static let removal: Void = { atexit { ScratchFolders.removeAll() } }()

    /// Makes a fresh, empty folder named `name` in the temporary folder, to
    /// be removed at exit.
    static func make(_ name: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        lock.lock()
        _ = removal
        paths.append(url.path)
        lock.unlock()
        return url
    }

    private static func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
        paths = []
    }
}
