import Foundation
import TickModel
import TickRecords
import TickSystem

// A sort by title of more items than `SortKey.itemsSortedAtOnce`, in
// pieces: a sort holds its titles' bytes while it sorts (at 50,000 notes,
// 57 MB for the 1.4 million items of `export --sort title`), and in pieces
// it holds one piece's.
extension SortKey {
    /// The places of `items` in the order of the columns of `columnKeys`,
    /// as `sortedOrder` gives them: each piece of `pieceSize` items (in the
    /// order given) is sorted on its own, and written out sorted, each
    /// item's place and its columns' values (`SortColumn.appendValue`), to
    /// a file that is never named (`SortSpill`); then the pieces are read
    /// back together and merged, an earlier piece's item first on a tie,
    /// which is the order one stable sort of them all gives. Nil when no
    /// such file can be made (the sort is then done at once).
    static func sortedInPieces(_ items: [EncodedListedItem], by columnKeys: [SortKey], today: TaskDate, pieceSize: Int) -> [Int32]? {
        precondition(items.count <= Int(Int32.max), "more items than a sort can place")
        guard let spill = SortSpill() else { return nil }
        var pieces: [Range<Int>] = []
        var written: [UInt8] = []
        for start in stride(from: 0, to: items.count, by: pieceSize) {
            let piece = Array(items[start..<min(items.count, start + pieceSize)])
            let (order, columns) = sortedOrder(piece, by: columnKeys, today: today, keepingTexts: true)
            let pieceStart = spill.length + written.count
            for place in order {
                // A record: its length, the item's place among `items`, its values.
                let recordStart = written.count
                written.append(contentsOf: [0, 0, 0, 0])
                withUnsafeBytes(of: (Int32(start) + place).littleEndian) { written.append(contentsOf: $0) }
                for column in columns { column.appendValue(of: Int(place), to: &written) }
                withUnsafeBytes(of: UInt32(written.count - recordStart - 4).littleEndian) { length in
                    for offset in 0..<4 { written[recordStart + offset] = length[offset] }
                }
                if written.count >= SortSpill.bufferSize {
                    guard spill.append(written) else { return nil }
                    written.removeAll(keepingCapacity: true)
                }
            }
            pieces.append(pieceStart..<spill.length + written.count)
        }
        guard spill.append(written) else { return nil }
        written = []
        // Every column compares its texts in the current locale.
        let texts = CollatedTexts(CollatedTexts.Texts())
        var readers = pieces.map { SortSpill.Reader(spill, $0) }
        for reader in readers.indices { guard readers[reader].load() else { return nil } }
        /// The order of the records at the heads of two readers: their values in turn, then the earlier piece.
        func before(_ left: Int, _ right: Int) -> Bool {
            let order = readers[left].withRecord { leftRecord in
                readers[right].withRecord { rightRecord in
                    var (leftAt, rightAt) = (4, 4)
                    for key in columnKeys {
                        let result = SortColumn.compareWritten(key, leftRecord, &leftAt, rightRecord, &rightAt, texts: texts)
                        if result != 0 { return result }
                    }
                    return 0
                }
            }
            return order != 0 ? order < 0 : left < right
        }
        // The readers that have a record, the first in order on top.
        var merge = MergeHeap(readers.indices.filter { readers[$0].hasRecord }, by: before)
        var order: [Int32] = []
        order.reserveCapacity(items.count)
        while let top = merge.first {
            order.append(readers[top].withRecord { Int32(littleEndian: $0.loadUnaligned(as: Int32.self)) })
            guard readers[top].advance() else { return nil }
            merge.firstRunMoved(ended: !readers[top].hasRecord, by: before)
        }
        return order.count == items.count ? order : nil
    }
}

/// A file of records written one after another, then read back in
/// stretches: a temporary file, removed as soon as it is made, so nothing
/// of it is left once the process ends, however it ends.
final class SortSpill {
    private let descriptor: Int32
    /// The bytes written so far.
    private(set) var length = 0
    /// How much is written at once, and read at once by each reader.
    static let bufferSize = 1 << 18

    init?() {
        let folder = FileManager.default.temporaryDirectory.path
        let path = folder + "/tick-sort-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0...UInt64.max))"
        descriptor = Posix.openFile(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, permissions: 0o600)
        guard descriptor >= 0 else { return nil }
        _ = Posix.remove(path)
    }

    deinit { _ = Posix.closeFile(descriptor) }

    /// Appends `bytes`; false when they could not all be written.
    func append(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return true }
        guard bytes.withUnsafeBufferPointer({ Posix.writeAll([$0], to: descriptor) }) else { return false }
        length += bytes.count
        return true
    }

    /// Reads the records of one stretch of the file in order, each whole
    /// in memory while it is the reader's record.
    struct Reader {
        private let spill: SortSpill
        /// The part of the file not yet read into `buffer`.
        private var unread: Range<Int>
        /// What was read: the current record starts at `position`, and `loaded` bytes are valid.
        private var buffer: [UInt8] = []
        private var position = 0
        private var loaded = 0

        init(_ spill: SortSpill, _ stretch: Range<Int>) {
            self.spill = spill
            unread = stretch
        }

        /// The length of the current record, after its 4 bytes of length.
        private var recordLength: Int? {
            guard loaded - position >= 4 else { return nil }
            return Int(buffer.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: position, as: UInt32.self)) })
        }

        /// True while there is a record to read.
        var hasRecord: Bool { position < loaded }

        /// Makes the current record whole in `buffer`, reading more of the
        /// file when it is not; false when the file could not be read.
        mutating func load() -> Bool {
            while !unread.isEmpty, recordLength.map({ loaded - position < 4 + $0 }) ?? true {
                // What is left of the buffer moves to its start; then the file fills it.
                buffer.removeSubrange(0..<position)
                loaded -= position
                position = 0
                // Room for a whole record, and for as much of the stretch as a buffer holds.
                let wanted = max(min(SortSpill.bufferSize, loaded + unread.count), 4 + (recordLength ?? 0))
                if buffer.count < wanted { buffer.append(contentsOf: [UInt8](repeating: 0, count: wanted - buffer.count)) }
                let count = min(unread.count, buffer.count - loaded)
                let read = buffer.withUnsafeMutableBytes { bytes in
                    Posix.read(spill.descriptor, at: unread.lowerBound, into: UnsafeMutableRawBufferPointer(rebasing: bytes[loaded..<loaded + count]))
                }
                guard read else { return false }
                loaded += count
                unread = unread.lowerBound + count..<unread.upperBound
            }
            return position == loaded || recordLength.map { loaded - position >= 4 + $0 } ?? false
        }

        /// `body` given the current record, without its length: the item's place, then its values.
        func withRecord<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[position + 4..<position + 4 + recordLength!])) }
        }

        /// Moves to the next record; false when the file could not be read.
        mutating func advance() -> Bool {
            position += 4 + recordLength!
            return load()
        }
    }
}
