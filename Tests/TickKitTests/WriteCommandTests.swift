import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The change commands as a user runs them: output, exit codes (SPEC §7),
/// and files left byte-identical whenever a command refuses.
@Suite struct WriteCommandTests {
    static let list = """
        # Groceries

        ## Dairy
        - [ ] Buy milk !high due:2026-11-24 #errand
        - [ ] Buy milk powder
        - [x] Eggs done:2026-11-20

        """

    @Test func doneMarksTheItemAndPrintsIt() throws {
        let notes = try NotesFixture(["groceries.md": Self.list])
        let result = try notes.tick("done", "groceries.md:4")
        #expect(result.status == 0)
        #expect(result.stdout == "done groceries.md:4  Buy milk\n")
        #expect(result.stderr == "")
        #expect(
            try notes.text("groceries.md")
                == Self.list.replacingOccurrences(
                    of: "- [ ] Buy milk !high due:2026-11-24 #errand", with: "- [x] Buy milk !high due:2026-11-24 #errand done:2026-11-21"))
    }

    @Test func reopeningARecurringFirstItemAfterAByteOrderMarkGivesTheFileBackByteForByte() throws {
        let original = Array("\u{FEFF}- [ ] Water plants due:2026-11-20 every:week\r\n- [ ] Milk\r\n".utf8)
        let notes = try NotesFixture(["list.md": original])
        #expect(try notes.tick("done", "Water plants").status == 0)
        let reopened = try notes.tick("reopen", "list.md:2")
        #expect(reopened.status == 0)
        #expect(reopened.stdout.contains("removed its next occurrence") && !reopened.stdout.contains("\u{FEFF}"))
        #expect(try notes.bytes("list.md") == original)
    }

    @Test func dryRunPrintsTheDiffThatDiffWouldAndWritesNothing() throws {
        let notes = try NotesFixture(["groceries.md": Self.list])
        let before = try notes.bytes("groceries.md")
        let result = try notes.tick("edit", "Eggs", "--title", "Free-range eggs", "--dry-run")
        #expect(result.status == 0)
        #expect(try notes.bytes("groceries.md") == before)
        #expect(notes.allFiles() == ["groceries.md"])
        let expected = """
            --- groceries.md
            +++ groceries.md
            @@ -3,4 +3,4 @@
             ## Dairy
             - [ ] Buy milk !high due:2026-11-24 #errand
             - [ ] Buy milk powder
            -- [x] Eggs done:2026-11-20
            +- [x] Free-range eggs done:2026-11-20

            """
        #expect(result.stdout == expected)
        // The same hunks as `diff -u` prints for the real change.
        let changed = notes.url("changed.txt")
        try Data(Self.list.replacingOccurrences(of: "Eggs", with: "Free-range eggs").utf8).write(to: changed)
        let diff = Process()
        diff.executableURL = URL(fileURLWithPath: "/usr/bin/diff")
        diff.arguments = ["-u", notes.url("groceries.md").path, changed.path]
        let pipe = Pipe()
        diff.standardOutput = pipe
        try diff.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        diff.waitUntilExit()
        #expect(output.split(separator: "\n").dropFirst(2) == result.stdout.split(separator: "\n").dropFirst(2))
    }

    @Test func optionsMayFollowTheSubcommandAndItsArguments() throws {
        let notes = try NotesFixture(["groceries.md": Self.list])
        let result = try TickProcess.run(["done", "groceries.md:5", "--dry-run", "--dir", notes.root.path, "--no-date"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("+- [x] Buy milk powder\n"))
    }

    @Test func ambiguousItemExits65ListsTheCandidatesAndChangesNothing() throws {
        let notes = try NotesFixture(["groceries.md": Self.list])
        let before = try notes.bytes("groceries.md")
        let result = try notes.tick("done", "buy milk p", "milk")
        #expect(result.status == 65)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("groceries.md:4"))
        #expect(result.stderr.contains("groceries.md:5"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try notes.bytes("groceries.md") == before)
        #expect(notes.allFiles() == ["groceries.md"])
    }

    @Test func unknownItemExits65() throws {
        let notes = try NotesFixture(["groceries.md": Self.list])
        let result = try notes.tick("rm", "groceries.md:2")
        #expect(result.status == 65)
        #expect(try notes.text("groceries.md") == Self.list)
    }

    @Test func fileThatIsNotUTF8IsNeverRewritten() throws {
        var bytes = Array("- [ ] Caf".utf8) + [0xE9] + Array(" latin-1 title\n- [ ] Other\n".utf8)
        let notes = try NotesFixture(["latin.md": bytes])
        for arguments in [["done", "latin.md:2"], ["add", "latin.md", "New"], ["sort", "latin.md", "--by", "title", "--write"]] {
            let result = try TickProcess.run(arguments + ["--dir", notes.root.path])
            #expect(result.status == 65, "\(arguments)")
            #expect(result.stderr.contains("not valid UTF-8"))
            #expect(try notes.bytes("latin.md") == bytes)
        }
        bytes = try notes.bytes("latin.md")
        #expect(notes.allFiles() == ["latin.md"])
    }

    @Test func badDateIsAUsageErrorAndChangesNothing() throws {
        let notes = try NotesFixture(["groceries.md": Self.list])
        let edit = try notes.tick("edit", "groceries.md:4", "--due", "someday")
        #expect(edit.status == 64)
        #expect(edit.stderr.contains("not a date"))
        let add = try notes.tick("add", "groceries", "Bread due:2026-02-30")
        #expect(add.status == 64)
        #expect(try notes.text("groceries.md") == Self.list)
    }

    // ThreadSanitizer's runtime itself dies of SIGBUS under `ulimit -f 0`
    // (`make sanitize-thread` sets TICK_SANITIZER=thread); the test runs
    // everywhere else, AddressSanitizer included.
    @Test(
        .disabled(
            if: ProcessInfo.processInfo.environment["TICK_SANITIZER"] == "thread",
            "ThreadSanitizer's runtime cannot run under a file size limit of 0"))
    func unwritableFileExits73AndLeavesItUntouched() throws {
        let notes = try NotesFixture(["groceries.md": Self.list])
        // A file size limit of 0 makes writing the temporary file fail, even for root.
        let result = try notes.tick("done", "groceries.md:4", shellPrefix: "ulimit -f 0")
        #expect(result.status == 73)
        #expect(result.stderr.hasPrefix("tick: cannot write groceries.md"))
        #expect(try notes.text("groceries.md") == Self.list)
        #expect(notes.allFiles() == ["groceries.md"])
    }

    @Test func unwritableFolderExits73() throws {
        let notes = try NotesFixture(["groceries.md": Self.list])
        chmod(notes.url("groceries.md").path, 0o666) // the folder, not the file, is what stops tick
        chmod(notes.root.path, 0o555)
        defer { chmod(notes.root.path, 0o755) }
        // Root may write into any folder: run tick with nobody's rights then.
        let wrapper = geteuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let result = try TickProcess.run(["done", "groceries.md:4", "--dir", notes.root.path], wrapper: wrapper)
        #expect(result.status == 73)
        #expect(result.stderr.contains("cannot write groceries.md"))
        #expect(try notes.text("groceries.md") == Self.list)
        #expect(notes.allFiles() == ["groceries.md"])
    }

    @Test func fileChangedBetweenReadAndWriteExits75AndKeepsTheOtherEdit() throws {
        let notes = try NotesFixture(["groceries.md": Self.list])
        let fifo = notes.root.path + "/.signal"
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = try TickProcess.start(
            ["done", "groceries.md:4", "--dir", notes.root.path],
            environment: ["TICK_TEST_WAIT_BEFORE_COMMIT": fifo])
        // Wait until tick has read the file and waits at the FIFO.
        var descriptor: Int32 = -1
        for _ in 0..<6000 where descriptor < 0 {
            descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
            if descriptor < 0 {
                if !started.0.isRunning { break }
                usleep(5000)
            }
        }
        #expect(descriptor >= 0, "tick never reached the commit")
        let editorVersion = Self.list.replacingOccurrences(of: "Eggs", with: "Eggs, a dozen")
        try Data(editorVersion.utf8).write(to: notes.url("groceries.md"))
        if descriptor >= 0 { close(descriptor) }
        let result = TickProcess.finish(started)
        #expect(result.status == 75)
        #expect(result.stderr.contains("changed on disk"))
        #expect(try notes.text("groceries.md") == editorVersion)
        #expect(notes.allFiles() == [".signal", "groceries.md"])
    }

    @Test func newRefusesPathsOutsideTheRoot() throws {
        let notes = try NotesFixture(["inside/groceries.md": Self.list])
        let root = notes.url("inside").path
        for name in ["../x", "../../tmp/x", "/tmp/x", "a/../../x"] {
            let result = try TickProcess.run(["new", name, "--dir", root])
            #expect(result.status == 65, "\(name)")
            #expect(result.stderr.contains("outside the notes folder"))
        }
        #expect(notes.allFiles() == ["inside", "inside/groceries.md"])
        let listOutside = try TickProcess.run(["add", "../elsewhere.md", "x", "--dir", root])
        #expect(listOutside.status == 65)
    }

    @Test func newCreatesAListAndNeverReplacesOne() throws {
        let notes = try NotesFixture(["groceries.md": Self.list])
        let result = try notes.tick("new", "Trip/Packing", "--color", "teal", "--icon", "suitcase")
        #expect(result.status == 0)
        #expect(try notes.text("Trip/Packing.md") == "---\ntitle: Packing\ncolor: teal\nicon: suitcase\n---\n\n# Packing\n")
        let again = try notes.tick("new", "Trip/Packing")
        #expect(again.status == 65)
        #expect(try notes.text("Trip/Packing.md").contains("teal"))
        let badColor = try notes.tick("new", "Other", "--color", "plaid")
        #expect(badColor.status == 64)
    }

    @Test func editThroughASymlinkChangesTheTargetAndKeepsTheLink() throws {
        let notes = try NotesFixture(["real/groceries.md": Self.list])
        try FileManager.default.createSymbolicLink(atPath: notes.url("link.md").path, withDestinationPath: "real/groceries.md")
        chmod(notes.url("real/groceries.md").path, 0o640)
        let result = try notes.tick("done", "link.md:5")
        #expect(result.status == 0)
        let destination = try FileManager.default.destinationOfSymbolicLink(atPath: notes.url("link.md").path)
        #expect(destination == "real/groceries.md")
        #expect(try notes.text("real/groceries.md").contains("- [x] Buy milk powder done:2026-11-21\n"))
        var status = stat()
        stat(notes.url("real/groceries.md").path, &status)
        #expect(status.st_mode & 0o777 == 0o640)
        #expect(notes.allFiles() == ["link.md", "real", "real/groceries.md"])
    }

    @Test func addPrintsTheNewItemsAddress() throws {
        let notes = try NotesFixture(["groceries.md": Self.list])
        let result = try notes.tick("add", "groceries", "Butter", "due:tomorrow", "--priority", "low", "--section", "dairy")
        #expect(result.status == 0)
        #expect(result.stdout == "added groceries.md:7  Butter\n")
        #expect(try notes.text("groceries.md").hasSuffix("- [x] Eggs done:2026-11-20\n- [ ] Butter due:2026-11-22 !low\n"))
    }

    @Test func moveAcrossListsWritesBothFiles() throws {
        let notes = try NotesFixture(["groceries.md": Self.list, "home.md": "# Home\n\n- [ ] Fix the tap 📅 2026-11-19\n"])
        let result = try notes.tick("mv", "milk powder", "home")
        #expect(result.status == 0)
        #expect(try notes.text("home.md") == "# Home\n\n- [ ] Fix the tap 📅 2026-11-19\n- [ ] Buy milk powder\n")
        #expect(try notes.text("groceries.md") == Self.list.replacingOccurrences(of: "- [ ] Buy milk powder\n", with: ""))
    }

    @Test func archiveToAnotherFileCreatesIt() throws {
        let notes = try NotesFixture(["groceries.md": Self.list])
        let result = try notes.tick("archive", "groceries", "--to", "archive/2026.md")
        #expect(result.status == 0)
        #expect(try notes.text("archive/2026.md") == "# 2026\n\n- [x] Eggs done:2026-11-20\n")
        #expect(!(try notes.text("groceries.md")).contains("Eggs"))
    }

    @Test func recurringDoneInsertsTheNextOccurrence() throws {
        let notes = try NotesFixture(["rent.md": "- [ ] Pay the rent every:month due:2026-01-31\n"])
        let result = try notes.tick("done", "rent")
        #expect(result.status == 0)
        #expect(
            try notes.text("rent.md")
                == "- [ ] Pay the rent every:month due:2026-02-28\n- [x] Pay the rent every:month due:2026-01-31 done:2026-11-21\n")
    }
}
