import Foundation

/// Runs the built `tick` executable, as a user would, and captures the result.
enum TickProcess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `tick` binary built beside the test bundle.
    static let executable: URL = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tick"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("tick"),
            TestPaths.packageRoot.appendingPathComponent(".build/debug/tick"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }()

    /// Runs tick with `arguments` in `directory`, with a clean environment
    /// (no TICK_DIR, TICK_TODAY or NO_COLOR unless given).
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        for key in ["TICK_DIR", "TICK_TODAY", "NO_COLOR", "VISUAL", "EDITOR", "COLORTERM"] { env.removeValue(forKey: key) }
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes before waiting, so a large output cannot block the child.
        nonisolated(unsafe) var errData = Data()
        let errReader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        errReader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errReader.isFinished { usleep(1000) }
        return Output(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A temporary folder of notes for one test, removed when the test ends.
final class TemporaryFolder {
    let url: URL

    init(files: [String: String] = [:]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tick-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (path, text) in files { try write(path, Data(text.utf8)) }
    }

    func write(_ path: String, _ data: Data) throws {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    func read(_ path: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(path)) }

    deinit { try? FileManager.default.removeItem(at: url) }
}
