import Foundation
import Testing

/// SPEC §5.4: concurrent tick processes serialise on the lock, so no update
/// is lost.
@Suite struct ConcurrentDoneTests {
    @Test func thirtyDoneProcessesAtOnceAllSucceedAndNoneIsLost() throws {
        let count = 30
        var text = "---\ntitle: Chores\n---\n\n# Chores\n\n"
        for number in 1...count { text += "- [ ] Chore number \(number) #home\n" }
        text += "\nTrailing paragraph.\n"
        let notes = try NotesFixture(["chores.md": text])
        let firstItemLine = 7

        // Start all 30 before waiting for any.
        let started = try (0..<count).map { offset in
            try TickProcess.start(["done", "chores.md:\(firstItemLine + offset)", "--dir", notes.root.path, "--today", "2026-11-21"])
        }
        let results = started.map(TickProcess.finish)

        for (offset, result) in results.enumerated() {
            #expect(result.status == 0, "process \(offset): \(result.stderr)")
            #expect(result.stdout == "done chores.md:\(firstItemLine + offset)  Chore number \(offset + 1)\n")
        }
        var expected = "---\ntitle: Chores\n---\n\n# Chores\n\n"
        for number in 1...count { expected += "- [x] Chore number \(number) #home done:2026-11-21\n" }
        expected += "\nTrailing paragraph.\n"
        #expect(try notes.text("chores.md") == expected)
        // No temporary file is left behind.
        #expect(notes.allFiles() == ["chores.md"])
    }
}
