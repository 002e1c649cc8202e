import ArgumentParser
@preconcurrency import Foundation
import TickEdit
import TickEngine
import TickModel
import TickOutput
import TickRecords
import TickStore
import TickSystem

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// A subcommand whose failures become one line on standard error and the
/// SPEC's exit code, never a stack trace.
protocol TickCommand: ParsableCommand {
    func execute() throws
    /// How the command reads the notes folder's parse cache, with its usual
    /// options: the cache is opened on another core while the command line
    /// is parsed (`Tick.openParseCacheEarly`). `.none` (the default) for a
    /// command that never reads it.
    static var parseCacheUse: ParseCacheUse { get }
}

/// How a command reads the parse cache (`TickCommand.parseCacheUse`).
enum ParseCacheUse {
    case none
    /// Its index, and the payloads of some lists or all.
    case reads
}

extension TickCommand {
    static var parseCacheUse: ParseCacheUse { .none }

    func run() throws {
        do {
            try execute()
        } catch let error as any TickErrorConvertible {
            let failure = error.tickError
            Terminal.error(failure.message)
            throw ExitCode(failure.kind.exitCode)
        }
    }
}

/// Standard output and standard error.
enum Terminal {
    static func error(_ message: String) {
        writeError("tick: " + TerminalText.safeLines(message) + "\n")
    }

    static func warning(_ message: String) {
        writeError("tick: warning: " + TerminalText.safeLines(message) + "\n")
    }

    static func write(_ text: String) {
        writeRaw(Array(text.utf8))
    }

    /// Prints a JSON document and a newline on standard output (through the
    /// file descriptor as `print`, after flushing it, so order is kept).
    static func writeJSON(_ value: JSONValue) {
        writeJSON(bytes: value.serializedBytes(pretty: true))
    }

    /// Prints JSON already serialised, and a newline.
    static func writeJSON(bytes serialized: [UInt8]) {
        writeRaw(serialized)
        writeRaw([0x0A])
    }

    /// Prints the items document of `items` as it is rendered, piece by piece.
    static func writeItemsJSON(_ items: [EncodedListedItem], context: ItemContext) {
        ItemJSON.writeItemsDocument(items, context: context) { writeRaw($0) }
        writeRaw([0x0A])
    }

    /// Prints the groups document of `groups` as it is rendered, piece by piece.
    static func writeGroupsJSON(_ groups: ItemGroups, context: ItemContext) {
        ItemJSON.writeGroupsDocument(groups, context: context) { writeRaw($0) }
        writeRaw([0x0A])
    }

    /// The same for the items of `workspace` that match `query`, in manual order.
    static func writeItemsJSON(matching query: QueryExpression, in workspace: EncodedWorkspace, context: ItemContext) {
        ItemJSON.writeItemsDocument(matching: query, in: workspace, context: context) { writeRaw($0) }
        writeRaw([0x0A])
    }

    /// Writes bytes to standard output, after whatever `print` buffered.
    static func writeRaw(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { writeRaw($0) }
    }

    static func writeRaw(_ buffer: UnsafeBufferPointer<UInt8>) {
        writeAll(buffer, to: STDOUT_FILENO)
    }

    /// Writes all of `buffer` to `descriptor` with `write(2)`, after whatever
    /// `print` buffered. A closed pipe ends the process as SIGPIPE would
    /// (`endWithBrokenPipe`); any other failure to write standard output
    /// (a full disk, `/dev/full`, an I/O error) ends it with exit 73
    /// (`endWithWriteError`). A failure to write standard error is dropped,
    /// as there is nowhere left to report it. (Foundation's `FileHandle.write`
    /// traps on a closed pipe when SIGPIPE is ignored, as it is while a cache
    /// is saved: `Tick.main` sets `ProcessHooks.beforeBackgroundSave`.)
    static func writeAll(_ buffer: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
        flushStandardOutput()
        guard let code = Posix.writeAll(UnsafeRawBufferPointer(buffer), to: descriptor) else { return }
        if code == EPIPE { endWithBrokenPipe() }
        if descriptor == STDOUT_FILENO { endWithWriteError(code) }
    }

    /// Writes out what `print` buffered, and ends the process as
    /// `writeAll` does when standard output cannot take it (now or at an
    /// earlier buffered write). Every command's output passes here before
    /// the process exits.
    static func flushStandardOutput() {
        if fflush(stdout) != 0 {
            let code = errno
            if code == EPIPE { endWithBrokenPipe() }
            endWithWriteError(code)
        }
        if ferror(stdout) != 0 { endWithWriteError(nil) }
        fflush(nil)
    }

    /// Standard output was closed (`tick query … | head`): once a cache
    /// being saved is complete, the process ends as SIGPIPE would have
    /// ended it (see `BackgroundSaves`: SIGPIPE is ignored meanwhile, by the
    /// hook `Tick.main` sets).
    static func endWithBrokenPipe() -> Never {
        BackgroundSaves.wait()
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        exit(141)
    }

    /// Standard output cannot be written (a full disk, `/dev/full`): one
    /// line on standard error and exit 73 (SPEC §7), once a cache being
    /// saved is complete. What stdio still holds for standard output is
    /// dropped, so that `exit` does not try to write it again.
    static func endWithWriteError(_ code: Int32?) -> Never {
        BackgroundSaves.wait()
        let reason = code.map { String(cString: strerror($0)) } ?? "write error"
        // Straight to the descriptor: `writeError` would flush standard output first.
        let message = Array("tick: cannot write the output to standard output: \(reason)\n".utf8)
        _ = message.withUnsafeBytes { Posix.writeAll($0, to: STDERR_FILENO) }
        _exit(73)
    }

    static func writeError(_ text: String) {
        Array(text.utf8).withUnsafeBufferPointer { writeAll($0, to: STDERR_FILENO) }
    }
}
