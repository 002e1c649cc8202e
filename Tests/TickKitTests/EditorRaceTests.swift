import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// SPEC §5.4: an outside writer (a script standing in for an editor saving
/// the file) races tick's edits. tick either applies its change to the newest
/// content or refuses with exit 75; no write is lost, neither the editor's
/// nor tick's.
///
/// The editor is careful, as real editors are: it saves by writing a new
/// file and putting it in place of the list, and it does not overwrite a
/// file that changed since it read it (it reads again and redoes its change). Each of
/// its saves appends one line, `- [ ] editor save K`, so a lost save shows
/// as a missing line. tick meanwhile marks items done one by one, retrying
/// on 75 as a user would; a lost tick write shows as an item left open.
@Suite(.serialized) struct EditorRaceTests {
    /// The editor: a careful one, as most editors are. It saves by writing
    /// a new file and putting it in place of the list; just before, it reads
    /// the file again, and if it changed since the editor read it, the editor
    /// reloads and redoes its change instead of saving. It puts its file in
    /// place as tick does, with an atomic exchange (renameat2
    /// RENAME_EXCHANGE) that shows what it replaced: if that is not what it
    /// read (tick wrote in the instant between), it swaps back and redoes
    /// its change. So the editor never loses tick's write, and a missing
    /// editor line can only be tick's doing. It saves about once per tick
    /// command, whatever the speed of the build (`pace` is how long one
    /// tick command took alone), and stops when the `stop` file appears (or
    /// after two minutes).
    static let editor = #"""
        import ctypes, os, random, sys, time
        path, stop, seed, pace = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
        random.seed(seed)
        libc = ctypes.CDLL(None, use_errno=True)
        def exchange(a, b):
            if libc.renameat2(-100, a.encode(), -100, b.encode(), 2) != 0:   # AT_FDCWD, RENAME_EXCHANGE
                raise OSError(ctypes.get_errno(), "renameat2")
        def read(p):
            with open(p, "rb") as f: return f.read()
        temporary = os.path.join(os.path.dirname(path), ".editor-save.tmp")
        saves = reloads = 0
        deadline = time.time() + 120
        while not os.path.exists(stop) and time.time() < deadline:
            data = read(path)
            time.sleep(random.uniform(0, pace))         # the user types
            new = data + b"- [ ] editor save %d\n" % saves
            with open(temporary, "wb") as f:
                f.write(new); f.flush(); os.fsync(f.fileno())
            if read(path) != data:                      # changed on disk: reload
                os.unlink(temporary)
                reloads += 1
                continue
            exchange(temporary, path)
            if read(temporary) != data:                 # tick wrote just now: put it back
                exchange(temporary, path)
                os.unlink(temporary)
                reloads += 1
                continue
            os.unlink(temporary)
            saves += 1
            time.sleep(random.uniform(0, 2 * pace))
        print("%d %d" % (saves, reloads))
        """#

    @Test func tickAndAnEditorSavingTheSameFileLoseNoWrite() throws {
        let items = SlowTests.rounds(40, slow: 300)
        var text = "# Race\n\n"
        for number in 1...items { text += "- [ ] Item \(number)\n" }
        let notes = try NotesFixture(["race.md": text, "editor.py": Self.editor])
        let seed = Int(Date().timeIntervalSince1970)

        // How long one tick command takes here (a sanitizer build is many
        // times slower): the editor's pace, so that they keep meeting.
        let started = Date()
        _ = try TickProcess.run(["all", "--dir", notes.root.path, "--today", "2026-11-21"])
        let pace = max(Date().timeIntervalSince(started), 0.005)

        let editor = Process()
        editor.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        editor.arguments = ["python3", notes.url("editor.py").path, notes.url("race.md").path, notes.url("stop").path, "\(seed)", "\(pace)"]
        let editorOutput = Pipe()
        editor.standardOutput = editorOutput
        try editor.run()
        // Race once the editor is running (its first save is in the file): on
        // a busy machine Python can take longer to start than tick takes for
        // every item, and the test saw no save at all.
        let startBy = Date().addingTimeInterval(60)
        while Date() < startBy, !((try? notes.text("race.md")) ?? "").contains("editor save 0") {
            Thread.sleep(forTimeInterval: 0.01)
        }

        var refusals = 0
        var done: [Int] = []
        for number in 1...items {
            // Items keep their lines: the editor only appends.
            let line = 2 + number
            var attempts = 0
            while true {
                attempts += 1
                let result = try TickProcess.run(["done", "race.md:\(line)", "--dir", notes.root.path, "--today", "2026-11-21"])
                #expect(result.status == 0 || result.status == 75, "item \(number): exit \(result.status): \(result.stderr)")
                if result.status == 75 {
                    #expect(result.stderr.contains("changed on disk"))
                    refusals += 1
                    if attempts < 30 { continue }
                }
                if result.status == 0 { done.append(number) }
                break
            }
        }
        try Data().write(to: notes.url("stop"))
        let editorReport = String(decoding: editorOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        editor.waitUntilExit()
        #expect(editor.terminationStatus == 0, "the editor failed: \(editorReport)")
        let numbers = editorReport.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        let saves = numbers.first ?? 0
        #expect(saves > 0, "the editor saved nothing")

        let final = try notes.text("race.md")
        let lines = Set(final.split(separator: "\n").map(String.init))
        for k in 0..<saves {
            #expect(lines.contains("- [ ] editor save \(k)"), "seed \(seed): editor save \(k) was lost")
        }
        for number in done {
            #expect(lines.contains("- [x] Item \(number) done:2026-11-21"), "seed \(seed): tick's done on item \(number) was lost")
        }
        // tick got its turn (an editor that saves without pause could starve it,
        // which is not a lost write: each refusal said so with 75).
        #expect(done.count > 0, "seed \(seed): tick never got to write")
        // Nothing but the two files (and the editor's script) is left.
        #expect(notes.allFiles() == ["editor.py", "race.md", "stop"])
        print(
            "editor race (seed \(seed)): \(items) done commands, \(refusals) refused with 75 and retried; the editor saved \(saves) times and redid \(numbers.dropFirst().first ?? 0) saves after a change on disk"
        )
    }
}
