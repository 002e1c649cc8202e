import TickFuzzChecks
#if canImport(Glibc)
import Glibc
#endif

// Built two ways. `make fuzz` compiles with -D FUZZING and -sanitize=fuzzer:
// main hands the command line to libFuzzer's driver, which calls `check`
// with generated inputs. The normal build replays the files given as
// arguments instead (how a saved crash is reproduced:
// `.build/debug/FuzzEdit crash-…`).

let check: @Sendable ([UInt8]) -> [String] = { EditInvariants.violations(of: $0) }

#if FUZZING
import CFuzzerDriver

@main
struct Fuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in FuzzDriver.fuzzOne(data, size, check) })
    }
}
#else
@main
struct Replay {
    static func main() {
        FuzzDriver.replay("FuzzEdit", arguments: Array(CommandLine.arguments.dropFirst()), check)
    }
}
#endif
