import Testing
import TickEdit
import TickEngine
import TickModel

@testable import TickStore

/// `TickError`: every library failure a command can end with says its SPEC §7
/// kind, and each kind has one exit code.
@Suite struct TickErrorTests {
    @Test("each kind has SPEC §7's exit code")
    func kindsHaveTheSpecsExitCodes() {
        let kinds: [TickError.Kind] = [.failed, .usage, .badData, .noInput, .cannotWrite, .changedOnDisk]
        #expect(kinds.map(\.exitCode) == [1, 64, 65, 66, 73, 75])
    }

    @Test("write failures, lookups, unreadable folders and files map to their kinds, with their one-line messages")
    func libraryFailuresMapToTheirKinds() {
        let cases: [(any TickErrorConvertible, TickError.Kind)] = [
            (WriteFailure.cannotRead(path: "a.md", reason: "gone"), .noInput),
            (WriteFailure.cannotWrite(path: "a.md", reason: "read-only"), .cannotWrite),
            (WriteFailure.exists(path: "a.md"), .cannotWrite),
            (WriteFailure.changedOnDisk(path: "a.md"), .changedOnDisk),
            (WriteFailure.notUTF8(path: "a.md"), .badData),
            (WriteFailure.conflicted(path: "a.md", line: 3), .badData),
            (ListLookup.Failure.unknown("groceris", candidates: ["groceries.md"]), .badData),
            (ItemLookup.Failure.ambiguous("milk", candidates: ["a.md:1", "b.md:2"]), .badData),
            (NotesFolder.Problem(description: "cannot open notes folder 'x'"), .noInput),
            (FileIO.ReadError(path: "a.md", code: 2), .noInput),
        ]
        for (failure, kind) in cases {
            #expect(failure.tickError.kind == kind, "\(failure)")
            #expect(!failure.tickError.message.isEmpty && !failure.tickError.message.contains("\n"), "\(failure)")
            #expect(failure.tickError.errorDescription == failure.tickError.message)
        }
        #expect(
            ListLookup.Failure.unknown("groceris", candidates: ["groceries.md"]).tickError.message
                == "no list named 'groceris'; lists are groceries.md")
    }
}
