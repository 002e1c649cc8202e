import Foundation
import Testing

@testable import TickStore

#if canImport(Glibc)
    import Glibc
#endif

/// The lock and the atomic replace of SPEC §5.3–§5.4, driven directly.
@Suite struct AtomicWriterTests {
    @Test func replacesTheFileAndKeepsItsPermissions() throws {
        let notes = try NotesFixture(["a.md": "- [ ] one\n"])
        chmod(notes.url("a.md").path, 0o600)
        let lock = try FileLock.acquire(notes.url("a.md").path)
        #expect(lock.bytes == Array("- [ ] one\n".utf8))
        try AtomicWriter.commit([AtomicWriter.Change(lock: lock, bytes: Array("- [x] one\n".utf8))])
        lock.release()
        #expect(try notes.text("a.md") == "- [x] one\n")
        var status = stat()
        stat(notes.url("a.md").path, &status)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(notes.allFiles() == ["a.md"])
    }

    /// The last step, the exchange: a save that lands after the unchanged
    /// check and before the file is replaced is put back, not lost.
    @Test(arguments: ["saved by rename", "written in place"])
    func aSaveJustBeforeTheExchangeIsPutBack(_ how: String) throws {
        let notes = try NotesFixture(["a.md": "- [ ] one\n"])
        let path = notes.url("a.md").path
        let lock = try FileLock.acquire(path)
        let temporary = try AtomicWriter.writeTemporary(Array("- [x] one\n".utf8), for: lock)
        // The editor saves after the check.
        if how == "saved by rename" {
            try Data("- [ ] one\n- [ ] editor\n".utf8).write(to: notes.url("a.md"), options: .atomic)
        } else {
            let handle = try FileHandle(forWritingTo: notes.url("a.md"))
            try handle.write(contentsOf: Data("- [ ] one\n- [ ] editor\n".utf8))
            try handle.close()
        }
        #expect(throws: WriteFailure.changedOnDisk(path: path)) { try AtomicWriter.replace(lock, with: temporary) }
        #expect(try notes.text("a.md") == "- [ ] one\n- [ ] editor\n")
        #expect(notes.allFiles() == ["a.md"])
        lock.release()
        // With nothing in between, the exchange replaces the file.
        let fresh = try FileLock.acquire(path)
        let second = try AtomicWriter.writeTemporary(Array("- [x] one\n".utf8), for: fresh)
        try AtomicWriter.replace(fresh, with: second)
        fresh.release()
        #expect(try notes.text("a.md") == "- [x] one\n")
        #expect(notes.allFiles() == ["a.md"])
    }

    @Test(arguments: ["same size, in place", "saved by rename", "grown"])
    func refusesWhenAnotherProgramChangedTheFile(_ how: String) throws {
        let notes = try NotesFixture(["a.md": "- [ ] one\n"])
        let path = notes.url("a.md").path
        let lock = try FileLock.acquire(path)
        let editor: String
        switch how {
        case "same size, in place": editor = "- [ ] two\n"
        case "grown": editor = "- [ ] one\n- [ ] two\n"
        default: editor = "- [/] one\n"
        }
        #expect(throws: WriteFailure.changedOnDisk(path: path)) {
            try AtomicWriter.commit([AtomicWriter.Change(lock: lock, bytes: Array("- [x] one\n".utf8))]) {
                // Another editor saves while tick is between reading and renaming.
                if how == "saved by rename" {
                    try? Data(editor.utf8).write(to: notes.url("a.md"), options: .atomic)
                } else {
                    let handle = FileHandle(forWritingAtPath: path)!
                    handle.write(Data(editor.utf8))
                    handle.closeFile()
                }
            }
        }
        #expect(try notes.text("a.md") == editor)
        #expect(notes.allFiles() == ["a.md"])
    }

    @Test func neverRewritesAFileThatIsNotUTF8() throws {
        let bytes: [UInt8] = Array("- [ ] caf".utf8) + [0xE9, 0x0A]
        let notes = try NotesFixture(["a.md": bytes])
        let lock = try FileLock.acquire(notes.url("a.md").path)
        #expect(throws: WriteFailure.self) {
            try AtomicWriter.commit([AtomicWriter.Change(lock: lock, bytes: Array("- [x] cafe\n".utf8))])
        }
        #expect(try notes.bytes("a.md") == bytes)
    }

    @Test func createNeverReplacesAnExistingFile() throws {
        let notes = try NotesFixture(["a.md": "keep\n"])
        #expect(throws: WriteFailure.exists(path: notes.url("a.md").path)) {
            try AtomicWriter.create(notes.url("a.md").path, bytes: Array("new\n".utf8))
        }
        #expect(try notes.text("a.md") == "keep\n")
        try AtomicWriter.create(notes.url("b.md").path, bytes: Array("new\n".utf8))
        #expect(try notes.text("b.md") == "new\n")
        #expect(notes.allFiles() == ["a.md", "b.md"])
    }

    @Test func aSecondLockWaitsForTheFirst() async throws {
        let notes = try NotesFixture(["a.md": "- [ ] one\n"])
        let path = notes.url("a.md").path
        let first = try FileLock.acquire(path)
        let acquired = Locked(false)
        let waiter = Thread {
            if let second = try? FileLock.acquire(path) {
                acquired.set(true)
                // The second lock sees the file the first one wrote.
                acquired.bytes = second.bytes
                second.release()
            }
        }
        waiter.start()
        // While the first lock is held, the waiter cannot have it.
        usleep(100_000)
        #expect(acquired.get() == false)
        try AtomicWriter.commit([AtomicWriter.Change(lock: first, bytes: Array("- [x] one\n".utf8))])
        first.release()
        for _ in 0..<500 where !acquired.get() { usleep(10_000) }
        #expect(acquired.get())
        #expect(acquired.bytes == Array("- [x] one\n".utf8))
    }
}

/// A value shared between threads in a test.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    var bytes: [UInt8] {
        get {
            lock.lock()
            defer { lock.unlock() }
            return storedBytes
        }
        set {
            lock.lock()
            storedBytes = newValue
            lock.unlock()
        }
    }
    private var storedBytes: [UInt8] = []
    init(_ value: Value) { self.value = value }
    func get() -> Value {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    func set(_ newValue: Value) {
        lock.lock()
        value = newValue
        lock.unlock()
    }
}
