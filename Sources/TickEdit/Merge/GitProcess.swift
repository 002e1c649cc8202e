import Foundation
import TickModel
import TickStore
import TickSystem

/// The git commands tick runs: `git merge-file` for the lines of a list file
/// that are not items (`tick merge`), and `git config` / `git rev-parse` for
/// `tick git setup`. Only these two commands run git; reading a notes folder
/// never does (ignore rules are read in-process).
public enum GitProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var output: [UInt8]
        /// Standard error, trimmed.
        public var error: String
    }

    /// Why git could not be run or failed.
    public struct Failure: Error, CustomStringConvertible, TickErrorConvertible {
        public var description: String
        public var tickError: TickError { .noInput(description) }
    }

    /// Runs `git ARGUMENTS` (found on PATH) in `directory`.
    public static func run(_ arguments: [String], in directory: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot run git: \(error.localizedDescription); install git and try again")
        }
        // Both pipes are read while git runs, so that neither fills up.
        nonisolated(unsafe) var errorData: [UInt8] = []
        let group = DispatchGroup()
        group.enter()
        let errorDescriptor = err.fileHandleForReading.fileDescriptor
        DispatchQueue.global().async {
            errorData = FileIO.readToEnd(errorDescriptor)
            group.leave()
        }
        let output = FileIO.readToEnd(out.fileHandleForReading.fileDescriptor)
        group.wait()
        process.waitUntilExit()
        if process.terminationStatus == 127 {
            throw Failure(description: "git was not found on PATH; install git and try again")
        }
        return Result(
            status: process.terminationStatus, output: output,
            error: String(decoding: errorData, as: UTF8.self).trimmingWhiteSpace(.spacesAndNewlines))
    }

    /// A line merge by `git merge-file --diff3` on three temporary files,
    /// read back with markers no line of the texts could be taken for.
    public static let mergeFile: LineMerger = { base, ours, theirs in
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tick-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, bytes) in [("base", base), ("ours", ours), ("theirs", theirs)] {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        let size = LineMergePiece.safeMarkerSize(for: [base, ours, theirs])
        let result = try run(
            [
                "merge-file", "-p", "--diff3", "--marker-size=\(size)", "-L", "ours", "-L", "base", "-L", "theirs",
                "ours", "base", "theirs",
            ], in: folder.path)
        // merge-file exits with the number of conflicts, or a negative number (255) on an error.
        guard result.status >= 0, result.status < 128 else {
            throw Failure(description: "git merge-file failed: \(result.error.isEmpty ? "exit \(result.status)" : result.error)")
        }
        return LineMergePiece.parseDiff3(result.output, markerSize: size)
    }
}
