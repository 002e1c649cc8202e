import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 13's holes in the write path: races between resolving a name and
/// writing the file (driven through tick's FIFO test seams, so that they
/// happen every time), special files, and the protections of the file
/// that is replaced.
@Suite struct WritePathHardeningTests {
    /// Starts tick with the test seam `variable` naming a FIFO, waits until
    /// tick is paused there, runs `meanwhile`, lets tick go on and returns
    /// how it ended.
    static func runPaused(
        _ arguments: [String], at variable: String, in notes: NotesFixture, dir: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation,
        meanwhile: @escaping () throws -> Void
    ) throws -> TickProcess.Result {
        try runPaused(arguments, at: [(variable, meanwhile)], in: notes, dir: dir, sourceLocation: sourceLocation)
    }

    /// Starts tick with each seam of `steps` naming a FIFO of its own and,
    /// for each in turn, waits until tick is paused there, runs its action
    /// and lets tick go on. When tick ends before a seam, the rest are
    /// skipped (`expectAll` says whether that is a failure).
    static func runPaused(
        _ arguments: [String], at steps: [(String, () throws -> Void)], in notes: NotesFixture, dir: String? = nil,
        expectAll: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> TickProcess.Result {
        var environment: [String: String] = [:]
        var fifos: [String] = []
        for (variable, _) in steps {
            let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("tick-seam-\(UUID().uuidString)").path
            #expect(mkfifo(fifo, 0o600) == 0, sourceLocation: sourceLocation)
            environment[variable] = fifo
            fifos.append(fifo)
        }
        defer { for fifo in fifos { unlink(fifo) } }
        let started = try TickProcess.start(
            arguments + ["--dir", dir ?? notes.root.path, "--today", "2026-11-21"],
            environment: environment)
        for (fifo, (variable, action)) in zip(fifos, steps) {
            var descriptor: Int32 = -1
            for _ in 0..<6000 where descriptor < 0 {
                descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
                if descriptor < 0 {
                    if !started.0.isRunning { break }
                    usleep(5000)
                }
            }
            if descriptor < 0 {
                if expectAll { Issue.record("tick never reached the seam \(variable)", sourceLocation: sourceLocation) }
                break
            }
            try action()
            close(descriptor)
        }
        return TickProcess.finish(started)
    }

    /// Points the symbolic link at `path` to `target`, in one rename.
    static func swapLink(_ path: String, to target: String) {
        let temporary = path + ".swap"
        unlink(temporary)
        #expect(symlink(target, temporary) == 0)
        #expect(rename(temporary, path) == 0)
    }

    // MARK: 13.1 writing outside the notes folder

    @Test func aFileLinkSwappedToOutsideBeforeTheEditIsNeverWritten() throws {
        let notes = try NotesFixture(["r/real.md": "- [ ] inside\n", "outside/o.md": "- [ ] outside\n"])
        #expect(symlink("real.md", notes.url("r/a.md").path) == 0)
        // The link flips out before the file is opened, back in while the
        // item is looked up under the lock, and out again before the rename.
        let link = notes.url("r/a.md").path
        let outside = notes.url("outside/o.md").path
        let result = try Self.runPaused(
            ["done", "a.md:1"],
            at: [
                ("TICK_TEST_WAIT_BEFORE_OPEN", { Self.swapLink(link, to: outside) }),
                ("TICK_TEST_WAIT_AFTER_LOCK", { Self.swapLink(link, to: "real.md") }),
                ("TICK_TEST_WAIT_BEFORE_COMMIT", { Self.swapLink(link, to: outside) }),
            ], in: notes, dir: notes.url("r").path, expectAll: false)
        #expect([65, 75].contains(result.status), "exit \(result.status): \(result.stderr)")
        #expect(result.stderr.hasPrefix("tick: ") && result.stderr.contains("a.md"))
        #expect(try notes.text("outside/o.md") == "- [ ] outside\n")
        #expect(try notes.text("r/real.md") == "- [ ] inside\n")
    }

    @Test func aFolderLinkSwappedToOutsideBeforeATitleEditIsNeverWritten() throws {
        let notes = try NotesFixture(["r/.real/list.md": "- [ ] pay rent\n", "outside/list.md": "- [ ] pay rent\n"])
        #expect(symlink(".real", notes.url("r/sub").path) == 0)
        let result = try Self.runPaused(["done", "pay rent"], at: "TICK_TEST_WAIT_BEFORE_OPEN", in: notes, dir: notes.url("r").path) {
            Self.swapLink(notes.url("r/sub").path, to: notes.url("outside").path)
        }
        #expect([65, 75].contains(result.status), "exit \(result.status): \(result.stderr)")
        #expect(try notes.text("outside/list.md") == "- [ ] pay rent\n")
        #expect(try notes.text("r/.real/list.md") == "- [ ] pay rent\n")
    }

    @Test func aFolderLinkSwappedToOutsideBeforeANewFileIsMadeLeavesTheOutsideAlone() throws {
        let notes = try NotesFixture(["r/list.md": "- [x] paid\n- [ ] open\n", "r/.real/keep.txt": "", "outside/keep.txt": ""])
        #expect(symlink(".real", notes.url("r/sub").path) == 0)
        let result = try Self.runPaused(
            ["archive", "list.md", "--to", "sub/new.md"], at: "TICK_TEST_WAIT_BEFORE_CREATE", in: notes,
            dir: notes.url("r").path
        ) {
            Self.swapLink(notes.url("r/sub").path, to: notes.url("outside").path)
        }
        #expect([65, 75].contains(result.status), "exit \(result.status): \(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: notes.url("outside").path) == ["keep.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: notes.url("r/.real").path) == ["keep.txt"])
        #expect(try notes.text("r/list.md") == "- [x] paid\n- [ ] open\n")
    }

    @Test func aLinkInsideTheFolderToAListInsideItIsStillEdited() throws {
        let notes = try NotesFixture(["real.md": "- [ ] inside\n"])
        #expect(symlink("real.md", notes.url("a.md").path) == 0)
        let result = try notes.tick("done", "a.md:1")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try notes.text("real.md") == "- [x] inside done:2026-11-21\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: notes.url("a.md").path)) == "real.md")
    }

    // MARK: 13.4 PATH:LINE under the lock

    static let recurring = "- [ ] water plants every:day due:2026-11-21\n- [ ] pay rent every:month due:2026-11-21\n"

    @Test func pathLineWhoseItemMovedBeforeTheLockExits75AndWritesNothing() throws {
        let notes = try NotesFixture(["list.md": Self.recurring])
        var between = ""
        let result = try Self.runPaused(["done", "list.md:2"], at: "TICK_TEST_WAIT_BEFORE_OPEN", in: notes) {
            // Another tick finishes the first item: its next occurrence goes above it.
            let other = try notes.tick("done", "list.md:1")
            #expect(other.status == 0, "\(other.stderr)")
            between = try notes.text("list.md")
        }
        #expect(between.components(separatedBy: "\n").count == 4)
        #expect(result.status == 75, "exit \(result.status): \(result.stderr)")
        #expect(result.stderr.hasPrefix("tick: list.md:2 no longer names the same item"))
        #expect(try notes.text("list.md") == between)
    }

    @Test func pathLineWhoseFileChangedBelowTheItemIsStillEdited() throws {
        let notes = try NotesFixture(["list.md": Self.recurring])
        let result = try Self.runPaused(["done", "list.md:1", "--no-date"], at: "TICK_TEST_WAIT_BEFORE_OPEN", in: notes) {
            let added = try notes.tick("add", "list.md", "new one")
            #expect(added.status == 0)
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try notes.text("list.md").hasPrefix("- [ ] water plants every:day due:2026-11-22\n- [x] water plants"))
    }

    // MARK: 13.10 special files

    /// Runs tick (in `directory`), killing it after `seconds`: nil when it had to be killed.
    static func runWithin(_ seconds: Double, _ arguments: [String], in notes: NotesFixture) throws -> TickProcess.Result? {
        let started = try TickProcess.start(arguments + ["--dir", notes.root.path, "--today", "2026-11-21"])
        let deadline = Date().addingTimeInterval(seconds)
        while started.0.isRunning && Date() < deadline { usleep(10_000) }
        if started.0.isRunning {
            kill(started.0.processIdentifier, SIGKILL)
            _ = TickProcess.finish(started)
            return nil
        }
        return TickProcess.finish(started)
    }

    static let fifoCommands: [[String]] = [
        ["done", "x.md:1"], ["show", "x.md"], ["add", "x.md", "milk"], ["mv", "list.md:1", "x.md"],
        ["archive", "list.md", "--to", "x.md"], ["sort", "x.md", "--by", "title", "--write"], ["sort", "x.md", "--by", "title"], ["check", "x.md"],
        ["done", "x.md:1", "--dry-run"], ["add", "x.md", "milk", "--dry-run"],
    ]

    @Test(arguments: fifoCommands)
    func aFIFONamedLikeAListIsRefusedWithoutBlocking(_ command: [String]) throws {
        let notes = try NotesFixture(["list.md": "- [x] one\n"])
        #expect(mkfifo(notes.url("x.md").path, 0o644) == 0)
        // `check` takes paths as the user typed them: give it the FIFO's full path.
        let arguments = command.first == "check" ? ["check", notes.url("x.md").path] : command
        guard let result = try Self.runWithin(20, arguments, in: notes) else {
            Issue.record("tick \(command) still ran after 20 s: it blocked on the FIFO")
            return
        }
        #expect(result.status == 66, "tick \(command): exit \(result.status): \(result.stderr)")
        #expect(result.stderr.contains("x.md") && result.stderr.contains("not a regular file"), "\(result.stderr)")
        #expect(try notes.text("list.md") == "- [x] one\n")
    }

    @Test(arguments: [["show", "zero.md"], ["check", "zero.md"], ["done", "zero.md:1"], ["add", "zero.md", "milk"]])
    func aLinkToADeviceIsRefusedWithoutReadingIt(_ command: [String]) throws {
        let notes = try NotesFixture(["list.md": "- [x] one\n"])
        #expect(symlink("/dev/zero", notes.url("zero.md").path) == 0)
        let arguments = command.first == "check" ? ["check", notes.url("zero.md").path] : command
        guard let result = try Self.runWithin(20, arguments, in: notes) else {
            Issue.record("tick \(command) still ran after 20 s: it read /dev/zero")
            return
        }
        #expect([65, 66].contains(result.status), "tick \(command): exit \(result.status): \(result.stderr)")
        #expect(result.stderr.hasPrefix("tick: ") && result.stderr.contains("zero.md"), "\(result.stderr)")
    }

    // MARK: 13.14 what the replace keeps

    static let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    static func mode(_ path: String) -> stat {
        var status = stat()
        stat(path, &status)
        return status
    }

    @Test func aReadOnlyListIsRefusedWith73() throws {
        let notes = try NotesFixture(["list.md": "- [ ] one\n"])
        chmod(notes.url("list.md").path, 0o444)
        try HostileFolderTests.expectRefusal(notes, ["done", "list.md:1"], code: 73)
        let result = try notes.tick("done", "list.md:1")
        #expect(result.stderr.contains("list.md is read-only"), "\(result.stderr)")
        #expect(Self.mode(notes.url("list.md").path).st_mode & 0o777 == 0o444)
    }

    @Test func aListTheUserMayNotWriteIsRefusedEvenInAFolderTheyMayWrite() throws {
        guard geteuid() == 0 else { return } // needs another user: runs as root in CI
        let notes = try NotesFixture(["list.md": "- [ ] one\n"])
        chmod(notes.root.path, 0o777)
        chmod(notes.url("list.md").path, 0o644)
        try HostileFolderTests.expectRefusal(notes, ["done", "list.md:1"], code: 73, wrapper: Self.nobody)
        #expect(Self.mode(notes.url("list.md").path).st_uid == 0)
    }

    @Test func aListWithAnotherHardLinkIsRefusedWith73() throws {
        let notes = try NotesFixture(["list.md": "- [ ] one\n"])
        #expect(link(notes.url("list.md").path, notes.url("other.md").path) == 0)
        try HostileFolderTests.expectRefusal(notes, ["done", "list.md:1"], code: 73)
        let result = try notes.tick("done", "list.md:1")
        #expect(result.stderr.contains("hard links"), "\(result.stderr)")
        #expect(try notes.text("other.md") == "- [ ] one\n")
    }

    @Test func theOwnerAndExtendedAttributesOfAListAreKept() throws {
        let notes = try NotesFixture(["list.md": "- [ ] one\n"])
        let path = notes.url("list.md").path
        let set = try PythonICalendar.run(["python3", "-c", "import os, sys; os.setxattr(sys.argv[1], 'user.tag', b'red')", path], input: nil)
        guard set.status == 0 else { return } // a file system without user attributes
        if geteuid() == 0 { chown(path, 65534, 65534) }
        let result = try notes.tick("done", "list.md:1")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try notes.text("list.md") == "- [x] one done:2026-11-21\n")
        let get = try PythonICalendar.run(
            ["python3", "-c", "import os, sys; print(os.getxattr(sys.argv[1], 'user.tag').decode())", path], input: nil)
        #expect(String(decoding: get.output, as: UTF8.self) == "red\n")
        if geteuid() == 0 {
            #expect(Self.mode(path).st_uid == 65534 && Self.mode(path).st_gid == 65534)
        }
    }

    @Test func aChmodMadeDuringTheEditIsKept() throws {
        let notes = try NotesFixture(["list.md": "- [ ] one\n"])
        let path = notes.url("list.md").path
        chmod(path, 0o644)
        let result = try Self.runPaused(["done", "list.md:1"], at: "TICK_TEST_WAIT_AFTER_LOCK", in: notes) {
            chmod(path, 0o600)
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try notes.text("list.md") == "- [x] one done:2026-11-21\n")
        #expect(Self.mode(path).st_mode & 0o777 == 0o600)
    }

    // MARK: 13.16 errors

    /// Runs tick as nobody when the tests run as root (root reads every file).
    static let asSomeoneElse: [String] = geteuid() == 0 ? nobody : []

    @Test func checkFindsAPathInTheNotesFolderFromAnyCurrentFolder() throws {
        let notes = try NotesFixture(["bad.md": "- [ ] x due:2026-02-30\n"])
        let result = try TickProcess.run(["--dir", notes.root.path, "check", "bad.md"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("bad.md:1:13: warning: invalid date"), "\(result.stdout)")
    }

    @Test func wholeFolderCheckReportsAnUnreadableFileAndGoesOn() throws {
        let notes = try NotesFixture(["a.md": "- [ ] fine\n", "bad.md": "- [ ] x due:2026-02-30\n"])
        chmod(notes.url("a.md").path, 0)
        let result = try TickProcess.run(["check", "--dir", notes.root.path], wrapper: Self.asSomeoneElse)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stdout == "a.md:1:1: error: cannot read it: Permission denied; not checked\n"
                + "bad.md:1:13: warning: invalid date '2026-02-30' for due; write YYYY-MM-DD, e.g. 2026-11-24\n", "\(result.stdout)")
    }

    @Test func doneInAFolderThatCannotBeReadExits66() throws {
        let notes = try NotesFixture(["sub/b.md": "- [ ] milk\n"])
        chmod(notes.url("sub").path, 0)
        defer { chmod(notes.url("sub").path, 0o755) }
        let result = try TickProcess.run(["done", "sub/b.md:1", "--dir", notes.root.path], wrapper: Self.asSomeoneElse)
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr == "tick: cannot read sub/b.md: Permission denied\n")
    }

    @Test func aFileNameBeginningWithADashIsAUsageErrorPointingAtDoubleDash() throws {
        let notes = try NotesFixture(["-dash.md": "- [ ] milk\n"])
        for item in ["-dash.md:1", "-fix.md:1"] {
            let result = try notes.tick("done", item)
            #expect(result.status == 64, "\(item): \(result.stdout)")
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr
                    == "tick: '\(item)' begins with '-' and was read as options; to name a file or item that begins with '-', put it after --, as in: tick done -- \(item)\n"
            )
        }
        let after = try TickProcess.run(["--dir", notes.root.path, "--today", "2026-11-21", "done", "--", "-dash.md:1"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(try notes.text("-dash.md") == "- [x] milk done:2026-11-21\n")
        #expect(try notes.tick("done", "--help").status == 0)
    }

    @Test func staleCacheTemporariesAreRemovedWhenTheCacheIsSaved() throws {
        let notes = try NotesFixture(["a.md": "- [ ] milk\n"])
        let cacheHome = ScratchFolders.make("tick-stale-\(UUID().uuidString)").path
        let folder = cacheHome + "/tick"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let gone = folder + "/folder-1.cache.2147483646.tmp" // no process has that PID
        let old = folder + "/folder-2.cache.\(getpid()).tmp" // alive, but an hour old
        let fresh = folder + "/folder-3.cache.\(getpid()).tmp" // a save under way
        let other = folder + "/notes.txt"
        for path in [gone, old, fresh, other] { #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8))) }
        var times = [timespec(tv_sec: time(nil) - 3600, tv_nsec: 0), timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, old, &times, 0) == 0)
        let result = try TickProcess.run(["all", "--dir", notes.root.path], environment: ["XDG_CACHE_HOME": cacheHome])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: gone))
        #expect(!FileManager.default.fileExists(atPath: old))
        #expect(FileManager.default.fileExists(atPath: fresh))
        #expect(FileManager.default.fileExists(atPath: other))
    }
}
