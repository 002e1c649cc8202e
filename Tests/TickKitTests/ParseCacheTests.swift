import Foundation
import Testing

@testable import TickEngine
@testable import TickModel
@testable import TickOutput
@testable import TickRecords
@testable import TickStore
@testable import TickSyntax
@testable import TickSystem

/// The parse cache gives the same answers as parsing, is checked per file,
/// survives damage, and is never used for edits.
@Suite("Parse cache")
struct ParseCacheTests {
    /// Everything a read command can show of a document.
    func fingerprint(_ document: Document) -> String {
        let list = readModel(document)
        var parts = [ItemJSON.list(list).serialized(), document.name, document.color, document.icon]
        parts += document.sections.map { "\($0.level) \($0.title) \($0.line) \($0.range) \($0.color ?? "-") \($0.icon ?? "-")" }
        parts += document.diagnostics.map { "\($0.line):\($0.column) \($0.message)" }
        for (item, listed) in zip(document.items, list.items()) {
            parts.append(ItemJSON.item(listed, context: ItemContext(today: Fixture.today, dependencies: .none)).serialized())
            parts.append(
                "\(item.index) \(item.lastLine) \(item.markerRange) \(item.boxRange) \(item.titleRange) \(item.blockRange) \(item.children) \(item.quoteDepth) \(item.noteLines)"
            )
            parts.append(
                item.runs.map { "\($0.text)|\($0.range)|\($0.styles.rawValue)|\($0.url ?? "")|\(String(describing: $0.token))" }.joined(
                    separator: ";"))
            parts.append("\(item.metadata == ItemMetadata(tokens: item.runs.tokens))")
        }
        return parts.joined(separator: "\n")
    }

    @Test("a document read back from the cache equals the parsed one", arguments: TestPaths.allMarkdownFiles())
    func roundTrip(file: URL) throws {
        let document = DocumentParser.parse(try FileIO.read(file.path), path: file.lastPathComponent)
        var writer = ByteWriter()
        try DocumentCoding.encode(document, into: &writer)
        let decoded = try writer.bytes.withUnsafeBufferPointer { try DocumentCoding.decode($0) }
        #expect(fingerprint(decoded) == fingerprint(document))
    }

    @Test("a truncated or damaged encoding is an error, never a crash")
    func damagedEncodingThrows() throws {
        let document = parse("---\ntitle: T\nextra: [1, {a: b}]\n---\n# T\n## S\n- [ ] a due:2026-11-24 #x k:v\n  note\n  - [x] b\n")
        var writer = ByteWriter()
        try DocumentCoding.encode(document, into: &writer)
        let bytes = writer.bytes
        var failures = 0
        for cut in stride(from: 0, to: bytes.count, by: 3) {
            let truncated = Array(bytes[0..<cut])
            let decoded = truncated.withUnsafeBufferPointer { try? DocumentCoding.decode($0) }
            if decoded == nil { failures += 1 }
        }
        #expect(failures == (bytes.count + 2) / 3)
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            var damaged = bytes
            damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = damaged.withUnsafeBufferPointer { try? DocumentCoding.decode($0) }
            // Read in place, every field of every item, as a query would.
            try? damaged.withUnsafeBufferPointer { buffer in
                let encoded = try EncodedDocument(buffer, owner: damaged as AnyObject)
                let workspace = EncodedWorkspace(documents: [encoded])
                _ = ItemJSON.itemsDocumentBytes(workspace.items, context: ItemContext(today: Fixture.today, dependencies: .none))
                for item in workspace.items { _ = (item.tags.map(\.string), item.fields.count, item.sectionTitle?.string) }
            }
        }
    }

    /// A cache folder of one test's own, removed with it.
    final class CacheFolder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tick-cache-\(UUID().uuidString)").path

        deinit { try? FileManager.default.removeItem(atPath: path) }

        /// The parse cache of `folder` kept here.
        func parseCache(of folder: TemporaryFolder) throws -> ParseCache {
            try #require(
                ParseCache(
                    root: NotesFolder(path: folder.path).root,
                    environment: ["XDG_CACHE_HOME": path, "TICK_TEST_TIMESTAMP_GRANULARITY_MS": TickRunner.timestampGranularity]))
        }
    }

    @Test("a change to one list appends its encoding and a new index; the bytes already in the cache stay where they are")
    func changeAppends() throws {
        var files: [String: String] = [:]
        for number in 0..<40 {
            files["n\(number).md"] = "# Note \(number)\n" + (0..<20).map { "- [ ] task \(number)-\($0) due:2026-11-2\($0 % 9)\n" }.joined()
        }
        let folder = try TemporaryFolder(files)
        let cache = CacheFolder()
        _ = try run(["query", "open", "--json"], folder, cache: cache)
        let cacheFile = try cache.parseCache(of: folder).path
        let before = try Data(contentsOf: URL(fileURLWithPath: cacheFile))
        try folder.write("n7.md", files["n7.md"]! + "- [ ] the new one\n")
        let after = try run(["query", "open", "--json"], folder, cache: cache)
        #expect(after.stdout.contains("the new one"))
        let grown = try Data(contentsOf: URL(fileURLWithPath: cacheFile))
        #expect(grown.count > before.count && grown.prefix(before.count) == before, "not appended")
        #expect(grown.count - before.count < before.count / 4, "appended \(grown.count - before.count) bytes to \(before.count)")
        // The next run takes every list from the grown file, and answers as without a cache.
        let uncached = try TickRunner.run(
            ["query", "open", "--json", "--dir", folder.path, "--today", "2026-11-21"], environment: ["TICK_NO_CACHE": "1"])
        let warm = try run(["query", "open", "--json"], folder, cache: cache)
        #expect(warm.stdoutBytes == uncached.stdoutBytes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cacheFile)) == grown, "an unchanged folder rewrote its cache")
    }

    @Test("a load started early is what the next load of the same cache file reads, once; a load of another file leaves it")
    func earlyLoadIsTakenByTheNextLoadOfItsFile() throws {
        let notes = try TemporaryFolder(["a.md": "# A\n- [ ] one\n", "b.md": "# B\n- [ ] two\n"])
        let other = try TemporaryFolder(["c.md": "# C\n- [ ] three\n"])
        let cache = CacheFolder()
        _ = try run(["query", "open", "--json"], notes, cache: cache)
        _ = try run(["query", "open", "--json"], other, cache: cache)
        let notesCache = try cache.parseCache(of: notes)
        let otherCache = try cache.parseCache(of: other)
        func paths(_ contents: ParseCache.Contents?) -> [String] { contents?.entries.map(\.path).sorted() ?? [] }

        notesCache.startLoading()
        #expect(paths(otherCache.load()) == ["c.md"], "a load of another folder's cache read the one started early")
        let started = try #require(ParseCache.EarlyLoad.slot.withLock { $0 }, "the load started early was taken by another file")
        started.done.wait()
        // What it read stands, even once the file is no longer a cache.
        try Data("not a cache".utf8).write(to: URL(fileURLWithPath: notesCache.path))
        #expect(paths(notesCache.load()) == ["a.md", "b.md"])
        #expect(notesCache.load() == nil, "a second load took the early one again instead of reading the file")
    }

    /// Forty lists whose names sort the other way round from their paths,
    /// so that list order and the folder's walk order differ.
    static func listsNamedAgainstTheirPaths(itemsEach: Int = 20) -> [String: String] {
        var files: [String: String] = [:]
        for number in 0..<40 {
            files["n\(String(format: "%02d", number)).md"] =
                "# Note \(String(format: "%02d", 99 - number))\n"
                + (0..<itemsEach).map { "- [ ] task \(number)-\($0) due:2026-11-2\($0 % 9)\n" }.joined()
        }
        return files
    }

    /// With 1,500 items a list, the lists' encodings take several of the
    /// pieces the spool is copied in, on every core, into the new file.
    @Test(
        "a cold run writes its cache once, the lists in list order, and answers from it as without a cache",
        arguments: [20, 1500])
    func coldRunWritesOnceInListOrder(itemsEach: Int) throws {
        let folder = try TemporaryFolder(Self.listsNamedAgainstTheirPaths(itemsEach: itemsEach))
        let cache = CacheFolder()
        let cold = try run(["query", "open", "--json"], folder, cache: cache)
        let uncached = try TickRunner.run(
            ["query", "open", "--json", "--dir", folder.path, "--today", "2026-11-21"], environment: ["TICK_NO_CACHE": "1"])
        #expect(cold.stdoutBytes == uncached.stdoutBytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path + "/tick").count == 1, "a spool or temporary file was left")
        let parseCache = try cache.parseCache(of: folder)
        let contents = try #require(parseCache.load())
        #expect(contents.entries.count == 40)
        // In list order (Note 60 first, the last path), one after another from
        // the header on: nothing was appended, so no list read back from the
        // new file failed its check.
        let inListOrder = contents.listOrder.map { contents.entries[$0] }
        #expect(inListOrder.first?.path == "n39.md")
        var next = parseCache.header().count
        for entry in inListOrder {
            #expect(entry.payload.lowerBound == next, "\(entry.path)")
            next = entry.payload.upperBound
        }
        let written = try Data(contentsOf: URL(fileURLWithPath: parseCache.path))
        let indexLength = written.count - next - ParseCache.trailerLength
        // About a hundred bytes a list, and a byte for each open item's due day.
        #expect(indexLength > 0 && indexLength < 40 * (100 + itemsEach), "\(indexLength) bytes after the lists")
        if itemsEach > 20 { #expect(next > 3 * ParseCache.Spool.pieceLength, "the lists fit one piece") }
        let warm = try run(["query", "open", "--json"], folder, cache: cache)
        #expect(warm.stdoutBytes == uncached.stdoutBytes)
        // Every list passed its check: none was parsed again and appended.
        #expect(try Data(contentsOf: URL(fileURLWithPath: parseCache.path)) == written, "the warm run changed the cache file")
    }

    @Test("when the new cache file cannot be written, the lists are read from the spool and no file is left behind")
    func coldRunWithoutRoomForTheCacheReadsTheSpool() throws {
        let folder = try TemporaryFolder(Self.listsNamedAgainstTheirPaths())
        let notes = try NotesFolder(path: folder.path)
        let cacheFolder = CacheFolder()
        let cache = try cacheFolder.parseCache(of: folder)
        // A folder where the new cache file would be made: it cannot be opened as a file.
        let blocked = cache.temporaryPath("ordered")
        try FileManager.default.createDirectory(atPath: blocked, withIntermediateDirectories: true)
        let loaded = notes.loadEncoded(cache: cache)
        #expect(loaded.documents.allSatisfy { $0.mapping != nil }, "parsed again instead of read from the spool")
        let fromSpool = EncodedWorkspace(
            documents: loaded.documents, warnings: loaded.warnings, repairs: loaded.repairs, listOrder: loaded.listOrder, skipped: loaded.skipped)
        let parsed = EncodedWorkspace(documents: notes.loadEncoded().documents)
        let context = ItemContext(today: Fixture.today, dependencies: .none)
        #expect(ItemJSON.itemsDocumentBytes(fromSpool.items, context: context) == ItemJSON.itemsDocumentBytes(parsed.items, context: context))
        #expect(fromSpool.items.count == 800)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cacheFolder.path + "/tick") == [(blocked as NSString).lastPathComponent])
    }

    @Test("a cache file holding more bytes no index points to than bytes it does is written anew")
    func deadBytesAreCompacted() throws {
        let big = (0..<6000).map { "- [ ] item \($0) with some words to make it longer due:2026-11-2\($0 % 9)\n" }.joined()
        let folder = try TemporaryFolder(["big.md": big, "small.md": "- [ ] small\n"])
        let cache = CacheFolder()
        _ = try run(["query", "open", "--json"], folder, cache: cache)
        let cacheFile = try cache.parseCache(of: folder).path
        let firstSize = try Data(contentsOf: URL(fileURLWithPath: cacheFile)).count
        var sizes: [Int] = []
        for round in 0..<12 {
            try folder.write("big.md", big + "- [ ] round \(round)\n")
            let result = try run(["query", "open", "--json"], folder, cache: cache)
            #expect(result.stdout.contains("round \(round)"))
            sizes.append(try Data(contentsOf: URL(fileURLWithPath: cacheFile)).count)
        }
        // It grew by appends, and shrank again when written anew; never past twice its live bytes and a megabyte.
        #expect(sizes.contains { $0 > firstSize * 3 / 2 }, "never appended: \(sizes)")
        #expect(zip(sizes, sizes.dropFirst()).contains { $0 > $1 }, "never written anew: \(sizes)")
        #expect(sizes.allSatisfy { $0 <= 2 * (firstSize + 100) + (1 << 20) + firstSize }, "\(sizes)")
    }

    @Test("an append cut short, or bytes after the last trailer, are never trusted: the answer is right and the cache written anew")
    func tornAppendIsIgnored() throws {
        let folder = try TemporaryFolder(["a.md": "- [ ] alpha\n", "b.md": "- [ ] beta\n"])
        let cache = CacheFolder()
        _ = try run(["query", "open", "--json"], folder, cache: cache)
        try folder.write("a.md", "- [ ] alpha two\n")
        _ = try run(["query", "open", "--json"], folder, cache: cache) // appends
        let cacheFile = try cache.parseCache(of: folder).path
        let appended = try Data(contentsOf: URL(fileURLWithPath: cacheFile))
        let uncached = try TickRunner.run(
            ["query", "open", "--json", "--dir", folder.path, "--today", "2026-11-21"], environment: ["TICK_NO_CACHE": "1"])
        for damage in [appended.dropLast(5), appended + Data(repeating: 0x41, count: 300), appended.dropLast(24) + Data(count: 24)] {
            try Data(damage).write(to: URL(fileURLWithPath: cacheFile))
            #expect(try cache.parseCache(of: folder).load() == nil)
            let result = try run(["query", "open", "--json"], folder, cache: cache)
            #expect(result.stdoutBytes == uncached.stdoutBytes)
            #expect(result.stderr.isEmpty)
            #expect(try cache.parseCache(of: folder).load()?.entries.count == 2, "not written anew")
        }
    }

    @Test("saves appending at once from many processes leave a cache that reads right")
    func concurrentAppends() throws {
        var files: [String: String] = [:]
        for number in 0..<12 { files["n\(number).md"] = "- [ ] note \(number)\n" }
        let folder = try TemporaryFolder(files)
        let cache = CacheFolder()
        _ = try run(["query", "open", "--json"], folder, cache: cache)
        for number in 0..<12 { try folder.write("n\(number).md", "- [ ] note \(number) changed\n") }
        let arguments = ["query", "open", "--json", "--dir", folder.path, "--today", "2026-11-21"]
        let environment = ["XDG_CACHE_HOME": cache.path]
        DispatchQueue.concurrentPerform(iterations: 8) { _ in _ = try? TickRunner.run(arguments, environment: environment) }
        let contents = try #require(try cache.parseCache(of: folder).load())
        #expect(contents.entries.count == 12)
        let uncached = try TickRunner.run(
            ["query", "open", "--json", "--dir", folder.path, "--today", "2026-11-21"], environment: ["TICK_NO_CACHE": "1"])
        let warm = try run(["query", "open", "--json"], folder, cache: cache)
        #expect(warm.stdoutBytes == uncached.stdoutBytes)
    }

    @Test("a cache entry made within its file's timestamp granularity is not trusted: a change the stamp cannot show is read")
    func unsettledEntriesAreParsedAgain() throws {
        // The state a same-size save in the same second leaves on a file
        // system with whole-second times: the cache holds the old text
        // under a stamp equal to the new file's, made in that second.
        let folder = try TemporaryFolder(["a.md": "- [ ] new text\n"])
        let notes = try NotesFolder(path: folder.path)
        let stamp = try #require(notes.listFileEntries().files.first?.stamp)
        let cacheFolder = CacheFolder()
        let cache = try #require(ParseCache(root: notes.root, environment: ["XDG_CACHE_HOME": cacheFolder.path]))
        let old = try #require(ListPayload(encoding: parse("- [ ] old text\n", path: "a.md")))
        func titles(savedAt scanStarted: Int) -> [String] {
            cache.save([("a.md", stamp, .fresh(old))], scanStarted: scanStarted, keptIn: nil)
            return notes.loadAll(cache: cache).documents.flatMap { $0.items.map(\.title) }
        }
        // Made while the stamp was within its granularity (50 ms for nanosecond times): parsed again.
        #expect(titles(savedAt: stamp.latestTime + 10_000_000) == ["new text"])
        // Made when the stamp had long settled: trusted (which is how this test sees the difference).
        #expect(titles(savedAt: stamp.latestTime + 60_000_000_000) == ["old text"])
        // Whole-second stamps (ext2, ext3, FAT, HFS+) are settled only 2 s later.
        var coarse = stamp
        coarse.modifiedNanoseconds = 0
        coarse.changedNanoseconds = 0
        #expect(!coarse.isSettled(before: coarse.latestTime + 1_900_000_000))
        #expect(coarse.isSettled(before: coarse.latestTime + 2_100_000_000))
        #expect(!stamp.isSettled(before: stamp.latestTime + 40_000_000) || stamp.modifiedNanoseconds == 0 && stamp.changedNanoseconds == 0)
        #expect(stamp.isSettled(before: stamp.latestTime + 2_100_000_000))
    }

    @Test("a file parsed again because its entry was unsettled is saved settled: the next run takes it from the cache")
    func unsettledEntriesSettle() throws {
        let folder = try TemporaryFolder(["a.md": "- [ ] text\n"])
        let notes = try NotesFolder(path: folder.path)
        let cacheFolder = CacheFolder()
        let cache = try cacheFolder.parseCache(of: folder) // granularity 0: settled once older than the scan
        let stamp = try #require(notes.listFileEntries().files.first?.stamp)
        let old = try #require(ListPayload(encoding: parse("- [ ] stale\n", path: "a.md")))
        cache.save([("a.md", stamp, .fresh(old))], scanStarted: stamp.latestTime, keptIn: nil)
        #expect(notes.loadAll(cache: cache).documents.flatMap { $0.items.map(\.title) } == ["text"])
        let saved = try #require(cache.load())
        #expect(saved.scanStarted > stamp.latestTime)
        let document = try #require(saved.trustedPlace(of: "a.md", at: 0, stamp: stamp).flatMap(saved.document(at:)))
        #expect(document.items.map(\.title) == ["text"])
    }

    func run(_ arguments: [String], _ folder: TemporaryFolder, cache: CacheFolder) throws -> TickRun {
        try TickRunner.run(arguments + ["--dir", folder.path, "--today", "2026-11-21"], environment: ["XDG_CACHE_HOME": cache.path])
    }

    static let commands: [[String]] = [
        ["query", "open and due <= +7d", "--json"], ["today", "--color", "always"], ["all", "--group-by", "list"],
        ["lists", "--json"], ["export", "--format", "ics"], ["export", "--format", "csv"], ["show", "work", "--notes", "--color", "always"],
        ["completed", "--json"], ["scheduled"],
    ]

    @Test("every read command prints the same bytes cold, warm and without a cache")
    func warmEqualsCold() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.removeItem(at: folder.url)
        try FileManager.default.copyItem(at: TestPaths.examples, to: folder.url)
        let cache = CacheFolder()
        for command in Self.commands {
            let uncached = try TickRunner.run(command + ["--dir", folder.path, "--today", "2026-11-21"], environment: ["TICK_NO_CACHE": "1"])
            let cold = try run(command, folder, cache: cache)
            let warm = try run(command, folder, cache: cache)
            #expect(uncached.status == 0, "\(command)")
            #expect(cold.stdoutBytes == uncached.stdoutBytes, "\(command)")
            #expect(warm.stdoutBytes == uncached.stdoutBytes, "\(command)")
            #expect(warm.stderr == uncached.stderr, "\(command)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path + "/tick")
        #expect(files.count == 1)
    }

    @Test("a changed file is parsed again; the others still come from the cache")
    func invalidationPerFile() throws {
        let folder = try TemporaryFolder(["a.md": "- [ ] alpha due:2026-11-21\n", "b.md": "- [ ] beta due:2026-11-21\n"])
        let cache = CacheFolder()
        #expect(try run(["today", "--json"], folder, cache: cache).stdout.contains("alpha"))
        try folder.write("a.md", "- [ ] gamma due:2026-11-21\n") // same size, new content
        let after = try run(["today", "--json"], folder, cache: cache)
        #expect(after.stdout.contains("gamma"))
        #expect(!after.stdout.contains("alpha"))
        #expect(after.stdout.contains("beta"))
        try folder.write("c.md", "- [ ] delta due:2026-11-21\n")
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("b.md"))
        let later = try run(["today", "--json"], folder, cache: cache)
        #expect(later.stdout.contains("delta") && !later.stdout.contains("beta"))
    }

    /// Lists whose order takes every rule: `order:` first, then folded
    /// names (case and accents), then paths for equal names; a list that is
    /// not UTF-8 (left out of the workspace) between them.
    static let orderedLists: [String: String] = [
        "b/zeta.md": "# Zeta\n- [ ] z\n", "a/Alpha.md": "# alpha\n- [ ] a\n", "c/alpha.md": "# Alpha\n- [ ] a2\n",
        "first.md": "---\norder: 1\n---\n# Zulu\n- [ ] first\n", "second.md": "---\norder: 2\n---\n# Able\n- [ ] second\n",
        "eclair.md": "# Éclair\n- [ ] e\n", "echo.md": "# echo\n- [ ] e2\n", "m/Mid.md": "# mid\n- [ ] m\n",
    ]

    /// `orderedLists` and `bad.md`, a file that is not UTF-8 (no list).
    static func orderedListsAndAFileNotUTF8() throws -> TemporaryFolder {
        let folder = try TemporaryFolder(orderedLists)
        try Data([0x2D, 0x20, 0x5B, 0x20, 0x5D, 0x20, 0xFF, 0x0A]).write(to: folder.url.appendingPathComponent("bad.md"))
        return folder
    }

    func workspace(_ folder: TemporaryFolder, cache: CacheFolder) throws -> EncodedWorkspace {
        EncodedWorkspace.load(try NotesFolder(path: folder.path), cache: try cache.parseCache(of: folder))
    }

    @Test("a query over an unchanged folder takes the list order the cache stored, the same as computing it")
    func storedListOrderIsTheComputedOne() throws {
        let folder = try Self.orderedListsAndAFileNotUTF8()
        let cache = CacheFolder()
        // A cold run reads its lists back from the cache file it made, with the order that file stores.
        let cold = try workspace(folder, cache: cache)
        #expect(cold.orderCameFromCache)
        // A list changed but not renamed keeps its place: the order stored holds.
        try folder.write("echo.md", "# echo\n- [ ] e2 changed\n")
        let changed = try workspace(folder, cache: cache)
        #expect(changed.orderCameFromCache)
        let warm = try workspace(folder, cache: cache)
        #expect(warm.orderCameFromCache)
        let computed = EncodedWorkspace(documents: warm.documents).pathsInListOrder
        #expect(warm.pathsInListOrder == computed)
        #expect(cold.pathsInListOrder == computed)
        #expect(changed.pathsInListOrder == computed)
        #expect(computed.first == "first.md" && computed.dropFirst().first == "second.md")
        #expect(!computed.contains("bad.md"))
    }

    @Test("a cache written with another field table is not trusted: the folder is parsed again")
    func anotherFieldTableIsNotTrusted() throws {
        let folder = try Self.orderedListsAndAFileNotUTF8()
        let cache = CacheFolder()
        _ = try workspace(folder, cache: cache)
        #expect(try workspace(folder, cache: cache).orderCameFromCache)
        // The header: magic, the format version (one LEB128 byte), then the
        // table's fingerprint; change a low bit of its first byte.
        let file = try cache.parseCache(of: folder).path
        var bytes = try FileIO.read(file)
        let fingerprintStart = ParseCache.magic.count + 1
        bytes[fingerprintStart] ^= 0x02
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(try cache.parseCache(of: folder).load() == nil)
        let again = try workspace(folder, cache: cache)
        #expect(again.documents.count == Self.orderedLists.count)
        // Written anew, with this table.
        #expect(try FileIO.read(file)[fingerprintStart] != bytes[fingerprintStart])
        #expect(try cache.parseCache(of: folder).load() != nil)
    }

    @Test("a new cache file holds the lists in list order, the files that are not lists after them")
    func newCacheFileIsInListOrder() throws {
        let folder = try Self.orderedListsAndAFileNotUTF8()
        let cache = CacheFolder()
        let warm = try workspace(folder, cache: cache)
        let contents = try #require(try cache.parseCache(of: folder).load())
        let listed = contents.entries.filter(\.summary.isValidUTF8)
        let starts = contents.listOrder.map { listed[$0].payload.lowerBound }
        #expect(starts == starts.sorted())
        #expect(contents.listOrder.map { listed[$0].path } == warm.pathsInListOrder)
        let bad = try #require(contents.entries.first { !$0.summary.isValidUTF8 })
        #expect(bad.payload.lowerBound > starts.max()!)
    }

    @Test("when a list's name changes, its new place is computed, not taken from the cache")
    func changedNameIsPlacedAfresh() throws {
        let folder = try TemporaryFolder(Self.orderedLists)
        let cache = CacheFolder()
        _ = try workspace(folder, cache: cache)
        try folder.write("m/Mid.md", "# Aardvark\n- [ ] m\n")
        let changed = try workspace(folder, cache: cache)
        #expect(!changed.orderCameFromCache)
        #expect(changed.pathsInListOrder == EncodedWorkspace(documents: changed.documents).pathsInListOrder)
        #expect(changed.pathsInListOrder.dropFirst(2).first == "m/Mid.md")
        // Saved again with the new order, which the next query takes.
        let warm = try workspace(folder, cache: cache)
        #expect(warm.orderCameFromCache)
        #expect(warm.pathsInListOrder == changed.pathsInListOrder)
        // A list given an `order:`, and a list whose bytes stop being UTF-8:
        // each saved with the order computed again, never the one before.
        try folder.write("echo.md", "---\norder: 0\n---\n# echo\n- [ ] e2\n")
        let reordered = try workspace(folder, cache: cache)
        #expect(!reordered.orderCameFromCache && reordered.pathsInListOrder.first == "echo.md")
        let ordered = try workspace(folder, cache: cache)
        #expect(ordered.orderCameFromCache)
        #expect(ordered.pathsInListOrder.first == "echo.md")
        #expect(ordered.pathsInListOrder == EncodedWorkspace(documents: ordered.documents).pathsInListOrder)
        try Data([0x23, 0x20, 0x5A, 0x0A, 0x2D, 0x20, 0x5B, 0x20, 0x5D, 0x20, 0xFF, 0x0A]).write(to: folder.url.appendingPathComponent("b/zeta.md"))
        let notUTF8 = try workspace(folder, cache: cache)
        #expect(!notUTF8.orderCameFromCache && !notUTF8.pathsInListOrder.contains("b/zeta.md"))
        let withoutZeta = try workspace(folder, cache: cache)
        #expect(withoutZeta.orderCameFromCache)
        #expect(!withoutZeta.pathsInListOrder.contains("b/zeta.md"))
        #expect(withoutZeta.pathsInListOrder == EncodedWorkspace(documents: withoutZeta.documents).pathsInListOrder)
    }

    @Test("a save after an edit that renames no list keeps the list order the cache stored")
    func unchangedNamesKeepTheStoredOrder() throws {
        let folder = try Self.orderedListsAndAFileNotUTF8()
        let cache = CacheFolder()
        _ = try workspace(folder, cache: cache)
        let before = try #require(try cache.parseCache(of: folder).load())
        try folder.write("echo.md", "# echo\n- [ ] e2 changed\n- [ ] e3\n")
        _ = try workspace(folder, cache: cache)
        let after = try #require(try cache.parseCache(of: folder).load())
        // Appended (the first payload where it was), with the same order.
        #expect(after.length > before.length && after.entries.first?.payload == before.entries.first?.payload)
        #expect(after.listOrder == before.listOrder)
        #expect(
            try workspace(folder, cache: cache).pathsInListOrder
                == EncodedWorkspace(documents: try workspace(folder, cache: cache).documents).pathsInListOrder)
    }

    @Test(
        "a damaged or half-written cache file is ignored and rebuilt, a damaged list repaired",
        arguments: [["all", "--json"], ["query", "open", "--json"]])
    func damagedCacheIsRebuilt(command: [String]) throws {
        let folder = try TemporaryFolder([
            "a.md": "# A\n- [ ] alpha due:2026-11-21 #x\n- [x] done one\n",
            "b.md": "---\ntitle: Bee\n---\n- [ ] beta\n  a note\n",
        ])
        let cache = CacheFolder()
        let expected = try run(command, folder, cache: cache)
        let cacheFile = try cache.parseCache(of: folder).path
        let good = try Data(contentsOf: URL(fileURLWithPath: cacheFile))
        #expect(good.count > 20)
        /// What a cache holds, apart from when its scan started.
        func summary() throws -> [String] {
            let contents = try #require(try cache.parseCache(of: folder).load())
            // Every list's payload checks out (a damaged one repaired, by an append or a new file).
            for entry in contents.entries {
                #expect(
                    contents.trustedPlace(of: entry.path, at: 0, stamp: entry.stamp).flatMap(contents.document(at:)) != nil,
                    "\(entry.path)'s payload is damaged")
            }
            return contents.entries.map { "\($0.path) \($0.stamp) \($0.checksum) \($0.payload.count)" } + ["\(contents.listOrder)"]
        }
        let goodSummary = try summary()
        var damages: [Data] = [Data(), good.prefix(good.count / 2), Data(repeating: 0xFF, count: 100)]
        // A flipped bit in the index, in each payload (the index is checked
        // when the cache is opened; a payload when its list is first read),
        // and in the last byte.
        for position in [40, good.count / 2, good.count * 3 / 4, good.count - 1] {
            var flipped = good
            flipped[position] ^= 0x40
            damages.append(flipped)
        }
        for damage in damages {
            try damage.write(to: URL(fileURLWithPath: cacheFile))
            let result = try run(command, folder, cache: cache)
            #expect(result.status == 0)
            #expect(result.stdoutBytes == expected.stdoutBytes)
            #expect(result.stderr.isEmpty)
            let rebuilt = try Data(contentsOf: URL(fileURLWithPath: cacheFile))
            let rebuiltSummary = try summary()
            #expect(rebuilt.count >= good.count && rebuiltSummary == goodSummary, "the cache is not repaired")
        }
    }

    /// Flips a byte of the cached payload of the list at `path`; returns
    /// the cache and its damaged bytes.
    func damagePayload(of path: String, in folder: TemporaryFolder, cache: CacheFolder) throws -> (ParseCache, Data) {
        let parseCache = try cache.parseCache(of: folder)
        let contents = try #require(parseCache.load())
        let entry = try #require(contents.entries.first { $0.path == path })
        var damaged = try Data(contentsOf: URL(fileURLWithPath: parseCache.path))
        damaged[entry.payload.upperBound - 3] ^= 0x40
        try damaged.write(to: URL(fileURLWithPath: parseCache.path))
        return (parseCache, damaged)
    }

    @Test("the list of lists takes each list's counts, color and icon from the cache's index: they are what the records say, and no payload is read")
    func listsReadOnlyTheIndex() throws {
        let folder = try TemporaryFolder([
            "a.md": "---\ncolor: red\nicon: cart\n---\n# Alpha\n- [ ] one\n- [x] two\n- [/] three\n- [-] four\n",
            "b.md": "# Beta\n- [x] five\n- [ ] six\n",
        ])
        let cache = CacheFolder()
        let expected = try run(["lists"], folder, cache: cache)
        #expect(expected.status == 0 && expected.stdout.contains("Alpha"))
        let loaded = try workspace(folder, cache: cache)
        let headers = loaded.listHeadersInOrder
        let fromIndex = loaded.listCounts().map { [$0.open, $0.done] }
        #expect(headers.map { [$0.path, $0.color, $0.icon] } == [["a.md", "red", "cart"], ["b.md", "blue", "list.bullet"]])
        #expect(headers.allSatisfy { !$0.isComplete }, "a payload was read")
        let checked = loaded.listsInOrder
        #expect(checked.allSatisfy { $0.isComplete })
        #expect(fromIndex == [[2, 1], [1, 1]])
        #expect(fromIndex == checked.map { [$0.count { $0.isOpen }, $0.count { $0 == .done }] })
        // A damaged payload is neither read nor repaired: the lines are the same.
        let (parseCache, damaged) = try damagePayload(of: "b.md", in: folder, cache: cache)
        let listed = try run(["lists"], folder, cache: cache)
        #expect(listed.stdoutBytes == expected.stdoutBytes && listed.stderr.isEmpty)
        let after = try Data(contentsOf: URL(fileURLWithPath: parseCache.path))
        #expect(after == damaged, "lists read (and repaired) a payload")
    }

    @Test("the home screen's counts come from the cache's index: on any day they are what the items say, and no payload is read")
    func homeCountsReadOnlyTheIndex() throws {
        var files = [
            "a.md": """
            # Alpha
            - [ ] due earlier due:2026-11-02
            - [/] due the day before due:2026-11-20
            - [ ] due that day at nine due:2026-11-21T09:00
            - [ ] due that day due:2026-11-21
            - [ ] due next month due:2026-12-01
            - [ ] undated
            - [x] done and due done:2026-11-20 due:2026-11-01
            - [-] cancelled and due due:2026-11-01
            - [ ] another due the day before due:2026-11-20

            """,
            "b.md": "# Beta\n- [x] five\n- [ ] six\n",
        ]
        for number in 0..<40 { files["many/l\(number).md"] = "# L\(number)\n- [ ] item due:2026-11-\(10 + number % 20)\n- [x] done\n" }
        let folder = try TemporaryFolder(files)
        let cache = CacheFolder()
        _ = try run(["lists"], folder, cache: cache)
        for day in ["2026-10-01", "2026-11-01", "2026-11-02", "2026-11-20", "2026-11-21", "2026-11-22", "2027-01-01"] {
            let today = try #require(TaskDate(iso: day))
            let loaded = try workspace(folder, cache: cache)
            let home = loaded.homeCounts(of: SmartGroup.homeGroups, today: today)
            #expect(loaded.listHeadersInOrder.allSatisfy { !$0.isComplete }, "a payload was read")
            let items = loaded.items
            #expect(home.groups == SmartGroup.homeGroups.map { group in items.count { group.contains($0, today: today) } }, "\(day)")
            #expect(home.lists.map { [$0.open, $0.done] } == loaded.listsInOrder.map { [$0.count { $0.isOpen }, $0.count { $0 == .done }] })
        }
    }

    /// Two lists, Alpha and Beta, cached, then Beta's cached copy damaged
    /// (`damagePayload`): the folder, its cache, and the damaged cache file.
    func alphaAndDamagedBeta() throws -> (TemporaryFolder, CacheFolder, ParseCache, Data) {
        let folder = try TemporaryFolder([
            "a.md": "# Alpha\n- [ ] one\n- [ ] two\n", "b.md": "# Beta\n- [ ] three\n- [ ] four with a longer title\n",
        ])
        let cache = CacheFolder()
        _ = try run(["query", "open", "--json"], folder, cache: cache)
        let (parseCache, damaged) = try damagePayload(of: "b.md", in: folder, cache: cache)
        return (folder, cache, parseCache, damaged)
    }

    @Test("show by name reads only the list it shows: a damaged copy of another list is repaired by the next command that reads it, --list too")
    func showByNameReadsOneList() throws {
        let (folder, cache, parseCache, damaged) = try alphaAndDamagedBeta()
        let shown = try run(["show", "alpha"], folder, cache: cache)
        #expect(shown.status == 0 && shown.stdout.contains("two") && !shown.stdout.contains("three"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: parseCache.path)) == damaged, "show read (and repaired) a list it does not show")
        // Reading the damaged list itself repairs it, as any read does.
        let other = try run(["query", "open", "--list", "beta"], folder, cache: cache)
        #expect(other.stdout.contains("four with a longer title") && other.stderr.isEmpty)
        let repaired = try #require(parseCache.load())
        let entry = try #require(repaired.entries.first { $0.path == "b.md" })
        #expect(
            repaired.trustedPlace(of: "b.md", at: 1, stamp: entry.stamp).flatMap(repaired.document(at:)) != nil, "the damaged list was not repaired")
    }

    @Test("done by title checks each cached list as the search reaches it: an item in a damaged copy is found and done")
    func doneByTitleRepairsADamagedListItSearches() throws {
        let (folder, cache, _, _) = try alphaAndDamagedBeta()
        let done = try run(["done", "four with"], folder, cache: cache)
        #expect(done.status == 0 && done.stderr.isEmpty, "\(done.stderr)")
        #expect(try String(contentsOf: folder.url.appendingPathComponent("b.md"), encoding: .utf8).contains("- [x] four with a longer title"))
        let open = try run(["query", "open"], folder, cache: cache)
        #expect(open.stdout.contains("three") && !open.stdout.contains("four") && open.stderr.isEmpty)
    }

    @Test("a list whose cached copy is damaged and whose file no longer parses the same is skipped with a warning, then parsed afresh")
    func unrepairableListIsSkippedWithAWarning() throws {
        let folder = try TemporaryFolder(["a.md": "- [ ] alpha\n", "b.md": "- [ ] beta\n"])
        let cache = CacheFolder()
        _ = try run(["query", "open", "--json"], folder, cache: cache)
        // Change a.md to bytes that are not UTF-8, then write the cache again
        // as if a.md's new stamp belonged to its old, now damaged, payload
        // (its item's text lies in it): the stamp matches, the checksum fails.
        let file = folder.url.appendingPathComponent("a.md").path
        try Data([0x2D, 0x20, 0x5B, 0x20, 0x5D, 0x20, 0x61, 0x6C, 0x70, 0x68, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: file))
        var info = stat()
        #expect(stat(file, &info) == 0)
        let parseCache = try cache.parseCache(of: folder)
        let contents = try #require(parseCache.load())
        let entries = contents.entries.map { entry -> (path: String, stamp: FileStamp, payload: ListPayload) in
            var bytes = Array(contents.buffer[entry.payload])
            var stamp = entry.stamp
            if entry.path == "a.md" {
                let alpha = bytes.indices.first { Array(bytes[$0..<min($0 + 5, bytes.count)]) == Array("alpha".utf8) }!
                bytes[alpha] ^= 0x01
                stamp = FileStamp(info)
            }
            return (
                entry.path, stamp, bytes.withUnsafeBufferPointer { ListPayload(copying: $0, checksum: entry.checksum, summary: entry.summary) }
            )
        }
        parseCache.save(entries.map { ($0.0, $0.1, .fresh($0.2)) }, scanStarted: Posix.nanosecondsNow(), keptIn: nil)
        let damaged = try run(["query", "open", "--json"], folder, cache: cache)
        #expect(damaged.status == 0)
        #expect(!damaged.stdout.contains("alph") && damaged.stdout.contains("beta"))
        #expect(damaged.stderr.contains("a.md: its cached copy is damaged and the file cannot be read again; skipped"))
        // The list was left out of the cache: the next run parses it and says why it is skipped.
        let next = try run(["query", "open", "--json"], folder, cache: cache)
        #expect(next.stdout == damaged.stdout)
        #expect(next.stderr.contains("a.md is not valid UTF-8; skipped"))
    }

    /// A parse cache's mapping that records which bytes it was asked to give back.
    final class RecordingMapping: ListMapping, @unchecked Sendable {
        let bytes: OwnedBytes
        private let lock = NSLock()
        private var releasedSoFar: [Range<Int>] = []
        /// The pages given back, in order (from any thread).
        var released: [Range<Int>] {
            get { lock.withLock { releasedSoFar } }
            set { lock.withLock { releasedSoFar = newValue } }
        }
        init(_ payloads: [ListPayload]) {
            // The pointer is used inside the closure: a pointer it returned would
            // outlive the temporary array (and the memory could be reused).
            bytes = payloads.flatMap { Array($0.buffer) }.withUnsafeBufferPointer { OwnedBytes(copying: $0) }
        }
        /// False for a mapping held whole, whose pages stay.
        var givesPagesBack = true
        func releasePages(holding released: UnsafeBufferPointer<UInt8>) {
            let start = released.baseAddress! - UnsafePointer(bytes.buffer.baseAddress!)
            lock.withLock { releasedSoFar.append(start..<start + released.count) }
        }
    }

    /// Lists of `texts` (keyed by path, in order) read from one mapping,
    /// their payloads one after another as in a cache file: the lists,
    /// the mapping, and where each payload lies in it.
    static func mappedLists(_ texts: KeyValuePairs<String, String>) throws -> (
        documents: [EncodedDocument], mapping: RecordingMapping, ranges: [Range<Int>]
    ) {
        let payloads = try texts.map { path, text in try #require(ListPayload(encoding: parse(text, path: path))) }
        let mapping = RecordingMapping(payloads)
        var offset = 0
        var documents: [EncodedDocument] = []
        var ranges: [Range<Int>] = []
        for (payload, path) in zip(payloads, texts.map(\.key)) {
            let buffer = UnsafeBufferPointer(rebasing: mapping.bytes.buffer[offset..<offset + payload.buffer.count])
            documents.append(EncodedDocument(unchecked: buffer, in: mapping, checksum: payload.checksum, path: path, summary: payload.summary))
            ranges.append(offset..<offset + payload.buffer.count)
            offset += payload.buffer.count
        }
        return (documents, mapping, ranges)
    }

    @Test("pages gathered apart (on two cores) and joined give back the span of both, and joining none changes nothing")
    func pagesGatheredApartAndJoinedGiveBackTheirWholeSpan() throws {
        let (documents, mapping, ranges) = try Self.mappedLists([
            "a.md": "# a\n- [ ] one\n", "b.md": "# b\n- [ ] one\n", "c.md": "# c\n- [ ] one\n",
        ])
        var first = CachePages()
        first.include(documents[2])
        var second = CachePages()
        second.include(documents[0])
        first.include(second)
        first.include(CachePages())
        #expect(first.spannedBytes == ranges[2].upperBound - ranges[0].lowerBound)
        first.release()
        #expect(mapping.released == [ranges[0].lowerBound..<ranges[2].upperBound])
        // Joined into pages that hold none, they bring their mapping with them.
        var empty = CachePages()
        empty.include(second)
        empty.release()
        #expect(mapping.released.last == ranges[0])
    }

    @Test("a run of lists gives back the cache's pages from its first list's payload to its last's, and no others")
    func aRunOfListsReleasesOnlyItsOwnPages() throws {
        let (documents, mapping, ranges) = try Self.mappedLists([
            "a.md": "# a\n- [ ] one\n- [ ] two\n", "b.md": "# b\n- [ ] one\n- [ ] two\n", "c.md": "# c\n- [ ] one\n- [ ] two\n",
        ])
        var pages = CachePages()
        for document in documents[1...2] { pages.include(document) }
        pages.release()
        #expect(mapping.released == [ranges[1].lowerBound..<ranges[2].upperBound])
        documents[0].items().releaseCachePages()
        #expect(mapping.released.last == ranges[0], "the items of one list give back that list's pages")
        let afresh = try #require(EncodedDocument(encoding: parse("# d\n- [ ] x\n", path: "d.md")))
        var none = CachePages()
        none.include(afresh)
        none.release()
        #expect(mapping.released.count == 2, "a list parsed afresh lies in no mapping: nothing is given back")
    }

    @Test("an items document is written in runs whose pages are given back once they add up to 4,096 items, or at the end")
    func anItemsDocumentGivesBackItsPagesEvery4096ItemsOrAtTheEnd() throws {
        func list(_ name: String) -> String { "# \(name)\n" + (0..<30).map { "- [ ] \(name) \($0) due:2026-12-0\($0 % 9 + 1)\n" }.joined() }
        let (documents, mapping, ranges) = try Self.mappedLists(["a.md": list("a"), "b.md": list("b"), "c.md": list("c")])
        let context = ItemContext(today: Fixture.today, dependencies: .none)
        let (a, c) = (documents[0].items(), documents[2].items())
        // 60 items jumping between the first list and the last: one run of 64 or fewer, spanning both.
        let jumping = zip(a, c).flatMap { [$0, $1] }
        let document = ItemJSON.itemsDocumentBytes(jumping, context: context)
        #expect(mapping.released == [ranges[0].lowerBound..<ranges[2].upperBound])
        #expect(document == ItemJSON.items(jumping, context: context).serializedBytes(pretty: true))
        // 90 items: two runs, given back together at the end.
        mapping.released = []
        let more = zip(a, c).flatMap { [$0, $1] } + a
        _ = ItemJSON.itemsDocumentBytes(more, context: context)
        #expect(mapping.released == [ranges[0].lowerBound..<ranges[2].upperBound])
        // 9,000 items of one list: given back after 4,096 of them (64 runs), after 8,192, and at the end.
        let big = "# big\n" + (0..<9000).map { "- [ ] item \($0)\n" }.joined()
        let (bigLists, bigMapping, bigRanges) = try Self.mappedLists(["big.md": big])
        _ = ItemJSON.itemsDocumentBytes(bigLists[0].items(), context: context)
        #expect(bigMapping.released == [bigRanges[0], bigRanges[0], bigRanges[0]])
    }

    @Test(
        "items scattered over the cache are written in their order, rendered in the cache's order a window at a time, each stretch's pages given back"
    )
    func scatteredItemsAreWrittenInTheirOrderAndGiveBackTheirPages() throws {
        func list(_ name: String) -> String {
            "# \(name)\n" + (0..<3000).map { "- [ ] \(name) \($0) #t\($0 % 5) due:2026-12-0\($0 % 9 + 1)\n" }.joined()
        }
        let (documents, mapping, ranges) = try Self.mappedLists(["a.md": list("a"), "b.md": list("b")])
        // 6,000 items jumping between the two lists: each run would be of one item.
        let scattered = zip(documents[0].items(), documents[1].items().reversed()).flatMap { [$0, $1] }
        // Every third item writes nothing (as events leave out items without a due date).
        func line(_ position: Int) -> String { position % 3 == 2 ? "" : "\(position) \(scattered[position].title.string)\n" }
        var written: [UInt8] = []
        ItemRuns.write(scattered, runsOfAtMost: 64, bytesPerItem: 8192, spanningAtMost: 64) { positions, output, itemEnded in
            for position in positions {
                output.append(Array(line(position).utf8))
                itemEnded(output.count)
            }
        } deliver: {
            written.append(contentsOf: $0)
        }
        #expect(String(decoding: written, as: UTF8.self) == scattered.indices.map(line).joined())
        // Runs in the items' order give back both lists' pages together;
        // stretches in the cache's order, one list's.
        #expect(mapping.released.contains(ranges[0]) && mapping.released.contains(ranges[1]))
        #expect(mapping.released.last == ranges[0].lowerBound..<ranges[1].upperBound, "the last window's span, at its end")
        // The groups document, each group's opening and closing written by its
        // first and last items wherever they are rendered, is the same document.
        let context = ItemContext(today: Fixture.today, dependencies: .none)
        for key in [GroupKey.list, .tag, .day] {
            let groups = Grouping.group(scattered, by: key, today: Fixture.today)
            var document: [UInt8] = []
            ItemJSON.writeGroupsDocument(groups, context: context, spanningAtMost: 64) { document.append(contentsOf: $0) }
            let isTheDocument = document == ItemJSON.groups(groups, context: context).serializedBytes(pretty: true)
            #expect(isTheDocument, "grouped by \(key)")
        }
    }

    @Test(
        "a pass over items in the cache's order gives their pages back once 256 have come and their lists span too much; items in another order, at the end"
    )
    func aPassGivesPagesBackAsItGoesOnlyInTheCachesOrder() throws {
        func list(_ name: String) -> String { "# \(name)\n" + (0..<300).map { "- [ ] \(name) \($0)\n" }.joined() }
        let (documents, mapping, ranges) = try Self.mappedLists(["a.md": list("a"), "b.md": list("b"), "c.md": list("c")])
        let (a, b, c) = (documents[0].items(), documents[1].items(), documents[2].items())
        var pages = PassPages(spanningAtMost: 64)
        for item in a + b + c { pages.read(item.document) }
        pages.release()
        // After items 256 (of a), 512 (a's last, b's first), 768 (b's last, c's first), and at the end.
        #expect(
            mapping.released == [
                ranges[0], ranges[0].lowerBound..<ranges[1].upperBound, ranges[1].lowerBound..<ranges[2].upperBound, ranges[2],
            ])
        // Jumping between the first list and the last: once, at the end (not every few items).
        mapping.released = []
        var jumping = PassPages(spanningAtMost: 64)
        for item in zip(a, c).flatMap({ [$0, $1] }) { jumping.read(item.document) }
        jumping.release()
        #expect(mapping.released == [ranges[0].lowerBound..<ranges[2].upperBound])
        // A whole pass at the default span, 8 MB: these lists span less, so once, at the end.
        mapping.released = []
        (a + b + c).forEachReleasingCachePages { _ in }
        #expect(mapping.released == [ranges[0].lowerBound..<ranges[2].upperBound])
    }

    @Test("runs of positions stop once there are more than a given number: scattered items are found before all their runs are made")
    func runsStopAfterTheMostAsked() {
        let all = CachePages.runs(of: 100, atMost: 10, spanningAtMost: 64) { _ in nil }
        #expect(all == stride(from: 0, to: 100, by: 10).map { $0..<$0 + 10 })
        #expect(CachePages.runs(of: 100, atMost: 10, spanningAtMost: 64, stoppingAfter: 3) { _ in nil } == Array(all.prefix(4)))
        #expect(CachePages.runs(of: 100, atMost: 10, spanningAtMost: 64, stoppingAfter: 10) { _ in nil } == all)
    }

    @Test("a list read from the cache unchecked is checked when first read; a damaged payload is parsed again")
    func uncheckedPayloadIsCheckedBeforeUse() throws {
        let document = parse("---\ntitle: T\n---\n# T\n## S\n- [ ] a due:2026-11-24 #x k:v\n  note\n  - [x] b\n")
        let payload = try #require(ListPayload(encoding: document))
        let expected = ItemJSON.itemsDocumentBytes(
            EncodedWorkspace(documents: [try EncodedDocument(payload.buffer, owner: payload.storage)]).items,
            context: ItemContext(today: Fixture.today, dependencies: .none))
        for position in [nil, 0, payload.buffer.count / 2, payload.buffer.count - 1] {
            var bytes = Array(payload.buffer)
            if let position { bytes[position] ^= 0x01 }
            let storage = bytes.withUnsafeBufferPointer { OwnedBytes(copying: $0) }
            let unchecked = EncodedDocument(
                unchecked: UnsafeBufferPointer(storage.buffer), owner: storage, checksum: payload.checksum,
                path: document.path, summary: payload.summary)
            #expect(!unchecked.isComplete)
            #expect(unchecked.itemCount == 2, "before it is read, the count comes from the index")
            var repaired = false
            let other = ListPayload(encoding: parse("# Other\n- [ ] x\n", path: "other.md"))!
            let again = ListPayload(encoding: document)!
            unchecked.complete { list in
                repaired = true
                #expect(!list.adopt(other), "another file's payload is refused")
                #expect(list.adopt(again))
            }
            #expect(unchecked.isComplete)
            #expect(repaired == (position != nil), "only a damaged payload is parsed again")
            #expect(
                ItemJSON.itemsDocumentBytes(
                    EncodedWorkspace(documents: [unchecked]).items, context: ItemContext(today: Fixture.today, dependencies: .none)) == expected)
        }
    }

    @Test("a payload whose checksum holds but whose path or name is not the one the index gives is refused and parsed again")
    func payloadOfAnotherListIsRefused() throws {
        let alpha = try #require(ListPayload(encoding: parse("# Alpha\n- [ ] a\n", path: "alpha.md")))
        let alphaRenamed = try #require(ListPayload(encoding: parse("# Beta\n- [ ] a\n", path: "alpha.md")))
        let beta = try #require(ListPayload(encoding: parse("# Alpha\n- [ ] a\n", path: "beta.md")))
        // What the index says (path, name) against a payload of another path, or of another name.
        let cases = [
            (payload: alpha, path: "beta.md", summary: beta.summary, isOwn: false),
            (payload: alphaRenamed, path: "alpha.md", summary: alpha.summary, isOwn: false),
            (payload: alpha, path: "alpha.md", summary: alpha.summary, isOwn: true),
        ]
        for (payload, path, summary, isOwn) in cases {
            let unchecked = EncodedDocument(
                unchecked: UnsafeBufferPointer(payload.storage.buffer), owner: payload.storage, checksum: payload.checksum, path: path,
                summary: summary)
            var repaired = false
            unchecked.complete { _ in repaired = true }
            #expect(repaired == !isOwn, "\(path) named \(summary.name): \(isOwn ? "its own payload is kept" : "another list's is refused")")
        }
    }

    /// Runs `tick query open --json` in a bash pipeline, `tick … PIPE`, with
    /// its cache in `cache` and each cache save held back `delay` ms; the
    /// exit status bash saw for tick (141: SIGPIPE).
    func queryStatus(_ folder: TemporaryFolder, cache: CacheFolder, into pipe: String, savingAfter delay: Int) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c", "\"$0\" \"$@\" \(pipe); echo \"${PIPESTATUS[0]}\"", TickProcess.executable.path,
            "query", "open", "--json", "--dir", folder.path, "--today", "2026-11-21",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = cache.path
        environment["TICK_TEST_SLOW_CACHE_SAVE"] = String(delay)
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let status = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return status.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a reader that closes the output early ends the query by SIGPIPE, after the new cache is written whole")
    func closedOutputWaitsForTheCacheSave() throws {
        // Some hundred kilobytes of JSON: more than a pipe holds, so tick meets the closed pipe.
        var files: [String: String] = [:]
        for list in 0..<20 {
            files["list\(list).md"] = (0..<40).map { "- [ ] item \(list)-\($0) due:2026-11-2\($0 % 8) #tag\($0 % 5)\n" }.joined()
        }
        let folder = try TemporaryFolder(files)
        let cache = CacheFolder()
        // The save is held back until the output is surely closed.
        let status = try queryStatus(folder, cache: cache, into: "| head -c 100 > /dev/null", savingAfter: 300)
        #expect(status == "141", "killed by SIGPIPE, as before")
        let cacheFile = try cache.parseCache(of: folder)
        #expect(cacheFile.load()?.entries.count == 20, "the cache was saved whole before the process ended")
        let fromCache = try run(["query", "open", "--json"], folder, cache: cache)
        let withoutCache = try TickRunner.run(
            ["query", "open", "--json", "--dir", folder.path, "--today", "2026-11-21"],
            environment: ["TICK_NO_CACHE": "1"])
        #expect(fromCache.stdoutBytes == withoutCache.stdoutBytes)
        #expect(fromCache.stdoutBytes.count > 100_000)
    }

    @Test("warnings to a closed standard error end tick by SIGPIPE, never a crash, while a cache is saved")
    func closedErrorOutputIsNotACrash() throws {
        // More warnings than a pipe holds (about 75 KB): some write meets the closed pipe.
        var files: [String: String] = ["good.md": "- [ ] good\n"]
        for number in 0..<1500 { files["bad\(number).md"] = "- [ ] item\n" }
        let folder = try TemporaryFolder(files)
        for number in 0..<1500 {
            try Data([0x2D, 0x20, 0x5B, 0x20, 0x5D, 0x20, 0xFF, 0x0A]).write(to: folder.url.appendingPathComponent("bad\(number).md"))
        }
        let cache = CacheFolder()
        // The reader closes the pipe at once and never reads.
        let status = try queryStatus(folder, cache: cache, into: "2>&1 >/dev/null | (exec <&-)", savingAfter: 200)
        #expect(status == "141", "killed by SIGPIPE, not by a trap (132)")
        let cacheFile = try cache.parseCache(of: folder)
        #expect(cacheFile.load()?.entries.count == 1501, "the cache was saved whole before the process ended")
    }

    @Test("a same-size rewrite whose modification time is put back is seen by the next query (ctime is in the stamp)")
    func restoredModificationTimeIsNoDisguise() throws {
        let folder = try TemporaryFolder(["a.md": "- [ ] alpha\n"])
        let cache = CacheFolder()
        #expect(try run(["all", "--json"], folder, cache: cache).stdout.contains("alpha"))
        // Same size, same inode, the modification time restored: only the bytes and ctime differ.
        let file = folder.url.appendingPathComponent("a.md").path
        var before = stat()
        stat(file, &before)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.write(contentsOf: Data("- [ ] gamma\n".utf8))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
        var after = stat()
        stat(file, &after)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        #expect(after.st_size == before.st_size && after.st_ino == before.st_ino)
        let query = try run(["all", "--json"], folder, cache: cache)
        #expect(query.stdout.contains("gamma"))
        #expect(!query.stdout.contains("alpha"))
    }

    @Test("edits never use the cache: they read the file even when its stamp looks unchanged")
    func editsReadTheFile() throws {
        let folder = try TemporaryFolder(["a.md": "- [ ] alpha\n- [ ] beta\n"])
        let cache = CacheFolder()
        _ = try run(["all", "--json"], folder, cache: cache)
        // Same size, same inode, same modification time: only the bytes differ.
        let file = folder.url.appendingPathComponent("a.md").path
        var before = stat()
        stat(file, &before)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.write(contentsOf: Data("- [ ] gamma\n- [ ] zeta\n".utf8))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        utimensat(AT_FDCWD, file, &times, 0)
        let edit = try run(["done", "a.md:2"], folder, cache: cache)
        #expect(edit.status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "- [ ] gamma\n- [x] zeta done:2026-11-21\n")
    }

    @Test("the cache's gathered write puts every buffer, empty ones too, in order")
    func gatheredWriteKeepsEveryByte() throws {
        var generator = SeededGenerator(seed: 3)
        let pieces: [[UInt8]] = (0..<1_300).map { index in
            index % 7 == 0 ? [] : (0..<Int.random(in: 1...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tick-writev-\(UUID().uuidString)").path
        defer { unlink(path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        let buffers = pieces.map { piece in
            let memory = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, piece.count))
            _ = memory.initialize(from: piece)
            return UnsafeBufferPointer(rebasing: memory[0..<piece.count])
        }
        defer { for buffer in buffers { buffer.baseAddress.map { UnsafeMutablePointer(mutating: $0).deallocate() } } }
        #expect(Posix.writeAll(buffers, to: descriptor))
        close(descriptor)
        #expect(try FileIO.read(path) == Array(pieces.joined()))
    }

    @Test("a pass over more items than one run gives what compactMap gives, in order, from the cache and without one")
    func passInRunsMatchesCompactMap() throws {
        // More than one run of 65,536 items.
        let lines = (0..<70_000).map { "- [\($0 % 4 == 0 ? "x" : " ")] item \($0)" }
        let folder = try TemporaryFolder(["big.md": "# Big\n" + lines.joined(separator: "\n") + "\n", "small.md": "- [ ] one\n- [x] two\n"])
        let cache = CacheFolder()
        for _ in 0..<2 { // cold, then read in place from the cache's mapping
            let items = try workspace(folder, cache: cache).items
            #expect(items.count == 70_002)
            let expected = items.compactMap { $0.status.isOpen ? $0.title.string : nil }
            #expect(items.compactMapReleasingCachePages { $0.status.isOpen ? $0.title.string : nil } == expected)
            #expect(expected.count == 52_501)
        }
    }

    @Test("a pass in the cache's order visits every item of results in any order once, front to back in the cache")
    func passInCacheOrderVisitsEveryItemOnceInTheCachesOrder() throws {
        let folder = try TemporaryFolder([
            "a.md": "# A\n" + (0..<300).map { "- [ ] a \($0)" }.joined(separator: "\n") + "\n",
            "b.md": "# B\n" + (0..<300).map { "- [ ] b \($0)" }.joined(separator: "\n") + "\n",
        ])
        let cache = CacheFolder()
        _ = try workspace(folder, cache: cache)
        let warm = try workspace(folder, cache: cache)
        var generator = SeededGenerator(seed: 11)
        let shuffled = warm.items.shuffled(using: &generator)
        var visited: [EncodedListedItem.CacheOrder] = []
        var titles: [String] = []
        shuffled.forEachInCacheOrderReleasingCachePages { item in
            visited.append(item.cacheOrder)
            titles.append(item.title.string)
        }
        #expect(titles.sorted() == warm.items.map { $0.title.string }.sorted())
        #expect(visited == visited.sorted())
        // Manual order is the cache's order: results in it are visited as they are.
        var inManualOrder: [String] = []
        warm.items.forEachInCacheOrderReleasingCachePages { inManualOrder.append($0.title.string) }
        #expect(inManualOrder == warm.items.map { $0.title.string })
    }

    @Test("a title found in several lists read from the cache names them in path order, though the cache holds them in list order")
    func lookupFromTheCacheNamesCandidatesInPathOrder() throws {
        let folder = try TemporaryFolder([
            "a.md": "# Zebra\n- [ ] Call Ana\n", "b.md": "# Aardvark\n- [ ] Call Ana\n", "c.md": "# Middle\n- [ ] Call Ana\n",
        ])
        let cache = CacheFolder()
        _ = try workspace(folder, cache: cache)
        let warm = try workspace(folder, cache: cache)
        #expect(warm.orderCameFromCache)
        #expect(warm.pathsInListOrder == ["b.md", "c.md", "a.md"])
        do {
            _ = try warm.locate("Call Ana")
            Issue.record("expected the title to be ambiguous")
        } catch {
            guard case .ambiguous(_, let candidates) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(candidates.map { String($0.prefix(4)) } == ["a.md", "b.md", "c.md"])
        }
    }
}
