import TickFuzzChecks

// See `FuzzDriver.main`: libFuzzer's driver under `make fuzz`, replay of
// saved inputs in the normal build (`.build/debug/FuzzParser FILE...`).
@main
struct Fuzz {
    static func main() {
        FuzzDriver.main("FuzzParser") { ParserInvariants.violations(of: $0) }
    }
}
