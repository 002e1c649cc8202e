import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `tick` binary for command-line tests.
enum TickProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `tick` executable: next to the test bundle, else `.build/debug/tick`
    /// of the package.
    static let executable: URL = {
        let besideBundle = Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("tick")
        if FileManager.default.isExecutableFile(atPath: besideBundle.path) { return besideBundle }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.appendingPathComponent(".build/debug/tick")
    }()

    /// Starts `tick` with `arguments` (and, when given, through `/bin/sh -c`
    /// with `shellPrefix` run first, e.g. `ulimit -f 0`).
    static func start(
        _ arguments: [String], environment: [String: String] = [:], shellPrefix: String? = nil,
        wrapper: [String] = []
    ) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        if let program = wrapper.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(wrapper.dropFirst()) + [executable.path] + arguments
        } else if let shellPrefix {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", shellPrefix + "; exec \"$0\" \"$@\"", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["TICK_DIR"] = nil
        env["TICK_TODAY"] = nil
        env["NO_COLOR"] = "1"
        // A parse cache of the test run's own, not the user's.
        env["XDG_CACHE_HOME"] = TickRunner.cacheHome
        env["XDG_STATE_HOME"] = TickRunner.stateHome
        env["XDG_CONFIG_HOME"] = TickRunner.configHome
        env["TICK_TEST_TIMESTAMP_GRANULARITY_MS"] = TickRunner.timestampGranularity
        if let options = env["TICK_CHILD_ASAN_OPTIONS"] { env["ASAN_OPTIONS"] = options }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, out, err)
    }

    static func finish(_ started: (Process, Pipe, Pipe)) -> Result {
        let (process, out, err) = started
        // Read both pipes to the end before waiting, so a full pipe never blocks.
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    static func run(
        _ arguments: [String], environment: [String: String] = [:], shellPrefix: String? = nil,
        wrapper: [String] = []
    ) throws -> Result {
        finish(try start(arguments, environment: environment, shellPrefix: shellPrefix, wrapper: wrapper))
    }
}

/// A temporary notes folder, removed when the test is done with it.
final class NotesFixture {
    let root: URL

    init(_ files: [String: [UInt8]] = [:]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tick-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (path, bytes) in files { try write(path, bytes) }
    }

    convenience init(_ files: [String: String]) throws {
        try self.init(files.mapValues { Array($0.utf8) })
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    func write(_ path: String, _ bytes: [UInt8]) throws {
        let url = url(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: url(path))) }
    func text(_ path: String) throws -> String { String(decoding: try bytes(path), as: UTF8.self) }

    /// Runs tick in this folder with today pinned to 2026-11-21.
    func tick(_ arguments: String..., environment: [String: String] = [:], shellPrefix: String? = nil) throws -> TickProcess.Result {
        try TickProcess.run(arguments + ["--dir", root.path, "--today", "2026-11-21"], environment: environment, shellPrefix: shellPrefix)
    }

    /// Every file below the root (hidden ones included), for "nothing else was written" checks.
    func allFiles() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String { files.append(path) }
        return files.sorted()
    }
}
