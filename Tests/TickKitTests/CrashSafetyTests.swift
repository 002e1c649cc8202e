import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// SPEC §5.3: a crash leaves the old file or the new one. tick is killed
/// with SIGKILL at random moments while it edits a large list; after every
/// kill the file must be byte-identical to the version before the command or
/// to the version the same command writes when left alone: never torn,
/// never empty. The only other trace a kill may leave is tick's hidden
/// temporary file, which scans skip.
@Suite(.serialized) struct CrashSafetyTests {
    /// A list large enough (about 300 KB) that writing it takes a while.
    static func bigList() -> String {
        var text = "---\ntitle: Big\n---\n\n# Big\n\n"
        for number in 1...5_000 { text += "- [ ] Item number \(number) with a few words of text #tag\(number % 7)\n" }
        return text
    }

    /// The commands the test kills, each with the line it names: one of the
    /// `itemCount` items of the file as it is now (they start at line 7;
    /// earlier rounds added and removed some).
    static func command(_ random: inout SeededGenerator, round: Int, itemCount: Int) -> [String] {
        let line = 7 + Int.random(in: 0..<itemCount, using: &random)
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return ["done", "big.md:\(line)"]
        case 1: return ["reopen", "big.md:\(line)"]
        case 2: return ["edit", "big.md:\(line)", "--title", "Renamed in round \(round)", "--due", "2026-12-0\(1 + round % 9)"]
        case 3: return ["add", "big.md", "Added in round \(round)"]
        default: return ["rm", "big.md:\(line)"]
        }
    }

    @Test func killedAtRandomMomentsTheFileIsAlwaysTheOldOrTheNewVersion() throws {
        let rounds = SlowTests.rounds(12, slow: 100)
        let seed = UInt64(Date().timeIntervalSince1970)
        var random = SeededGenerator(seed: seed)
        let notes = try NotesFixture(["big.md": Self.bigList()])
        let reference = try NotesFixture()
        var outcomes = ["old": 0, "new": 0]
        for round in 0..<rounds {
            let before = try notes.bytes("big.md")
            let itemCount = String(decoding: before, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("- [") }.count
            let arguments = Self.command(&random, round: round, itemCount: itemCount)
            // The version the command writes when it is left alone.
            try reference.write("big.md", before)
            let started = Date()
            let finished = try TickProcess.run(arguments + ["--dir", reference.root.path, "--today", "2026-11-21"])
            let duration = Date().timeIntervalSince(started)
            #expect(finished.status == 0, "seed \(seed) round \(round) \(arguments): \(finished.stderr)")
            let after = try reference.bytes("big.md")

            // The same command, killed at a random moment between a third of
            // its run (reading and parsing come first) and a little after it
            // would have ended.
            let process = try TickProcess.start(arguments + ["--dir", notes.root.path, "--today", "2026-11-21"])
            usleep(UInt32(Double.random(in: (duration * 0.3)...(duration * 1.1), using: &random) * 1_000_000))
            kill(process.0.processIdentifier, SIGKILL)
            _ = TickProcess.finish(process)

            let now = try notes.bytes("big.md")
            #expect(!now.isEmpty, "seed \(seed) round \(round) \(arguments): the file is empty")
            #expect(
                now == before || now == after,
                "seed \(seed) round \(round) \(arguments): the file is neither the old version (\(before.count) bytes) nor the new one (\(after.count) bytes) but \(now.count) bytes"
            )
            outcomes[now == after && now != before ? "new" : "old", default: 0] += 1
            // Nothing else was written: at most the hidden temporary file of
            // the killed process, which is removed here.
            for name in notes.allFiles() where name != "big.md" {
                #expect(name.hasPrefix(".big.md.tick-"), "seed \(seed) round \(round): unexpected file \(name)")
                try? FileManager.default.removeItem(at: notes.url(name))
            }
            if now != before && now != after { break }
        }
        print("crash safety: \(rounds) kills (seed \(seed)): \(outcomes["old"]!) left the old version, \(outcomes["new"]!) the new one")
    }

    /// `mv` to another list writes two files: the destination is renamed
    /// first, so a kill between the renames may leave the item in both
    /// lists, never in neither (docs/EDITING.md).
    @Test func killedDuringAMoveBetweenTwoFilesTheItemIsNeverLost() throws {
        let rounds = SlowTests.rounds(8, slow: 50)
        let seed = UInt64(Date().timeIntervalSince1970)
        var random = SeededGenerator(seed: seed)
        let notes = try NotesFixture(["big.md": Self.bigList(), "other.md": "# Other\n\n- [ ] Already here\n"])
        let reference = try NotesFixture()
        for round in 0..<rounds {
            let source = try notes.bytes("big.md")
            let destination = try notes.bytes("other.md")
            let line = 7 + Int.random(in: 0..<(5_000 - rounds), using: &random)
            let arguments = ["mv", "big.md:\(line)", "other.md"]
            try reference.write("big.md", source)
            try reference.write("other.md", destination)
            let started = Date()
            let finished = try TickProcess.run(arguments + ["--dir", reference.root.path])
            let duration = Date().timeIntervalSince(started)
            #expect(finished.status == 0, "round \(round): \(finished.stderr)")
            let newSource = try reference.bytes("big.md")
            let newDestination = try reference.bytes("other.md")

            let process = try TickProcess.start(arguments + ["--dir", notes.root.path])
            usleep(UInt32(Double.random(in: (duration * 0.3)...(duration * 1.1), using: &random) * 1_000_000))
            kill(process.0.processIdentifier, SIGKILL)
            _ = TickProcess.finish(process)

            let nowSource = try notes.bytes("big.md")
            let nowDestination = try notes.bytes("other.md")
            let context = "seed \(seed) round \(round) \(arguments)"
            #expect(nowSource == source || nowSource == newSource, "\(context): big.md is torn (\(nowSource.count) bytes)")
            #expect(nowDestination == destination || nowDestination == newDestination, "\(context): other.md is torn")
            // Never in neither list.
            #expect(!(nowSource == newSource && nowDestination == destination), "\(context): the item was lost")
            for name in notes.allFiles() where name != "big.md" && name != "other.md" {
                #expect(name.hasPrefix(".big.md.tick-") || name.hasPrefix(".other.md.tick-"), "\(context): unexpected file \(name)")
                try? FileManager.default.removeItem(at: notes.url(name))
            }
            // Leave the folder consistent for the next round: a kill between
            // the renames left the item in both lists; finish the move by hand.
            if nowDestination == newDestination && nowSource == source { try notes.write("big.md", newSource) }
        }
    }
}
