import Foundation

/// The slow reliability scenarios run more rounds (or at all) only when
/// `TICK_SLOW_TESTS=1`; `.ci/run` sets it. Without it each still runs a
/// short version, so `make test` exercises every scenario.
enum SlowTests {
    static let enabled = ProcessInfo.processInfo.environment["TICK_SLOW_TESTS"] == "1"

    /// `fast` rounds normally, `slow` rounds with TICK_SLOW_TESTS=1.
    static func rounds(_ fast: Int, slow: Int) -> Int { enabled ? slow : fast }
}
