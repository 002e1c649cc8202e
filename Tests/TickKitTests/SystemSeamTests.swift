import Foundation
import Testing

@testable import TickStore
@testable import TickSyntax
@testable import TickSystem

/// The system seam (`Sources/TickSystem/`): the library's one door to
/// the C library, and what it promises callers.
@Suite struct SystemSeamTests {
    @Test func wholeFileReadGetsEveryByteWhenTheFileIsLargerThanTheHint() throws {
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let folder = try TemporaryFolder()
        let path = folder.path + "/big.bin"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let descriptor = Posix.openFile(path, O_RDONLY | O_CLOEXEC)
        #expect(descriptor >= 0)
        defer { Posix.closeFile(descriptor) }
        let read = Posix.readAll(descriptor, sizeHint: 10)
        #expect(read.failure == nil)
        #expect(read.bytes == bytes)
    }

    @Test func environmentReadsTheProcessVariablesOrTheGivenOnes() {
        let foundation = ProcessInfo.processInfo.environment
        for name in ["PATH", "HOME", "TICK_NO_SUCH_VARIABLE"] { #expect(Environment.process[name] == foundation[name]) }
        let given: Environment = ["HOME": "/home/a", "EMPTY": ""]
        #expect(given["HOME"] == "/home/a")
        #expect(given["PATH"] == nil)
        #expect(given["EMPTY"] == "")
        #expect(given.nonEmpty("EMPTY") == nil)
        #expect(given.nonEmpty("HOME") == "/home/a")
    }

    @Test func wholeFileReadStopsAtItsLimit() throws {
        let folder = try TemporaryFolder(["ten.txt": "0123456789"])
        let descriptor = Posix.openFile(folder.path + "/ten.txt", O_RDONLY | O_CLOEXEC)
        defer { Posix.closeFile(descriptor) }
        #expect(Posix.readAll(descriptor, sizeHint: 10, limit: 4).bytes == Array("0123".utf8))
    }

    @Test func wholeFileReadReportsTheFailureWithWhatItRead() throws {
        let folder = try TemporaryFolder()
        let descriptor = Posix.openFile(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { Posix.closeFile(descriptor) }
        let read = Posix.readAll(descriptor, sizeHint: 0)
        #expect(read.bytes.isEmpty)
        #expect(read.failure == EISDIR)
    }

    #if canImport(Glibc)
        /// A signal whose handler is installed without `SA_RESTART` makes a
        /// blocked `read` fail with EINTR; the seam's read goes on reading.
        @Test func pipeReadToItsEndIsNotCutShortBySignals() throws {
            var previous = sigaction()
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in }
            action.sa_flags = 0 // no SA_RESTART: interrupted calls fail with EINTR
            sigemptyset(&action.sa_mask)
            #expect(sigaction(SIGUSR2, &action, &previous) == 0)
            defer { sigaction(SIGUSR2, &previous, nil) }

            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            nonisolated(unsafe) var reader: pthread_t? = nil
            nonisolated(unsafe) var received: [UInt8] = []
            let started = DispatchSemaphore(value: 0)
            let finished = DispatchSemaphore(value: 0)
            let readEnd = ends[0]
            let thread = Thread {
                // Let the signal in, whatever mask the thread was started with.
                var signals = sigset_t()
                sigemptyset(&signals)
                sigaddset(&signals, SIGUSR2)
                pthread_sigmask(SIG_UNBLOCK, &signals, nil)
                reader = pthread_self()
                started.signal()
                received = FileIO.readToEnd(readEnd)
                finished.signal()
            }
            thread.start()
            started.wait()
            var sent: [UInt8] = []
            for round in 0..<20 {
                // The reader is blocked in `read` on the empty pipe: interrupt it.
                usleep(2_000)
                pthread_kill(reader!, SIGUSR2)
                usleep(2_000)
                let chunk = [UInt8](repeating: UInt8(round), count: 100)
                sent += chunk
                #expect(chunk.withUnsafeBytes { Posix.writeAll($0, to: ends[1]) } == nil)
            }
            Posix.closeFile(ends[1])
            finished.wait()
            Posix.closeFile(readEnd)
            #expect(received.count == sent.count)
            #expect(received.elementsEqual(sent))
        }
    #endif

    @Test func realPathResolvesASymbolicLinkToItsTarget() throws {
        let folder = try TemporaryFolder(["lists/target.md": "- [ ] x\n"])
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link.md", withDestinationPath: "lists/target.md")
        let realFolder = try #require(Posix.realPath(folder.path))
        #expect(Posix.realPath(folder.path + "/link.md") == realFolder + "/lists/target.md")
        #expect(Posix.realPath(folder.path + "/lists/../link.md") == realFolder + "/lists/target.md")
    }

    @Test func realPathOfAMissingFileIsNilWithItsError() throws {
        let folder = try TemporaryFolder()
        #expect(Posix.realPath(folder.path + "/missing.md") == nil)
        #expect(errno == ENOENT)
    }

    @Test func stampReadsTheTimesToTheNanosecond() throws {
        let folder = try TemporaryFolder(["a.md": "- [ ] a\n"])
        let path = folder.path + "/a.md"
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 123_456_789), timespec(tv_sec: 1_700_000_123, tv_nsec: 987_654_321)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let status = try #require(Posix.status(atPath: path))
        #expect(status.modificationTime == (1_700_000_123, 987_654_321))
        let stamp = FileStamp(status)
        #expect(stamp.modifiedSeconds == 1_700_000_123 && stamp.modifiedNanoseconds == 987_654_321)
        #expect(stamp.size == 8)
        // ctime is the time of the last change of status (the utimensat), which no one can set.
        #expect(status.changeTime.seconds >= Posix.secondsNow() - 60)
        #expect(stamp.changedSeconds == status.changeTime.seconds && stamp.changedNanoseconds == status.changeTime.nanoseconds)
    }

    @Test func statusInAFolderTellsALinkFromItsTarget() throws {
        let folder = try TemporaryFolder(["target.md": "x"])
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link.md", withDestinationPath: "target.md")
        let descriptor = Posix.openFile(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { Posix.closeFile(descriptor) }
        let link = try #require(Posix.status(in: descriptor, "link.md"))
        let target = try #require(Posix.status(in: descriptor, "link.md", followingLink: true))
        #expect(link.isSymbolicLink)
        #expect(target.isRegularFile)
        #expect(target.isSameFile(as: try #require(Posix.status(atPath: folder.path + "/target.md"))))
        #expect(!link.isSameFile(as: target))
    }

    @Test func openFolderListsEveryNameWithItsType() throws {
        let folder = try TemporaryFolder(["a.md": "a", "sub/b.md": "b"])
        let open = try #require(Posix.OpenFolder(folder.path))
        var seen: [String: UInt8] = [:]
        while let entry = open.nextEntry() { seen[String(cString: entry.name)] = entry.type }
        #expect(Set(seen.keys) == [".", "..", "a.md", "sub"])
        // d_type where the file system gives it, else DT_UNKNOWN.
        #expect([UInt8(DT_REG), UInt8(DT_UNKNOWN)].contains(seen["a.md"]))
        #expect([UInt8(DT_DIR), UInt8(DT_UNKNOWN)].contains(seen["sub"]))
        #expect(Posix.OpenFolder(folder.path + "/missing") == nil)
    }

    @Test func readOnlyMappingHoldsTheFileBytes() throws {
        let text = String(repeating: "- [ ] mapped\n", count: 1000)
        let folder = try TemporaryFolder(["m.md": text])
        let descriptor = Posix.openFile(folder.path + "/m.md", O_RDONLY | O_CLOEXEC)
        defer { Posix.closeFile(descriptor) }
        let length = text.utf8.count
        let mapping = try #require(Posix.mapReadOnly(descriptor, length: length))
        defer { Posix.unmap(mapping, length: length) }
        #expect(Array(UnsafeRawBufferPointer(start: mapping, count: length)) == Array(text.utf8))
    }

    @Test("pages given back from a mapping, whole or from the middle of a page, read the file's bytes again")
    func releasedPagesReadTheFileAgain() throws {
        // Several pages of distinct bytes, so that a page read back as zeros would show.
        let text = String((0..<40_000).map { Character(Unicode.Scalar(UInt8(0x41 + $0 % 26))) })
        let folder = try TemporaryFolder(["p.md": text])
        let descriptor = Posix.openFile(folder.path + "/p.md", O_RDONLY | O_CLOEXEC)
        defer { Posix.closeFile(descriptor) }
        let length = text.utf8.count
        let mapping = try #require(Posix.mapReadOnly(descriptor, length: length))
        defer { Posix.unmap(mapping, length: length) }
        let bytes = UnsafeBufferPointer(start: mapping.assumingMemoryBound(to: UInt8.self), count: length)
        #expect(Array(bytes) == Array(text.utf8))
        // An unaligned stretch in the middle, then the whole mapping.
        Posix.releasePages(UnsafeBufferPointer(rebasing: bytes[1_000..<30_000]))
        #expect(Array(bytes) == Array(text.utf8))
        Posix.releasePages(bytes)
        #expect(Array(bytes) == Array(text.utf8))
    }

    @Test func lockIsExclusiveBetweenDescriptors() throws {
        let folder = try TemporaryFolder(["l": ""])
        let first = Posix.openFile(folder.path + "/l", O_RDONLY | O_CLOEXEC)
        let second = Posix.openFile(folder.path + "/l", O_RDONLY | O_CLOEXEC)
        defer {
            Posix.closeFile(first)
            Posix.closeFile(second)
        }
        #expect(Posix.lock(first, LOCK_EX))
        #expect(!Posix.tryLock(second, LOCK_SH))
        #expect(errno == EWOULDBLOCK)
        Posix.unlock(first)
        #expect(Posix.tryLock(second, LOCK_SH))
    }

    @Test func byteHelpersFindCompareAndCopy() {
        let bytes = Array("abc|def|".utf8)
        bytes.withUnsafeBytes { buffer in
            let base = buffer.baseAddress!
            #expect(Posix.findByte(UInt8(ascii: "|"), base, bytes.count).map { $0 - base } == 3)
            #expect(Posix.findByte(UInt8(ascii: "|"), base + 4, bytes.count - 4).map { $0 - base } == 7)
            #expect(Posix.findByte(UInt8(ascii: "x"), base, bytes.count) == nil)
            #expect(Posix.compareBytes(base, base + 4, 3) < 0)
            #expect(Posix.compareBytes(base + 3, base + 7, 1) == 0)
        }
        var copy = [UInt8](repeating: 0, count: 5)
        copy.withUnsafeMutableBytes { target in
            bytes.withUnsafeBytes { Posix.copyBytes(to: target.baseAddress!, from: $0.baseAddress!, 3) }
            Posix.fillBytes(target.baseAddress! + 3, 0x20, 2)
        }
        #expect(copy == Array("abc  ".utf8))
    }

    /// The library leaves signal dispositions to the program (`ProcessHooks`):
    /// writing a list and saving a cache in the background change none.
    @Test func writingAndBackgroundSavesLeaveSignalDispositionsAlone() throws {
        func disposition(_ signal: Int32) -> UInt {
            var current = sigaction()
            sigaction(signal, nil, &current)
            #if canImport(Glibc)
                return unsafeBitCast(current.__sigaction_handler.sa_handler, to: UInt.self)
            #else
                return unsafeBitCast(current.__sigaction_u.__sa_handler, to: UInt.self)
            #endif
        }
        let before = (disposition(SIGPIPE), disposition(SIGXFSZ))
        let folder = try TemporaryFolder()
        let root = try #require(Posix.realPath(folder.path))
        try AtomicWriter.create("new.md", in: root, bytes: Array("- [ ] new\n".utf8))
        let lock = try FileLock.acquire("new.md", in: root)
        try AtomicWriter.commit([AtomicWriter.Change(lock: lock, bytes: Array("- [x] new\n".utf8))])
        lock.release()
        BackgroundSaves.start {}
        BackgroundSaves.wait()
        #expect(disposition(SIGPIPE) == before.0)
        #expect(disposition(SIGXFSZ) == before.1)
        #expect(try String(contentsOfFile: root + "/new.md", encoding: .utf8) == "- [x] new\n")
    }

    /// No file of the library or the command line looks a C function up at
    /// run time (`dlsym`): the release build is a static executable, where
    /// the look-up finds nothing, so the function would be missing there
    /// alone (the atomic exchange of an edit once was). `CSystemCalls`
    /// calls what Swift's Glibc module does not declare.
    @Test func noSourceLooksUpACFunctionAtRunTime() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        let files = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") || $0.hasSuffix(".c") || $0.hasSuffix(".h") }
        #expect(files.count > 100)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("dlsym(") && !text.contains("dlopen("), "\(file) looks a function up at run time")
        }
    }

    @Test func theCLibraryExchangesTwoNamesAtomicallyOnLinux() throws {
        #if os(Linux)
            #expect(Posix.canExchange)
            let folder = try TemporaryFolder()
            try "first".write(toFile: folder.path + "/a", atomically: false, encoding: .utf8)
            try "second".write(toFile: folder.path + "/b", atomically: false, encoding: .utf8)
            let descriptor = Posix.openFile(folder.path, O_RDONLY | O_DIRECTORY)
            defer { _ = Posix.closeFile(descriptor) }
            #expect(Posix.exchange(in: descriptor, "a", "b"))
            #expect(try String(contentsOfFile: folder.path + "/a", encoding: .utf8) == "second")
            #expect(try String(contentsOfFile: folder.path + "/b", encoding: .utf8) == "first")
        #endif
    }

    /// Outside `TickSystem`, no file of the library imports the C library for
    /// system calls (the cmark-gfm bridge keeps its own C memory calls), nor
    /// calls Core Foundation (`CollatedTexts` does).
    @Test func noLibraryFileOutsideTheSeamImportsTheCLibrary() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let layers = ["TickModel", "TickSyntax", "TickRecords", "TickStore", "TickEngine", "TickOutput", "TickEdit", "TickKit"]
        let files = try layers.flatMap { layer in
            try #require(FileManager.default.enumerator(atPath: sources.appendingPathComponent(layer).path))
                .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { layer + "/" + $0 }
        }.filter { $0 != "TickSyntax/Markdown/CmarkBlockParser.swift" }
        #expect(files.count > 50)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("import Glibc") && !text.contains("import Darwin"), "\(file) imports the C library")
            #expect(!text.contains("import CoreFoundation") && !text.contains("import CCoreFoundation"), "\(file) imports Core Foundation")
            #expect(!text.contains("import CPrefetch"), "\(file) imports the prefetch hint (TickSystem's Prefetch is the one door)")
            #expect(!text.contains("import CSystemCalls"), "\(file) imports TickSystem's C calls (TickSystem is the one door)")
        }
    }
}
