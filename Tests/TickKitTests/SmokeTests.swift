import Testing
@testable import tick

@Test func binaryRuns() throws {
    let run = try TickRunner.run(["--version"])
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("0.1.0"))
    #expect(RelativeDate.describe(.init(year: 2026, month: 11, day: 22), today: .init(year: 2026, month: 11, day: 21)).text == "tomorrow")
}
