import Foundation
import TickModel
import TickRecords
import TickSystem

extension ParseCache {
    /// A new cache file written while the folder's lists are parsed, when
    /// there is no cache to keep lists from (none could be loaded: the first
    /// run in a folder, a cache of another format, a damaged index): each
    /// batch of new encodings goes to a spool file as soon as it is made and
    /// is let go; the cache file is then made from the spool and the lists
    /// read from a mapping of it, as a warm run reads them. A cold run thus
    /// holds the lists it is reading, not every encoding until the cache is
    /// written (296 MB at 50,000 notes).
    ///
    /// Guarantees:
    /// - the spool and the new cache file are temporary files
    ///   (`*.spool.cache.PID.tmp`, `*.ordered.cache.PID.tmp`, which
    ///   `removeStaleTemporaries` clears after a crash) until the cache file
    ///   is complete, index and trailer included, and renamed into place:
    ///   readers see the old cache file or the complete new one;
    /// - a batch that cannot be written (a full disk) makes `write` return
    ///   nil, and the caller keeps that batch in memory; later batches are
    ///   not written either. The cache file then holds the batches written
    ///   before, and the caller's save appends the others to it;
    /// - the cache file holds the lists written in list order, as `rewrite`
    ///   writes a cache file.
    final class Spool: @unchecked Sendable {
        private let cache: ParseCache
        private let spoolPath: String
        private let descriptor: Int32
        // `end` and `failed` are guarded by `lock`.
        private let lock = NSLock()
        private var end: Int
        private var failed = false

        /// A new spool file holding the cache file's header; nil when it cannot be made.
        init?(for cache: ParseCache) {
            let folder = (cache.path as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = cache.temporaryPath("spool")
            let header = cache.header()
            let descriptor = Posix.openFile(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions: 0o600)
            guard descriptor >= 0 else { return nil }
            guard header.withUnsafeBufferPointer({ Posix.writeAll([$0], to: descriptor) }) else {
                Posix.closeFile(descriptor)
                Posix.remove(path)
                return nil
            }
            self.cache = cache
            self.spoolPath = path
            self.descriptor = descriptor
            end = header.count
        }

        deinit {
            // Never finished: the spool is no use to anyone.
            if !finished {
                Posix.closeFile(descriptor)
                Posix.remove(spoolPath)
            }
        }

        private var finished = false

        /// About how many bytes of payloads `ordered` copies in one piece.
        static let pieceLength = 1 << 20

        /// Writes `payloads` one after another at the end of the spool; where
        /// the first one starts, or nil when they could not all be written
        /// (then no later batch is written either).
        func write(_ payloads: [ListPayload]) -> Int? {
            guard !payloads.isEmpty else { return nil }
            lock.lock()
            defer { lock.unlock() }
            guard !failed else { return nil }
            let start = end
            let buffers = payloads.map(\.buffer)
            guard Posix.writeAll(buffers, to: descriptor) else {
                failed = true
                return nil
            }
            end += buffers.reduce(0) { $0 + $1.count }
            return start
        }

        /// Makes the cache file of the lists written (`entries`, whose
        /// payloads lie in this file, in the folder's walk order) and maps
        /// it: a new file holding them in list order (as `rewrite` writes
        /// one, so that commands reading every list read it from start to
        /// end) with its index and trailer, renamed into place. The lists
        /// are then read from the mapping returned. The payloads are copied
        /// through buffers (a megabyte each, or the largest list; one per
        /// core), never mapped, so the copy holds no list's pages. When that
        /// file cannot be written (a full disk), the lists are read from a
        /// mapping of the spool itself. Nil
        /// when nothing can be mapped: the caller parses the spooled lists
        /// again. The spool file is removed either way (a mapping outlives
        /// its file's name).
        func finish(_ entries: [Contents.Entry], scanStarted: Int) -> Contents? {
            lock.lock()
            defer { lock.unlock() }
            finished = true
            Posix.closeFile(descriptor)
            defer { Posix.remove(spoolPath) }
            let spool = Posix.openFile(spoolPath, O_RDONLY | O_CLOEXEC)
            guard spool >= 0 else { return nil }
            defer { Posix.closeFile(spool) }
            let listOrder = ParseCache.listOrder(of: entries)
            return ordered(entries, listOrder: listOrder, from: spool, scanStarted: scanStarted)
                ?? Contents(
                    mapping: spool, length: end, entries: entries, listOrder: listOrder.places, scanStarted: scanStarted,
                    granularity: cache.granularity)
        }

        /// The cache file made from the spool `spool`, mapped; nil when it cannot be written.
        ///
        /// Each payload's place in the new file is known before any is
        /// copied (one after another, in write order, after the header), so
        /// the copy is cut into pieces of about a megabyte, each read into a
        /// buffer of its own and written at its place, on every core, while
        /// the index is made: the other core would otherwise wait for this
        /// one, between the parse and the query.
        private func ordered(
            _ entries: [Contents.Entry], listOrder: (places: [Int], entryIndices: [Int]), from spool: Int32, scanStarted: Int
        ) -> Contents? {
            let writeOrder = listOrder.entryIndices + entries.indices.filter { !entries[$0].summary.isValidUTF8 }
            let temporary = cache.temporaryPath("ordered")
            let file = Posix.openFile(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, permissions: 0o600)
            guard file >= 0 else { return nil }
            defer { Posix.closeFile(file) }
            let header = cache.header()
            let (placed, pieces, payloadsEnd) = Self.layout(entries, in: writeOrder, after: header.count)
            var tail: [UInt8] = [] // written by the last task only, read once all are done
            let copied = Parallel.map(pieces.count + 1) { task -> Bool in
                guard task < pieces.count else {
                    tail = cache.indexAndTrailer(
                        placed.map { (path: $0.path, stamp: $0.stamp, source: Source.kept($0)) },
                        offsets: placed.map(\.payload.lowerBound), listOrder: listOrder.places, scanStarted: scanStarted,
                        start: payloadsEnd)
                    return true
                }
                let piece = writeOrder[pieces[task]]
                let start = placed[piece.first!].payload.lowerBound
                let length = placed[piece.last!].payload.upperBound - start
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 16)
                defer { buffer.deallocate() }
                for position in piece {
                    let source = entries[position].payload
                    let target = placed[position].payload.lowerBound - start
                    guard
                        Posix.read(
                            spool, at: source.lowerBound,
                            into: UnsafeMutableRawBufferPointer(rebasing: buffer[target..<target + source.count]))
                    else { return false }
                }
                return Posix.write(UnsafeRawBufferPointer(buffer), to: file, at: start)
            }
            guard !copied.contains(false),
                header.withUnsafeBytes({ Posix.write($0, to: file, at: 0) }),
                tail.withUnsafeBytes({ Posix.write($0, to: file, at: payloadsEnd) }),
                let contents = Contents(
                    mapping: file, length: payloadsEnd, entries: placed, listOrder: listOrder.places, scanStarted: scanStarted,
                    granularity: cache.granularity),
                Posix.rename(temporary, to: cache.path)
            else {
                Posix.remove(temporary)
                return nil
            }
            ParseCache.removeStaleTemporaries(in: (cache.path as NSString).deletingLastPathComponent)
            return contents
        }

        /// The entries with their payloads' places in the new file (one
        /// after another in `writeOrder`, from `start`), the pieces of about
        /// `pieceLength` bytes the copy is cut into (ranges of
        /// `writeOrder`), and where the payloads end.
        private static func layout(
            _ entries: [Contents.Entry], in writeOrder: [Int], after start: Int
        ) -> (placed: [Contents.Entry], pieces: [Range<Int>], end: Int) {
            var placed = entries
            var pieces: [Range<Int>] = []
            var pieceStart = 0 // in `writeOrder`
            var pieceOffset = start // in the new file
            var end = start
            for (order, position) in writeOrder.enumerated() {
                if end - pieceOffset >= pieceLength, order > pieceStart {
                    pieces.append(pieceStart..<order)
                    (pieceStart, pieceOffset) = (order, end)
                }
                let length = entries[position].payload.count
                placed[position].payload = end..<end + length
                end += length
            }
            if pieceStart < writeOrder.count { pieces.append(pieceStart..<writeOrder.count) }
            return (placed, pieces, end)
        }
    }
}
