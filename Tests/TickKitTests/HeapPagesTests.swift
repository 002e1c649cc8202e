import Foundation
import Testing

@testable import TickSystem

/// `HeapPages`: once asked for, a thread's malloc heap is marked for huge
/// pages when the thread begins work. Checked in the kernel's own account
/// of this process's mappings (`/proc/self/smaps`, where a mapping marked
/// `MADV_HUGEPAGE` has the flag `hg`); only where the kernel offers
/// transparent huge pages.
@Suite("Heap in huge pages")
struct HeapPagesTests {
    /// The kernel's setting allows `MADV_HUGEPAGE` (`always` or `madvise`).
    static let kernelOffersHugePages: Bool = {
        guard let setting = try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8) else { return false }
        return setting.contains("[always]") || setting.contains("[madvise]")
    }()

    @Test("a thread that begins work after the start allocates from a heap marked for huge pages", .enabled(if: kernelOffersHugePages))
    func aNewThreadsHeapIsMarkedForHugePages() throws {
        #expect(HeapPages.start())
        // A new thread, so that its first allocations make an arena of its own.
        let address = onNewThread { () -> UInt in
            HeapPages.enterThread()
            let block = malloc(4096)!
            defer { free(block) }
            return UInt(bitPattern: block)
        }
        // A block below the break would be the main heap's: the thread
        // then shares the main arena, which is not what this checks.
        try #require(address >= UInt(bitPattern: sbrk(0)), "the new thread shares the main arena")
        let flags = try #require(try Self.mappingFlags(containing: address), "no mapping holds the block")
        #expect(flags.contains("hg"), "VmFlags: \(flags.joined(separator: " "))")
    }

    /// `body`'s result, run on a thread made for it.
    private func onNewThread<Result>(_ body: @escaping @Sendable () -> Result) -> Result {
        nonisolated(unsafe) var result: Result?
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result = body()
            done.signal()
        }
        thread.start()
        done.wait()
        return result!
    }

    /// The `VmFlags` of the mapping of this process that holds `address`.
    private static func mappingFlags(containing address: UInt) throws -> [String]? {
        // Read to its end: the file says it is empty, and a read of its size got one page.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let smaps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inside, fields.first == "VmFlags:" {
                return fields.dropFirst().map(String.init)
            }
        }
        return nil
    }
}
