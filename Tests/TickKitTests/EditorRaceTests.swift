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
/// file and renaming it over the list, and it does not overwrite a file that
/// changed since it read it (it reads again and redoes its change). Each of
/// its saves appends one line, `- [ ] editor save K`, so a lost save shows
/// as a missing line. tick meanwhile marks items done one by one, retrying
/// on 75 as a user would; a lost tick write shows as an item left open.
@Suite(.serialized) struct EditorRaceTests {
    /// The editor. It compares and swaps atomically with
    /// renameat2(RENAME_EXCHANGE): the new file goes in, the file it
    /// replaced comes out beside it and is compared with what the editor
    /// read; if they differ, someone saved in between and the swap is
    /// undone. So the editor itself never loses a write, and any lost line
    /// is tick's doing.
    static let editor = #"""
    import ctypes, os, random, sys, time
    path, saves, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    random.seed(seed)
    libc = ctypes.CDLL(None, use_errno=True)
    AT_FDCWD, RENAME_EXCHANGE = -100, 2
    def exchange(a, b):
        if libc.renameat2(AT_FDCWD, a.encode(), AT_FDCWD, b.encode(), RENAME_EXCHANGE) != 0:
            raise OSError(ctypes.get_errno(), "renameat2")
    def read(p):
        with open(p, "rb") as f: return f.read()
    folder = os.path.dirname(path)
    temporary = os.path.join(folder, ".editor-save.tmp")
    retries = 0
    for k in range(saves):
        while True:
            data = read(path)
            time.sleep(random.uniform(0, 0.004))        # the user types
            new = data + b"- [ ] editor save %d\n" % k
            with open(temporary, "wb") as f:
                f.write(new); f.flush(); os.fsync(f.fileno())
            os.chmod(temporary, 0o644)
            exchange(temporary, path)
            replaced = read(temporary)
            if replaced == data:
                os.unlink(temporary)
                break
            # The file changed after the editor read it: put the newer file
            # back (it may have changed again meanwhile: keep swapping until
            # the editor's own file comes back out) and start over.
            while True:
                exchange(temporary, path)
                if read(temporary) == new: break
            os.unlink(temporary)
            retries += 1
        time.sleep(random.uniform(0, 0.003))
    print("editor: %d saves, %d redone after a change on disk" % (saves, retries))
    """#

    @Test func tickAndAnEditorSavingTheSameFileLoseNoWrite() throws {
        let items = SlowTests.rounds(40, slow: 300)
        let saves = SlowTests.rounds(60, slow: 500)
        var text = "# Race\n\n"
        for number in 1...items { text += "- [ ] Item \(number)\n" }
        let notes = try NotesFixture(["race.md": text, "editor.py": Self.editor])
        let seed = Int(Date().timeIntervalSince1970)

        let editor = Process()
        editor.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        editor.arguments = ["python3", notes.url("editor.py").path, notes.url("race.md").path, "\(saves)", "\(seed)"]
        let editorOutput = Pipe()
        editor.standardOutput = editorOutput
        try editor.run()

        var refusals = 0, done: [Int] = []
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
                    if attempts < 50 { continue }
                }
                if result.status == 0 { done.append(number) }
                break
            }
        }
        editor.waitUntilExit()
        let editorReport = String(decoding: editorOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(editor.terminationStatus == 0, "the editor failed: \(editorReport)")

        let final = try notes.text("race.md")
        let lines = Set(final.split(separator: "\n").map(String.init))
        for k in 0..<saves {
            #expect(lines.contains("- [ ] editor save \(k)"), "seed \(seed): editor save \(k) was lost")
        }
        for number in done {
            #expect(lines.contains("- [x] Item \(number) done:2026-11-21"), "seed \(seed): tick's done on item \(number) was lost")
        }
        #expect(done.count == items, "seed \(seed): items never done after 50 tries: \(items - done.count)")
        // Nothing but the two files (and the editor's script) is left.
        #expect(notes.allFiles() == ["editor.py", "race.md"])
        print("editor race (seed \(seed)): \(items) done commands, \(refusals) refused with 75 and retried; \(editorReport)")
    }
}
