import TickModel
import TickSystem

/// One list as the parse cache stores it: its encoding (`DocumentCoding`),
/// the checksum the cache keeps for it, and what the cache's index says of it.
public struct ListPayload: Sendable {
    /// The bytes, in memory of their own, so that an `EncodedDocument`
    /// can be read from them in place.
    package let storage: OwnedBytes
    package let checksum: UInt64
    /// What the cache's index says of the list.
    package let summary: ListSummary

    package var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(storage.buffer) }

    /// Nil for a document too large for the encoding (a file of gigabytes).
    package init?(encoding document: Document) {
        var writer = ByteWriter()
        do { try DocumentCoding.encode(document, into: &writer) } catch { return nil }
        storage = writer.bytes.withUnsafeBufferPointer { OwnedBytes(copying: $0) }
        checksum = ListPayload.checksum(UnsafeBufferPointer(storage.buffer))
        summary = ListSummary(document)
    }

    package init(copying bytes: UnsafeBufferPointer<UInt8>, checksum: UInt64, summary: ListSummary) {
        storage = OwnedBytes(copying: bytes)
        self.checksum = checksum
        self.summary = summary
    }

    /// A fast checksum over the bytes: four independent lanes of 64-bit
    /// words (multiply and rotate), so that the processor works on four words
    /// at once; a repeated query checks the whole cache file with it (each
    /// list's payload, and the index that lists them).
    package static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        @inline(__always) func mix(_ hash: UInt64, _ value: UInt64) -> UInt64 {
            let mixed = (hash ^ value) &* 0xBF58_476D_1CE4_E5B9
            return (mixed << 31) | (mixed >> 33)
        }
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (
            0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count), 0x6A09_E667_F3BC_C908,
            0xBB67_AE85_84CA_A73B, 0x3C6E_F372_FE94_F82B
        )
        let blocks = bytes.count / 32
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            for block in 0..<blocks {
                let offset = block * 32
                // The payloads come from memory, a page at a time: ask for
                // the bytes half a kilobyte ahead, once per cache line.
                if block & 1 == 0, offset + 512 < bytes.count { Prefetch.line(at: raw + offset + 512) }
                lanes.0 = mix(lanes.0, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                lanes.1 = mix(lanes.1, raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
                lanes.2 = mix(lanes.2, raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
                lanes.3 = mix(lanes.3, raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
            }
        }
        var hash = mix(mix(mix(lanes.0, lanes.1), lanes.2), lanes.3)
        var index = blocks * 32
        while index < bytes.count {
            hash = (hash ^ UInt64(bytes[index])) &* 0x94D0_49BB_1331_11EB
            index += 1
        }
        return hash
    }
}

/// Bytes at a fixed address, freed with the last reference.
package final class OwnedBytes: @unchecked Sendable {
    // Written once, in init.
    package let buffer: UnsafeMutableBufferPointer<UInt8>

    package init(copying bytes: UnsafeBufferPointer<UInt8>) {
        let memory = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bytes.count))
        buffer = UnsafeMutableBufferPointer(rebasing: memory[0..<bytes.count])
        _ = buffer.initialize(from: bytes)
    }

    deinit { buffer.baseAddress?.deallocate() }
}

/// What list order, the query's tasks and the list of lists need of a
/// list, kept in the parse cache's index (checked whole when the cache is
/// opened), so that a query places every list, and the text of `tick
/// lists` and of the home screen shows every list, without reading its
/// payload.
public struct ListSummary: Sendable, Equatable {
    package var name: String
    package var order: Int?
    package var isValidUTF8: Bool
    package var itemCount: Int
    /// How many items are open (or in progress), and how many done.
    package var openCount: Int
    package var doneCount: Int
    /// The front matter's `color:` and `icon:` (`Document.explicitColor`, `explicitIcon`).
    package var explicitColor: String?
    package var explicitIcon: String?
    /// The open items' due days, for the home screen's counts.
    package var openDueDays: OpenDueDays
    /// The line of the first git conflict marker (`ConflictMarkers`), for the warning read commands give.
    package var conflictLine: Int?
    /// `SortKey.foldedName(name)`, folded when asked for: a warm run reads
    /// 5,000 summaries from the cache's index and needs none of them
    /// folded (the index keeps the list order).
    package var foldedName: String { SortKey.foldedName(name) }

    package init(
        name: String, order: Int?, isValidUTF8: Bool, itemCount: Int, openCount: Int, doneCount: Int,
        explicitColor: String?, explicitIcon: String?, openDueDays: OpenDueDays, conflictLine: Int? = nil
    ) {
        self.name = name
        self.order = order
        self.isValidUTF8 = isValidUTF8
        self.itemCount = itemCount
        self.openCount = openCount
        self.doneCount = doneCount
        self.explicitColor = explicitColor
        self.explicitIcon = explicitIcon
        self.openDueDays = openDueDays
        self.conflictLine = conflictLine
    }

    /// True when the list takes the place `other` took in list order:
    /// both lists or both not (valid UTF-8), with the same `order:` and
    /// folded name (what list order sorts by before the path).
    package func sortsLike(_ other: ListSummary) -> Bool {
        isValidUTF8 == other.isValidUTF8 && order == other.order && foldedName == other.foldedName
    }

    package init(_ document: Document) {
        // One pass over the items, each read where it lies: a closure given
        // each item as a value copied it (a retain and a release of each of
        // its strings and arrays), three times for every list a cold run
        // parses.
        var (open, done) = (0, 0)
        var dueDays: [UInt32] = []
        document.items.withUnsafeBufferPointer { items in
            for index in items.indices {
                if items[index].status.isOpen {
                    open += 1
                    if let day = items[index].metadata.due?.packed.day { dueDays.append(day) }
                } else if items[index].status == .done {
                    done += 1
                }
            }
        }
        self.init(
            name: document.name, order: document.order, isValidUTF8: document.isValidUTF8, itemCount: document.items.count,
            openCount: open, doneCount: done, explicitColor: document.explicitColor, explicitIcon: document.explicitIcon,
            openDueDays: OpenDueDays(days: dueDays), conflictLine: document.conflictLines.first)
    }
}
