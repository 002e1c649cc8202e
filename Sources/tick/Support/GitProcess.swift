import Foundation
import TickKit

/// The git commands tick runs: `git merge-file` for the lines of a list file
/// that are not items (`tick merge`), and `git config` / `git rev-parse` for
/// `tick git setup`. Only these two commands run git; reading a notes folder
/// never does (ignore rules are read in-process).
enum GitProcess {
    struct Result {
        var status: Int32
        var output: [UInt8]
        var error: String
    }

    /// Runs `git ARGUMENTS` (found on PATH) in `directory`.
    static func run(_ arguments: [String], in directory: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw TickFailure.noInput("cannot run git: \(error.localizedDescription); install git and try again")
        }
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        if process.terminationStatus == 127 {
            throw TickFailure.noInput("git was not found on PATH; install git and try again")
        }
        return Result(status: process.terminationStatus, output: Array(output),
                      error: String(decoding: errorData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A line merge by `git merge-file --diff3` on three temporary files,
    /// read back with markers no line of the texts could be taken for.
    static let mergeFile: LineMerger = { base, ours, theirs in
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tick-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, bytes) in [("base", base), ("ours", ours), ("theirs", theirs)] {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        let size = LineMergePiece.safeMarkerSize(for: [base, ours, theirs])
        let result = try run(["merge-file", "-p", "--diff3", "--marker-size=\(size)", "-L", "ours", "-L", "base", "-L", "theirs",
                              "ours", "base", "theirs"], in: folder.path)
        // merge-file exits with the number of conflicts, or a negative number (255) on an error.
        guard result.status >= 0, result.status < 128 else {
            throw TickFailure.noInput("git merge-file failed: \(result.error.isEmpty ? "exit \(result.status)" : result.error)")
        }
        return LineMergePiece.parseDiff3(result.output, markerSize: size)
    }
}
