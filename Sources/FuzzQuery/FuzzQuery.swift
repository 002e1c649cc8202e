import TickFuzzChecks

// See `FuzzDriver.main`: libFuzzer's driver under `make fuzz`, replay of
// saved inputs in the normal build (`.build/debug/FuzzQuery FILE...`).
@main
struct Fuzz {
    static func main() {
        FuzzDriver.main("FuzzQuery") { QueryInvariants.violations(of: String(decoding: $0, as: UTF8.self)) }
    }
}
