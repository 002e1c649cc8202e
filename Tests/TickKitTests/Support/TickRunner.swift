import Foundation
import Testing
import TickStore

/// Runs the built `tick` binary and captures what it prints.
struct TickRun {
    var status: Int32
    var stdout: String
    var stderr: String
    var stdoutBytes: [UInt8]
}

enum TickRunner {
    /// The `tick` executable built next to the test bundle (`swift build
    /// --build-tests` builds both), else `.build/debug/tick` of the package.
    static let executable: URL = {
        let runner = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("tick")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
            folder = folder.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/tick")
    }()

    /// Everything a pipe holds until it closes.
    static func readAll(_ descriptor: Int32) -> Data { Data(FileIO.readToEnd(descriptor)) }

    static let cacheHome: String = ScratchFolders.make("tick-test-cache-\(getpid())").path
    /// The change journal's folder (XDG_STATE_HOME) of the test run's tick processes.
    static let stateHome: String = ScratchFolders.make("tick-test-state-\(getpid())").path
    /// An empty XDG_CONFIG_HOME: the user's own config file never reaches the tests.
    static let configHome: String = ScratchFolders.make("tick-test-config-\(getpid())").path

    static let packageRoot: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }()

    /// The timestamp granularity the tick processes of the tests assume.
    static let timestampGranularity = "0"

    /// Runs tick with `arguments`. The environment is clean of TICK_*,
    /// NO_COLOR, COLORTERM, COLUMNS, VISUAL, EDITOR and SHELL unless
    /// `environment` sets them (CI runs with no SHELL, a terminal with one);
    /// the output is a pipe, so tick sees no terminal. `program` runs instead
    /// of tick when given (a shell running examples), with the same environment.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
        program: URL? = nil
    ) throws -> TickRun {
        let process = Process()
        process.executableURL = program ?? executable
        process.arguments = arguments
        var base = ProcessInfo.processInfo.environment
        for key in ["TICK_DIR", "TICK_TODAY", "NO_COLOR", "COLORTERM", "COLUMNS", "VISUAL", "EDITOR", "SHELL"] { base[key] = nil }
        // A parse cache of the test run's own, not the user's.
        base["XDG_CACHE_HOME"] = Self.cacheHome
        base["XDG_STATE_HOME"] = Self.stateHome
        base["XDG_CONFIG_HOME"] = Self.configHome
        // A file written just before a run is settled for the cache (see
        // `ParseCacheTests` for the real granularities): warm runs do not
        // depend on how fast the machine is.
        base["TICK_TEST_TIMESTAMP_GRANULARITY_MS"] = Self.timestampGranularity
        // `make sanitize-address` checks the tick processes for leaks, not the test runner.
        if let options = base["TICK_CHILD_ASAN_OPTIONS"] { base["ASAN_OPTIONS"] = options }
        process.environment = base.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while the process runs, so that neither fills up.
        // (With read(2) and a retry on EINTR: FileHandle's readers trap on it.)
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        let errorDescriptor = err.fileHandleForReading.fileDescriptor
        DispatchQueue.global().async {
            errorData = Self.readAll(errorDescriptor)
            group.leave()
        }
        let outputData = Self.readAll(out.fileHandleForReading.fileDescriptor)
        group.wait()
        process.waitUntilExit()
        return TickRun(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self), stdoutBytes: Array(outputData))
    }
}

/// A temporary notes folder, removed when the value goes away.
final class TemporaryFolder {
    let url: URL
    var path: String { url.path }

    init(_ files: [String: String] = [:]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tick-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (path, text) in files { try write(path, text) }
    }

    func write(_ path: String, _ text: String) throws {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
