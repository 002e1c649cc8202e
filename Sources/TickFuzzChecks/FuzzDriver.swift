#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if FUZZING
    import CFuzzerDriver
#endif

/// What the three fuzz executables share: one input through a check, as
/// libFuzzer calls it, or files given on the command line (replay mode, the
/// normal build), which is how a saved crash is reproduced.
public enum FuzzDriver {
    /// The `main` of a fuzz executable. Built two ways: `make fuzz` compiles
    /// with `-D FUZZING` and `-sanitize=fuzzer`, and the command line goes to
    /// libFuzzer's driver, which calls `check` with generated inputs; the
    /// normal build replays the files given as arguments instead (how a saved
    /// crash is reproduced: `.build/debug/FuzzEdit crash-…`).
    public static func main(_ name: String, _ check: @escaping @Sendable ([UInt8]) -> [String]) -> Never {
        #if FUZZING
            activeCheck = check
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            // libFuzzer takes a C function, which cannot capture `check`.
            exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in FuzzDriver.fuzzOne(data, size, FuzzDriver.activeCheck) })
        #else
            replay(name, arguments: Array(CommandLine.arguments.dropFirst()), check)
        #endif
    }

    /// The check `main` runs, set once before fuzzing starts.
    nonisolated(unsafe) static var activeCheck: @Sendable ([UInt8]) -> [String] = { _ in [] }

    /// Runs `check` on one input; a broken invariant prints the problems and
    /// aborts, which libFuzzer records as a crash and saves the input.
    public static func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int, _ check: ([UInt8]) -> [String]) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        let problems = check(bytes)
        if !problems.isEmpty {
            for problem in problems.prefix(20) { printError("invariant broken: \(problem)\n") }
            abort()
        }
        return 0
    }

    /// Replay mode: runs `check` on every file named in `arguments` (folders
    /// are read one level deep) and exits 1 when any input breaks an invariant.
    public static func replay(_ name: String, arguments: [String], _ check: ([UInt8]) -> [String]) -> Never {
        guard !arguments.isEmpty else {
            printError("usage: \(name) FILE-OR-FOLDER...\n  runs each input through the \(name) checks (build with `make fuzz` to fuzz)\n")
            exit(64)
        }
        var failed = 0
        var total = 0
        for path in arguments.flatMap(expand) {
            guard let bytes = read(path) else {
                printError("\(name): cannot read \(path)\n")
                exit(66)
            }
            total += 1
            let problems = check(bytes)
            if !problems.isEmpty {
                failed += 1
                for problem in problems { print("\(path): \(problem)") }
            }
        }
        print("\(name): \(total - failed) of \(total) inputs keep every invariant")
        exit(failed == 0 ? 0 : 1)
    }

    /// Writes `text` to standard error.
    static func printError(_ text: String, _ unused: Int32 = 0) {
        var bytes = Array(text.utf8)
        _ = write(2, &bytes, bytes.count)
    }

    static func expand(_ path: String) -> [String] {
        guard let folder = opendir(path) else { return [path] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            // Read in place: a dirent can be shorter than its `d_name` array.
            let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(path + "/" + name) }
        }
        return names.sorted()
    }

    /// The bytes of a file, or nil.
    public static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }
}
