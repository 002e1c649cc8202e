/// Process-wide decisions the library leaves to the program that uses it.
///
/// Guarantees: the library never sets a signal disposition itself; it
/// calls these hooks at the moments a program may want to, and they do
/// nothing unless the program set them. The command line sets both once,
/// at startup, before any other thread runs (`tick/Support/Entry.swift`);
/// they are only read after that.
public enum ProcessHooks {
    /// Runs before list files are written (`AtomicWriter.commit`,
    /// `AtomicWriter.create`). The command line ignores SIGXFSZ there, so
    /// that a file size limit makes the write fail (exit 73), not kill tick.
    nonisolated(unsafe) public static var beforeWritingFiles: () -> Void = {}

    /// Runs on the calling thread before a parse-cache save is started on
    /// another thread (`BackgroundSaves`). The command line ignores SIGPIPE
    /// there, so that a reader closing the output early cannot kill the
    /// process halfway through the cache file (see `BackgroundSaves`).
    nonisolated(unsafe) public static var beforeBackgroundSave: () -> Void = {}
}
