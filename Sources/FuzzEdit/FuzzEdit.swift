import TickFuzzChecks

// See `FuzzDriver.main`: libFuzzer's driver under `make fuzz`, replay of
// saved inputs in the normal build (`.build/debug/FuzzEdit FILE...`).
@main
struct Fuzz {
    static func main() {
        FuzzDriver.main("FuzzEdit") { EditInvariants.violations(of: $0) }
    }
}
