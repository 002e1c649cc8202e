import Foundation
import Synchronization
import TickModel
import TickRecords
import TickSystem

/// The parse cache: the parsed lists of one notes folder, kept in one file
/// under `$XDG_CACHE_HOME/tick` (else `~/.cache/tick`) so that a repeated
/// query reads no Markdown at all.
///
/// Guarantees:
/// - an entry is used only when the file's size, modification and
///   status-change times (to the nanosecond), inode and device all match
///   the `stat` taken while listing the folder; any other file is read and parsed again (per file);
/// - a cache file that is damaged, half written, of another format version
///   or for another folder is never trusted: every read is bounds-checked,
///   the index carries a checksum checked when the file is opened (a bad one
///   and the whole file is ignored and rebuilt), and each list's payload a
///   checksum checked before its items are read (a bad one and that list is
///   parsed again from its file, and the cache saved again);
/// - answers are the same, byte for byte, as without the cache (the
///   documents read back equal the parsed ones; tests check both);
/// - it is never used for edits: the editor always reads the file itself;
/// - a change costs about what changed: the new lists' encodings and a new
///   index are appended to the file (under an exclusive `flock`, which
///   readers share while they map it), the other lists' bytes stay where
///   they are; when the file holds as many bytes no index points to as
///   bytes it does, it is written anew (temporary file, rename). An append
///   cut short (a crash) leaves a file whose end is not a valid trailer,
///   which is not trusted.
///
/// The file: magic, format version and root; then segments, each the
/// payloads it adds, an index of every list (payloads by their place in the
/// file, in earlier segments or this one) with its checksum, and a fixed
/// 24-byte trailer (where the index is, its length, `TICKEND1`). Readers
/// read the index the trailer at the end of the file points to.
public struct ParseCache: Sendable {
    /// The cache file.
    public let path: String
    let root: String
    /// The timestamp granularity to assume instead of the stamps' own (`FileStamp.timestampGranularity`); a test seam.
    let granularity: Int?
    static let magic = Array("TICKCACHE".utf8)
    static let trailerMagic = Array("TICKEND1".utf8)
    static let trailerLength = 24
    /// Bump when the parser or the encoding changes what a document holds.
    static let formatVersion = 22
    /// A fingerprint of the field table (`MetadataField.spelling`), kept
    /// beside the format version: a field added to the table changes what
    /// the parser reads, so a cache written before is not trusted.
    static let fieldTable = Int(FNV1a.hash(MetadataField.tableDescription) >> 2)

    /// The cache for the folder `root`, or nil when caching is off
    /// (`TICK_NO_CACHE` set) or there is no cache folder to use.
    public init?(root: String, environment: Environment = .process) {
        if let off = environment["TICK_NO_CACHE"], !off.isEmpty, off != "0" { return nil }
        guard let base = UserFolders.tick(.cache, environment: environment) else { return nil }
        self.root = root
        self.path = base + "/" + Self.fileName(for: root)
        // Test seam: the tests write a file and query it at once; they
        // assume a granularity (0 for "any stamp older than the scan") so
        // that a warm run does not depend on how fast the machine is.
        granularity = environment["TICK_TEST_TIMESTAMP_GRANULARITY_MS"].flatMap(Int.init).map { $0 * 1_000_000 }
    }

    /// A name from the folder's path (FNV-1a), so each folder has its own file.
    static func fileName(for root: String) -> String {
        "folder-" + String(FNV1a.hash(root), radix: 16) + ".cache"
    }

    /// What a cache file holds: where each file's document is, in a
    /// read-only mapping of the cache file: the memory the lists read from
    /// the cache lie in (`ListMapping`), whose pages they give back.
    public final class Contents: @unchecked Sendable, ListMapping {
        // The mapping is never written and is unmapped only when the last
        // reference goes, so sharing it between threads is safe.
        let base: UnsafeRawPointer
        let length: Int
        /// The files in the order of the cache file, which is the order the
        /// walk lists them in: a file's entry is nearly always at its place
        /// in the walk, which `place(of:at:)` tries first.
        let entries: [Entry]
        /// The list order of the entries whose lists are valid UTF-8 (the
        /// lists a workspace holds), as indices into that subsequence of
        /// `entries`: computed when the cache was saved, so that a query over
        /// an unchanged folder does not sort 5,000 lists again (3 ms).
        let listOrder: [Int]
        /// When the scan that made the entries started (nanoseconds since 1970).
        let scanStarted: Int
        /// The timestamp granularity to assume, when not the stamps' own (a test seam).
        let granularity: Int?
        /// The cache file's inode and device: a save appends to it only if it is still the file at the path.
        let fileIdentity: (inode: UInt64, device: UInt64)
        /// Entry by path, made on the first lookup that misses.
        private var entryIndex: [String: Int]? = nil
        private let lock = NSLock()

        struct Entry {
            var path: String
            var stamp: FileStamp
            var payload: Range<Int>
            var checksum: UInt64
            var summary: ListSummary
        }

        init(
            base: UnsafeRawPointer, length: Int, entries: [Entry], listOrder: [Int], scanStarted: Int, granularity: Int?,
            fileIdentity: (inode: UInt64, device: UInt64)
        ) {
            self.fileIdentity = fileIdentity
            self.base = base
            self.length = length
            self.entries = entries
            self.listOrder = listOrder
            self.scanStarted = scanStarted
            self.granularity = granularity
        }

        /// The first `length` bytes of the open cache file `descriptor`
        /// mapped, holding `entries`; nil when it cannot be mapped.
        convenience init?(
            mapping descriptor: Int32, length: Int, entries: [Entry], listOrder: [Int], scanStarted: Int, granularity: Int?
        ) {
            guard let info = Posix.status(of: descriptor), let mapping = Posix.mapReadOnly(descriptor, length: length) else { return nil }
            self.init(
                base: UnsafeRawPointer(mapping), length: length, entries: entries, listOrder: listOrder, scanStarted: scanStarted,
                granularity: granularity, fileIdentity: (info.inodeNumber, info.deviceNumber))
        }

        deinit { Posix.unmap(UnsafeMutableRawPointer(mutating: base), length: length) }

        /// Lets the process's memory go of the pages that hold `bytes`, as
        /// far as they lie in the mapping: what is read again is mapped again
        /// from the file. Commands over a whole folder call it after each run
        /// of lists, so that they hold the lists they are reading, not the
        /// whole cache.
        ///
        /// A cache file of at most `heldWhole` bytes is held whole (its
        /// pages kept once read): giving its pages back only maps them again in the next pass over the
        /// same lists (a listing's filter, then its rows), and a whole small
        /// file is little memory.
        package func releasePages(holding bytes: UnsafeBufferPointer<UInt8>) {
            guard givesPagesBack, let start = bytes.baseAddress, let mapped = buffer.baseAddress else { return }
            let lower = max(start, mapped)
            let upper = min(start + bytes.count, mapped + length)
            guard lower < upper else { return }
            Posix.releasePages(UnsafeBufferPointer(start: lower, count: upper - lower))
        }

        /// The largest cache file held whole (about 10,000 notes' worth).
        static let heldWhole = 64 << 20

        package var givesPagesBack: Bool { length > Self.heldWhole }

        var buffer: UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: length)
        }

        /// The place in `entries` of `path`'s entry, looked for first at
        /// `position` (the file's place in the walk; no hashing of paths
        /// when the folder's files are the cache's), then by path.
        func place(of path: String, at position: Int) -> Int? {
            if entries.indices.contains(position), entries[position].path == path { return position }
            lock.lock()
            defer { lock.unlock() }
            if entryIndex == nil {
                entryIndex = Dictionary(entries.indices.map { (entries[$0].path, $0) }, uniquingKeysWith: { first, _ in first })
            }
            return entryIndex?[path]
        }

        /// The entry of `path` (see `place(of:at:)`).
        func entry(_ path: String, at position: Int) -> Entry? {
            place(of: path, at: position).map { entries[$0] }
        }

        /// The place of `path`'s entry when it was made for exactly `stamp`
        /// and the stamp was settled when the entry was made: the file's
        /// timestamps were older than the scan that made it by more than
        /// their granularity. Otherwise the file may have changed after it
        /// was read without any change to its stamp (a same-size save in the
        /// same second on a file system with whole-second times), and it is
        /// parsed again; the cache saved then holds it as settled.
        func trustedPlace(of path: String, at position: Int, stamp: FileStamp) -> Int? {
            guard let place = place(of: path, at: position), entries[place].stamp == stamp,
                stamp.isSettled(before: scanStarted, granularity: granularity)
            else { return nil }
            return place
        }

        /// The payload of the entry at `place`, if its checksum holds.
        private func checkedPayload(at place: Int) -> UnsafeBufferPointer<UInt8>? {
            let bytes = UnsafeBufferPointer(rebasing: buffer[entries[place].payload])
            return ListPayload.checksum(bytes) == entries[place].checksum ? bytes : nil
        }

        /// The document of the entry at `place`, made from the index alone:
        /// its payload is checked when its items are first read
        /// (`EncodedDocument.complete`). The entry is read where it lies:
        /// a copy of it would retain and release each of its strings.
        func uncheckedDocument(at place: Int) -> EncodedDocument {
            entries.withUnsafeBufferPointer { entries in
                EncodedDocument(
                    unchecked: UnsafeBufferPointer(rebasing: buffer[entries[place].payload]), in: self,
                    checksum: entries[place].checksum, path: entries[place].path, summary: entries[place].summary)
            }
        }

        /// The document of the entry at `place`, decoded, if its checksum holds.
        func document(at place: Int) -> Document? {
            guard let bytes = checkedPayload(at: place),
                let document = try? DocumentCoding.decode(bytes), document.path == entries[place].path
            else { return nil }
            return document
        }
    }

    /// Starts `load()` on another core and returns at once: the first
    /// `load()` of the same file in this process then takes what it read
    /// (waiting for it if need be) instead of reading the file again. The
    /// command line starts it while it is parsed, which takes a core for
    /// about 2 ms before the command knows its folder
    /// (`Tick.openParseCacheEarly`); what a load read a moment earlier is
    /// as good as what it would read now: the index is checked against the
    /// files' stamps when they are listed, whenever the file was mapped.
    /// A later call replaces a load not taken. It runs on a thread of its
    /// own (`BackgroundThread`), which starts at once on another core.
    public func startLoading() {
        let cache = self
        let started = EarlyLoad(path: path)
        started.done.enter()
        BackgroundThread.start {
            HeapPages.enterThread()
            started.contents = cache.readFile()
            started.done.leave()
        }
        EarlyLoad.slot.withLock { $0 = started }
    }

    /// Whether a load of this file was started early (`startLoading`) and
    /// not yet taken: it is under way on a thread of its own.
    public var isLoadingEarly: Bool {
        let path = self.path
        return EarlyLoad.slot.withLock { $0?.path == path }
    }

    /// Maps the cache file and reads its index; nil when there is none or it
    /// cannot be trusted. Documents are checked (each has its own checksum)
    /// and decoded only when asked for. A load of this file started early
    /// (`startLoading`) and not yet taken is taken instead.
    public func load() -> Contents? {
        let path = self.path
        let early = EarlyLoad.slot.withLock { slot -> EarlyLoad? in
            guard let started = slot, started.path == path else { return nil }
            slot = nil
            return started
        }
        if let early {
            early.done.wait()
            if let contents = early.contents { return contents }
        }
        return readFile()
    }

    /// A load started by `startLoading`: the file, and what was read once `done`.
    final class EarlyLoad: @unchecked Sendable {
        let path: String
        let done = DispatchGroup()
        // Written once, on the loading thread, before `done` is left; read after waiting on it.
        var contents: Contents?

        init(path: String) { self.path = path }

        /// The one load started and not yet taken.
        static let slot = Mutex<EarlyLoad?>(nil)
    }

    /// `load()`'s reading of the file.
    private func readFile() -> Contents? {
        let descriptor = Posix.openFile(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { Posix.closeFile(descriptor) }
        // Shared with other readers, not with a save appending: its length
        // and mapping are taken between appends. (Appends are short; a
        // reader that cannot have the lock within a moment does without.)
        guard Self.lock(descriptor, LOCK_SH) else { return nil }
        let info = Posix.status(of: descriptor)
        let length = info.map { Int($0.st_size) } ?? 0
        // Pages are mapped as they are read, and a large file's given back
        // run by run (`Contents.releasePages`).
        let mapping = length > Self.magic.count + Self.trailerLength ? Posix.mapReadOnly(descriptor, length: length) : nil
        Posix.unlock(descriptor)
        guard let info, let mapping else { return nil }
        let buffer = UnsafeBufferPointer(start: mapping.assumingMemoryBound(to: UInt8.self), count: length)
        func fail() -> Contents? {
            Posix.unmap(mapping, length: length)
            return nil
        }
        guard Array(buffer[0..<Self.magic.count]) == Self.magic else { return fail() }
        var reader = ByteReader(buffer, range: Self.magic.count..<length)
        do {
            guard try reader.int() == Self.formatVersion, try reader.int() == Self.fieldTable, try reader.string() == root else { return fail() }
            let payloadsStart = reader.position
            // The trailer says where the current index is.
            var trailer = ByteReader(buffer, range: length - Self.trailerLength..<length)
            let indexStart = Int(truncatingIfNeeded: try trailer.word64())
            let indexLength = Int(truncatingIfNeeded: try trailer.word64())
            guard Array(buffer[length - 8..<length]) == Self.trailerMagic, indexStart >= payloadsStart, indexLength > 8,
                indexLength <= length - Self.trailerLength - indexStart,
                indexStart + indexLength == length - Self.trailerLength
            else { return fail() }
            let indexEnd = indexStart + indexLength - 8
            // The index has its own checksum, written after it.
            var checksumReader = ByteReader(buffer, range: indexEnd..<indexEnd + 8)
            guard ListPayload.checksum(UnsafeBufferPointer(rebasing: buffer[indexStart..<indexEnd])) == (try checksumReader.word64())
            else { return fail() }
            reader = ByteReader(buffer, range: indexStart..<indexEnd)
            let scanStarted = try reader.int()
            let count = try reader.count(limit: 1 << 24)
            var entries: [Contents.Entry] = []
            // Not more than the bytes left could hold.
            entries.reserveCapacity(min(count, indexLength / 16))
            for _ in 0..<count {
                let path = try reader.string()
                let stamp = FileStamp(
                    size: try reader.int(), modifiedSeconds: try reader.int(),
                    modifiedNanoseconds: try reader.int(), changedSeconds: try reader.int(),
                    changedNanoseconds: try reader.int(), inode: try reader.int(), device: try reader.int())
                // Payloads lie between the file's header and this index.
                let payloadStart = try reader.count()
                let payloadLength = try reader.count()
                guard payloadStart >= payloadsStart, payloadLength <= indexStart - payloadStart else { return fail() }
                let checksum = try reader.word64()
                let name = try reader.string()
                let order = try reader.optionalInt()
                let isValidUTF8 = try reader.bool()
                let itemCount = try reader.count(limit: 1 << 26)
                let openCount = try reader.count(limit: itemCount)
                let doneCount = try reader.count(limit: itemCount)
                guard openCount + doneCount <= itemCount else { return fail() }
                // The summary is made where it is stored: made first and
                // then stored, it was copied (each of its strings retained,
                // then released).
                entries.append(
                    Contents.Entry(
                        path: path, stamp: stamp, payload: payloadStart..<payloadStart + payloadLength, checksum: checksum,
                        summary: ListSummary(
                            name: name, order: order, isValidUTF8: isValidUTF8, itemCount: itemCount, openCount: openCount,
                            doneCount: doneCount, explicitColor: try reader.optionalString(),
                            explicitIcon: try reader.optionalString(), openDueDays: OpenDueDays(encoded: try reader.byteArray()),
                            conflictLine: try reader.optionalInt())))
            }
            // The list order: a permutation of the valid lists' places.
            let listed = entries.reduce(0) { $0 + ($1.summary.isValidUTF8 ? 1 : 0) }
            guard try reader.count(limit: 1 << 24) == listed else { return fail() }
            var listOrder: [Int] = []
            listOrder.reserveCapacity(listed)
            var placed = [Bool](repeating: false, count: listed)
            for _ in 0..<listed {
                let place = try reader.count()
                guard place < listed, !placed[place] else { return fail() }
                placed[place] = true
                listOrder.append(place)
            }
            guard reader.position == indexEnd else { return fail() }
            return Contents(
                base: UnsafeRawPointer(mapping), length: length, entries: entries, listOrder: listOrder,
                scanStarted: scanStarted, granularity: granularity,
                fileIdentity: (info.inodeNumber, info.deviceNumber))
        } catch {
            return fail()
        }
    }

    /// Takes `operation` (`LOCK_SH` or `LOCK_EX`) on the open cache file,
    /// trying for up to about a second; false if it could not.
    static func lock(_ descriptor: Int32, _ operation: Int32) -> Bool {
        for attempt in 0..<200 {
            if Posix.tryLock(descriptor, operation) { return true }
            if errno != EWOULDBLOCK && errno != EINTR { return false }
            if attempt < 199 { Posix.pause(microseconds: 5_000) }
        }
        return false
    }

    /// Where the encoding of a list in a new index comes from.
    enum Source {
        /// Just encoded: written with the new index.
        case fresh(ListPayload)
        /// Already in the cache file that was loaded (`keptIn`), where it stays.
        case kept(Contents.Entry)

        var length: Int {
            switch self {
            case .fresh(let payload): payload.buffer.count
            case .kept(let entry): entry.payload.count
            }
        }

        var summary: ListSummary {
            switch self {
            case .fresh(let payload): payload.summary
            case .kept(let entry): entry.summary
            }
        }

        var checksum: UInt64 {
            switch self {
            case .fresh(let payload): payload.checksum
            case .kept(let entry): entry.checksum
            }
        }
    }

    /// The list order of `entries`: `places`, the places among the entries
    /// that are lists (valid UTF-8) from first list to last, as the index
    /// stores it; `entryIndices`, the same lists as indices of `entries`.
    static func listOrder(_ entries: [(path: String, stamp: FileStamp, source: Source)]) -> (places: [Int], entryIndices: [Int]) {
        // Each summary taken out of its source once: `Source.summary` copies
        // the kept entry whole each time it is read.
        let summaries = entries.map(\.source.summary)
        return listOrder(
            count: entries.count, isList: { summaries[$0].isValidUTF8 }, foldedName: { summaries[$0].foldedName },
            order: { summaries[$0].order }, path: { entries[$0].path })
    }

    /// The list order of the cache entries `entries` (a cold run's spooled
    /// lists), each read where it lies: made into save entries first, each
    /// entry's summary was copied whole for every field read, 5 ms at 5,000
    /// notes on the one core that waits for it.
    static func listOrder(of entries: [Contents.Entry]) -> (places: [Int], entryIndices: [Int]) {
        listOrder(
            count: entries.count, isList: { entries[$0].summary.isValidUTF8 }, foldedName: { entries[$0].summary.foldedName },
            order: { entries[$0].summary.order }, path: { entries[$0].path })
    }

    /// The list order of `count` entries, each told by its place: whether
    /// it is a list (valid UTF-8), its folded name, its `order:` and its path.
    private static func listOrder(
        count: Int, isList: (Int) -> Bool, foldedName: (Int) -> String, order: (Int) -> Int?, path: (Int) -> String
    ) -> (places: [Int], entryIndices: [Int]) {
        let listed = (0..<count).filter(isList)
        let places = SortKey.listOrder(foldedNames: listed.map(foldedName), orders: listed.map(order), paths: listed.map(path))
        return (places, places.map { listed[$0] })
    }

    /// Makes `entries` the cache's lists. The new lists' encodings and a new
    /// index are appended to the cache file `keptIn` was loaded from, when
    /// that is still the file at the path and holds no more bytes that no
    /// index points to than bytes it does; otherwise a new file is written
    /// (every list, then the index), through a temporary file and a rename,
    /// so readers see the old file or the new one. `scanStarted` is when
    /// the walk that stamped the files began (nanoseconds since 1970): an
    /// entry counts only if its file's timestamps were settled then
    /// (`Contents.trustedPlace(of:at:stamp:)`). Failing to write a cache is not an error:
    /// tick works without one.
    ///
    /// `listOrder`, when given, is the list order of `entries`, known to
    /// be `base`'s (the loader tells: no list renamed); an append takes it
    /// instead of sorting every list again.
    func save(
        _ entries: [(path: String, stamp: FileStamp, source: Source)], scanStarted: Int, keptIn base: Contents?, listOrder: [Int]? = nil
    ) {
        if let base, append(entries, scanStarted: scanStarted, to: base, listOrder: listOrder) { return }
        rewrite(
            entries.filter { if case .kept = $0.source { return base != nil } else { return true } },
            scanStarted: scanStarted, keptIn: base)
    }

    /// The index of `entries`, whose payloads start at `offsets` in the
    /// file, with its checksum; then the trailer that points to it at `start`.
    func indexAndTrailer(
        _ entries: [(path: String, stamp: FileStamp, source: Source)], offsets: [Int],
        listOrder: [Int], scanStarted: Int, start: Int
    ) -> [UInt8] {
        var index = ByteWriter()
        index.bytes.reserveCapacity(entries.count * 128)
        index.int(scanStarted)
        index.int(entries.count)
        // Each entry read where it lies: a copy of it (or of its source's
        // payload) retained and released its strings, several times an
        // entry, on the thread that saves while a query runs.
        entries.withUnsafeBufferPointer { entries in
            for position in entries.indices {
                let stamp = entries[position].stamp
                index.string(entries[position].path)
                index.int(stamp.size)
                index.int(stamp.modifiedSeconds)
                index.int(stamp.modifiedNanoseconds)
                index.int(stamp.changedSeconds)
                index.int(stamp.changedNanoseconds)
                index.int(stamp.inode)
                index.int(stamp.device)
                index.int(offsets[position])
                switch entries[position].source {
                case .fresh(let payload): Self.write(length: payload.buffer.count, payload.checksum, payload.summary, to: &index)
                case .kept(let kept): Self.write(length: kept.payload.count, kept.checksum, kept.summary, to: &index)
                }
            }
        }
        index.int(listOrder.count)
        for place in listOrder { index.int(place) }
        index.word64(index.bytes.withUnsafeBufferPointer { ListPayload.checksum($0) })
        let indexLength = index.bytes.count
        index.word64(UInt64(start))
        index.word64(UInt64(indexLength))
        index.bytes += Self.trailerMagic
        return index.bytes
    }

    /// Writes what the index keeps of a list's payload and of the list
    /// (read back by `load`).
    private static func write(length: Int, _ checksum: UInt64, _ summary: ListSummary, to index: inout ByteWriter) {
        index.int(length)
        index.word64(checksum)
        index.string(summary.name)
        index.optionalInt(summary.order)
        index.bool(summary.isValidUTF8)
        index.int(summary.itemCount)
        index.int(summary.openCount)
        index.int(summary.doneCount)
        index.optionalString(summary.explicitColor)
        index.optionalString(summary.explicitIcon)
        index.byteArray(summary.openDueDays.encoded)
        index.optionalInt(summary.conflictLine)
    }

    /// Appends the fresh payloads, an index and a trailer to the file `base`
    /// was loaded from; false when a new file is to be written instead.
    private func append(
        _ entries: [(path: String, stamp: FileStamp, source: Source)], scanStarted: Int, to base: Contents, listOrder: [Int]?
    ) -> Bool {
        let descriptor = Posix.openFile(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return false }
        defer { Posix.closeFile(descriptor) }
        guard Self.lock(descriptor, LOCK_EX) else { return true } // busy: leave the cache as it is
        defer { Posix.unlock(descriptor) }
        // Still the file `base` mapped, and not shorter (another save only ever appends to it).
        guard let info = Posix.status(of: descriptor), info.inodeNumber == base.fileIdentity.inode,
            info.deviceNumber == base.fileIdentity.device, Int(info.st_size) >= base.length
        else { return false }
        let size = Int(info.st_size)
        var offsets: [Int] = []
        offsets.reserveCapacity(entries.count)
        var fresh: [UnsafeBufferPointer<UInt8>] = []
        var end = size
        var live = 0
        for entry in entries {
            switch entry.source {
            case .kept(let kept):
                offsets.append(kept.payload.lowerBound)
            case .fresh(let payload):
                offsets.append(end)
                end += payload.buffer.count
                fresh.append(payload.buffer)
            }
            live += entry.source.length
        }
        let listOrder = listOrder ?? Self.listOrder(entries).places
        let tail = indexAndTrailer(entries, offsets: offsets, listOrder: listOrder, scanStarted: scanStarted, start: end)
        // Mostly bytes no index points to: write the file anew instead.
        guard end + tail.count <= 2 * live + (1 << 20) else { return false }
        guard Posix.seek(descriptor, to: size) else { return true }
        let complete = tail.withUnsafeBufferPointer { Posix.writeAll(fresh + [$0], to: descriptor) }
        // A failed append is taken back: the file ends with the last good trailer again.
        if !complete { Posix.truncate(descriptor, to: size) }
        return true
    }

    /// A temporary file beside the cache file, for `purpose` (`spool`,
    /// `ordered`): a name `removeStaleTemporaries` knows (`*.cache.PID.tmp`),
    /// and none other than `rewrite`'s, so that no two writers share one.
    func temporaryPath(_ purpose: String) -> String {
        String(path.dropLast(".cache".count)) + ".\(purpose).cache.\(Posix.processID).tmp"
    }

    /// What a cache file starts with: magic, format version, field table and root.
    func header() -> [UInt8] {
        var header = ByteWriter()
        header.bytes = Self.magic
        header.int(Self.formatVersion)
        header.int(Self.fieldTable)
        header.string(root)
        return header.bytes
    }

    /// Writes a new cache file holding `entries`.
    private func rewrite(_ entries: [(path: String, stamp: FileStamp, source: Source)], scanStarted: Int, keptIn base: Contents?) {
        let header = self.header()
        // The lists are written in list order, the other entries after them:
        // a command that reads every list reads the file from start to end,
        // however its pages are mapped (a few pages around each one read).
        let listOrder = Self.listOrder(entries)
        let writeOrder = listOrder.entryIndices + entries.indices.filter { !entries[$0].source.summary.isValidUTF8 }
        var offsets = [Int](repeating: 0, count: entries.count)
        var payloads: [UnsafeBufferPointer<UInt8>] = []
        payloads.reserveCapacity(entries.count)
        var end = header.count
        for position in writeOrder {
            let entry = entries[position]
            offsets[position] = end
            end += entry.source.length
            switch entry.source {
            case .fresh(let payload): payloads.append(payload.buffer)
            case .kept(let kept): payloads.append(UnsafeBufferPointer(rebasing: base!.buffer[kept.payload]))
            }
        }
        let tail = indexAndTrailer(entries, offsets: offsets, listOrder: listOrder.places, scanStarted: scanStarted, start: end)

        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = path + ".\(Posix.processID).tmp"
        let descriptor = Posix.openFile(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions: 0o600)
        guard descriptor >= 0 else { return }
        let complete = header.withUnsafeBufferPointer { header in
            tail.withUnsafeBufferPointer { tail in Posix.writeAll([header] + payloads + [tail], to: descriptor) }
        }
        Posix.closeFile(descriptor)
        if !complete || !Posix.rename(temporary, to: path) { Posix.remove(temporary) }
        Self.removeStaleTemporaries(in: folder)
    }

    /// Removes the temporary files (`*.cache.PID.tmp`) that saves killed
    /// halfway left in the cache folder: those of a process that is gone,
    /// and any older than ten minutes (its PID may have been given to
    /// another process since). A save under way is a live process with a
    /// fresh file, and is left alone.
    static func removeStaleTemporaries(in folder: String, now: Int = Posix.secondsNow()) {
        guard let directory = Posix.OpenFolder(folder) else { return }
        let descriptor = directory.descriptor
        while let entry = directory.nextEntry() {
            let name = String(cString: entry.name)
            let parts = name.split(separator: ".")
            guard parts.count >= 4, parts.last == "tmp", parts[parts.count - 3] == "cache",
                let pid = pid_t(parts[parts.count - 2]), pid > 0
            else { continue }
            guard let status = Posix.status(in: descriptor, name), status.isRegularFile else { continue }
            let gone = Posix.processIsGone(pid)
            if gone || now - status.modificationTime.seconds > 600 { Posix.remove(in: descriptor, name) }
        }
    }
}
