import Foundation
import Testing
import TickEngine
import TickRecords
import TickStore
import TickSyntax

@testable import tick

/// The pieces of human output: relative dates, widths, icons, styled titles, colors.
@Suite struct RenderingTests {
    let today = Fixture.today // Saturday

    @Test("values kept until exit from many threads at once are every one kept (listings are printed on several in tests)")
    func valuesKeptFromManyThreadsAreAllKept() {
        let before = KeptUntilExit.count
        DispatchQueue.concurrentPerform(iterations: 64) { round in
            for index in 0..<200 { KeptUntilExit.keep([round, index]) }
        }
        // Other tests may keep values meanwhile: at least these were kept.
        #expect(KeptUntilExit.count - before >= 64 * 200)
    }

    func words(_ iso: String, open: Bool = true) -> String {
        RelativeDate.describe(date(iso), today: today, isOpen: open).text
    }

    @Test func relativeDatesInWords() {
        #expect(words("2026-11-21") == "today")
        #expect(words("2026-11-22") == "tomorrow")
        #expect(words("2026-11-27") == "Fri")
        #expect(words("2026-11-28") == "in 7 days")
        #expect(words("2026-12-03") == "in 12 days")
        #expect(words("2027-03-01") == "2027-03-01")
        #expect(words("2026-11-20") == "1 day overdue")
        #expect(words("2026-11-18") == "3 days overdue")
        #expect(words("2026-11-18", open: false) == "3 days ago")
        #expect(words("2026-11-20", open: false) == "yesterday")
        #expect(words("2026-11-21T14:30") == "today 14:30")
        #expect(words("2026-11-18T09:05", open: false) == "3 days ago 09:05")
        let finished = RelativeDate.withWords(date("2026-11-18"), today: today, isOpen: false, after: "cancelled") {
            (String(decoding: $0, as: UTF8.self), $1)
        }
        #expect(finished.0 == "cancelled 3 days ago" && finished.1 == .past)
        #expect(RelativeDate.describe(date("2026-11-18"), today: today).tone == .overdue)
    }

    @Test("a count of days in words is the count in decimal, for every count up to some 270 years")
    func countedDaysAreTheCountInDecimal() {
        let counts = Array(2..<2_000) + [9_999, 10_000, 10_001, 99_999, 100_000]
        for count in counts {
            let past = today.adding(-count, .day)
            #expect(words(past.isoString) == "\(count) days overdue")
            #expect(words(past.isoString, open: false) == "\(count) days ago")
        }
        for days in 7..<60 { #expect(words(today.adding(days, .day).isoString) == "in \(days) days") }
    }

    @Test func overdueIsRed() {
        let styled = RelativeDate.styled(date("2026-11-18"), today: today)
        #expect(styled.rendered(.trueColor) == "\u{1B}[1;38;2;255;59;48m3 days overdue\u{1B}[0m")
        #expect(styled.rendered(.none) == "3 days overdue")
    }

    @Test func displayWidthCountsWideAndZeroWidthCharacters() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("🛒") == 2)
        #expect(DisplayWidth.of("✈️") == 2)
        #expect(DisplayWidth.of("日本") == 4)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("•") == 1)
    }

    @Test func asciiTextIsMeasuredAsItsCharactersAre() {
        // The ASCII shortcut must give what the character walk gives,
        // control bytes (and CR LF, one character) included.
        var samples = ["", "plain title", "tab\there", "cr\r\nlf", "\r", "bell\u{07}", "del\u{7F}", "~!@#$%^&*()"]
        samples.append(String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self))
        for sample in samples {
            let walked = sample.reduce(0) { $0 + DisplayWidth.of($1) }
            #expect(DisplayWidth.of(sample) == walked, "\(sample.debugDescription)")
        }
    }

    @Test func iconsBecomeEmojiAndUnknownOnesABullet() {
        #expect(Icons.emoji(for: "cart") == "🛒")
        #expect(Icons.emoji(for: "list.bullet") == "•")
        #expect(Icons.emoji(for: "star.fill") == "⭐")
        #expect(Icons.emoji(for: "house.circle.fill") == "🏠")
        #expect(Icons.emoji(for: "🦆") == "🦆")
        #expect(Icons.emoji(for: "no.such.symbol") == "•")
    }

    @Test func styledTitlesReadExactlyLikeTheDisplayTitle() {
        let document = DocumentParser.parse(
            """
            - [ ] Buy **milk**  and *fresh*   `eggs` !high due:2026-11-24 [shop](https://x.test) #errand
            - [ ] !low   spaced   out  ~~words~~
            - [-] Gone **for good**
            """, path: "t.md")
        let items = readModel(document).items()
        for (item, parsed) in zip(items, document.items) {
            #expect(ItemStyle.styledTitle(item).plain == parsed.title)
        }
        let first = ItemStyle.styledTitle(items[0]).rendered(.ansi256)
        #expect(first.contains("\u{1B}[1mmilk\u{1B}[0m"))
        #expect(first.contains("\u{1B}]8;;https://x.test\u{1B}\\"))
        #expect(ItemStyle.styledTitle(items[2]).rendered(.ansi256).hasPrefix("\u{1B}[2;9mGone "))
    }

    /// The fixture `file` parsed and encoded as the read model holds it; nil when too large to encode.
    static func encodedList(_ file: URL) throws -> EncodedDocument? {
        EncodedDocument(encoding: DocumentParser.parse(try FileIO.read(file.path), path: file.lastPathComponent))
    }

    @Test("a row's prefix is indented two spaces per level, at every depth, with its box and marker")
    func rowPrefixesAreIndentedTwoSpacesPerLevel() throws {
        let list = try #require(EncodedDocument(encoding: DocumentParser.parse(Array("- [ ] a !high\n".utf8), path: "l.md")))
        let prefixes = ItemStyle.RowPrefixes(for: list.items())
        for depth in 0...7 {
            let indent = String(repeating: "  ", count: depth)
            #expect(prefixes.prefix(status: .open, priority: .normal, depth: depth).plain == indent + "☐    ", "depth \(depth)")
            #expect(prefixes.prefix(status: .done, priority: .high, depth: depth).plain == indent + "☑ !! ", "depth \(depth)")
            #expect(prefixes.prefix(status: .cancelled, priority: .lowest, depth: depth).rendered(.none) == indent + "☒ ↓↓ ")
        }
    }

    /// The marker column is as wide as the widest marker of the listing,
    /// found among the first items or, failing that, among all of them.
    @Test func theMarkerColumnFitsTheWidestMarkerWhereverItIs() throws {
        func prefix(_ lines: [String]) throws -> String {
            let list = try #require(EncodedDocument(encoding: DocumentParser.parse(Array((lines.joined(separator: "\n") + "\n").utf8), path: "l.md")))
            let items = list.items()
            return ItemStyle.RowPrefixes(for: items).prefix(status: .open, priority: .normal, depth: 0).plain
        }
        let plain = Array(repeating: "- [ ] plain", count: 5000)
        #expect(try prefix(plain) == "☐ ")
        #expect(try prefix(plain + ["- [ ] last !lowest"]) == "☐    ")
        #expect(try prefix(["- [ ] first !high"] + plain) == "☐    ")
        #expect(try prefix(["- [ ] first !high"] + plain + ["- [ ] last !urgent"]) == "☐     ")
        #expect(try prefix(["- [ ] first !urgent"] + plain + ["- [ ] last !lowest"]) == "☐     ")
    }

    @Test(
        "a plain title (no color) prints what the styled title prints without color, on every fixture item",
        arguments: TestPaths.allMarkdownFiles())
    func plainTitlesPrintAsStyledOnesWithoutColor(file: URL) throws {
        guard let list = try Self.encodedList(file) else { return }
        for item in list.items() {
            #expect(ItemStyle.plainTitle(item).rendered(.none) == ItemStyle.styledTitle(item).rendered(.none), "\(item.address)")
            #expect(ItemStyle.plainTitle(item).width == ItemStyle.styledTitle(item).width, "\(item.address)")
        }
    }

    @Test(
        "a title without markup is shown, in color too, as its runs show it: its runs need not be parsed, on every fixture item",
        arguments: TestPaths.allMarkdownFiles())
    func titlesWithoutMarkupNeedNoRuns(file: URL) throws {
        guard let list = try Self.encodedList(file) else { return }
        for item in list.items() where item.hasPlainTitle {
            #expect(ItemStyle.plainTitle(item).rendered(.trueColor) == ItemStyle.styledTitle(item).rendered(.trueColor), "\(item.address)")
            #expect(ItemStyle.plainTitle(item).width == ItemStyle.styledTitle(item).width, "\(item.address)")
        }
    }

    @Test func onlyTitlesWithoutMarkupAreShownWithoutParsingTheirRuns() throws {
        let list = try #require(
            EncodedDocument(
                encoding: DocumentParser.parse(
                    Array(
                        ("- [ ] Call   Bob 📅 2026-11-20 #home/garden !high\n- [x] Café déjà vu ✅ 2026-11-01\n- [ ] Read **this**\n"
                            + "- [ ] See www.example.com\n- [ ] Open https://x.test\n- [ ] Run `make`\n- [ ] A [x](y)\n").utf8),
                    path: "l.md")))
        #expect(list.items().map(\.hasPlainTitle) == [true, true, false, false, false, false, false])
    }

    @Test(
        "a row written straight into bytes prints as the same row built as styled text, on every fixture item",
        arguments: TestPaths.allMarkdownFiles())
    func rowsWrittenAsBytesPrintAsStyledRows(file: URL) throws {
        guard let list = try Self.encodedList(file) else { return }
        expectRowsAsBytesPrintAsStyledRows(list, label: file.lastPathComponent)
    }

    @Test("rows of tags of every kind and of subtasks at every depth print as the same rows built as styled text")
    func tagsAndDeepSubtasksPrintAsStyledRows() throws {
        let text = """
            # Tags
            - [ ] ascii #work #home/garden #a-b_c
            - [ ] accented #café #work
            - [ ] wide #日本語 #x
            - [ ] joining #e\u{301}t #v
              - [ ] one #deep
                - [x] two #deeper
                  - [ ] three
                    - [-] four #deepest
                      - [/] five #café
                        - [ ] six !high

            """
        let list = try #require(EncodedDocument(encoding: DocumentParser.parse(Array(text.utf8), path: "tags.md")))
        #expect(list.items().contains { $0.tags.map(\.string) == ["日本語", "x"] })
        #expect(list.items().map(\.depth).max()! > 4) // deeper than the prefixes built once per listing
        expectRowsAsBytesPrintAsStyledRows(list, label: "tags.md")
    }

    @Test("rows cut to fit a terminal from their bytes print as rows cut from styled text, at every width, through links and styles")
    func rowsCutFromBytesPrintAsRowsCutFromStyledText() throws {
        // Printable ASCII only (rows of other text are cut from their styled
        // text, the reference itself): links, emphasis, code, tags and dates
        // put span boundaries at many columns, and each width cuts at others.
        let text = """
            # Cut
            - [ ] Read [the long guide](https://example.com/guide) before the meeting on Friday 📅 2026-11-20 #work #reading
            - [ ] **Bold start** then *italic middle* and `code at the end` ⏫ #a #bb #ccc
            - [x] Done item with a plain title that runs on and on ✅ 2026-11-18
            - [ ] See https://example.org/a/very/long/path/that/goes/on and then more words 🔽
            - [ ] x
            - [/] In progress [link one](a) [link two](b) ~~struck~~ words after
            - [ ] A link of no address [here]() and [there]() then words
              - [ ] A subtask under it with a due date 📅 2026-11-25 #deep-tag-name
            """
        let list = try #require(EncodedDocument(encoding: DocumentParser.parse(Array(text.utf8), path: "cut.md")))
        expectRowsAsBytesPrintAsStyledRows(list, label: "cut.md", widths: [nil] + Array(1...90))
    }

    @Test("a title that starts with a combining mark, then bold text, is cut at every width as styled text cuts it, without a crash")
    func titleOfAJoiningMarkIsCutAsStyledText() throws {
        // The mark is a piece of no width: where a cut leaves no column it
        // wrote nothing, and measuring that nothing read past the row's bytes.
        let text = """
            # Marks
            - [ ] \u{301}**abcdefghijklmnopqrstuvwxyz** #tag
            - [ ] e\u{301}*accented* then plain words 📅 2026-11-20
            """
        let list = try #require(EncodedDocument(encoding: DocumentParser.parse(Array(text.utf8), path: "marks.md")))
        expectRowsAsBytesPrintAsStyledRows(list, label: "marks.md", widths: [nil] + Array(1...40))
    }

    /// `ListingSource.inCacheOrder` builds every line once, in chunks of
    /// `ItemTable.chunkSize` on every core, and hands the chunks of each
    /// batch to `collect` in order, a batch at a time: lines of no item in
    /// the listing's order, over several batches.
    @Test func linesAreBuiltOnceAndCollectedInOrderOverSeveralBatches() {
        let batch = ItemTable.chunkSize * ItemTable.chunksPerBatch
        let count = 2 * batch + 777
        let source = ListingSource(count: count) { _ in .blank }
        var collected: [Int] = []
        var batchSizes: [Int] = []
        source.inCacheOrder { lines in
            #expect(lines.count <= ItemTable.chunkSize)
            return Array(lines)
        } collect: { chunks in
            batchSizes.append(chunks.reduce(0) { $0 + $1.count })
            for chunk in chunks { collected += chunk }
        }
        #expect(collected == Array(0..<count))
        #expect(batchSizes == [batch, batch, 777])
    }

    /// A listing of lists read from a mapping that gives its pages back
    /// gives back the pages it read once its rows are built; from a
    /// mapping held whole (a small cache), it notes no pages and gives
    /// none back, and prints the same rows.
    @Test func aListingGivesBackPagesOnlyOfAMappingThatGivesThemBack() throws {
        let (documents, mapping, ranges) = try ParseCacheTests.mappedLists([
            "a.md": "# a\n- [ ] one\n- [ ] two\n", "b.md": "# b\n- [ ] three\n",
        ])
        let items = documents[0].items() + documents[1].items()
        let context = ItemContext(today: Fixture.today, dependencies: .none)
        let arranged = Arranged(items: items, groups: nil, groupKey: nil, isManualOrder: true)
        func printed() -> String {
            var bytes: [UInt8] = []
            let source = ItemsView.source(arranged, context: context, showList: true, plain: true)
            ItemTable.write(source, width: nil, depth: .none) { bytes.append(contentsOf: $0) }
            return String(decoding: bytes, as: UTF8.self)
        }
        let givenBack = printed()
        #expect(mapping.released == [ranges[0].lowerBound..<ranges[1].upperBound])
        mapping.released = []
        mapping.givesPagesBack = false
        #expect(printed() == givenBack)
        #expect(mapping.released.isEmpty)
        #expect(givenBack.contains("three"))
    }

    /// Every listing of `list`'s items (plain and styled titles, a listing
    /// and the list's own view, every color depth and each of `widths`)
    /// prints the same bytes kept (rows that do not fit cut from their
    /// bytes where they can be), cut from styled text, and measured first.
    private func expectRowsAsBytesPrintAsStyledRows(_ list: EncodedDocument, label fileLabel: String, widths: [Int?] = [nil, 80, 30]) {
        let items = list.items()
        // Blocked items too: the dependencies of the list's own items.
        let dependencies = DependencyIndex(items)
        let context = ItemContext(today: Fixture.today, dependencies: { dependencies })
        let arranged = Arranged(items: items, groups: nil, groupKey: nil, isManualOrder: true)
        // The rows in the reverse of the cache's order (as by title): a
        // listing too long to keep is written a window at a time.
        let reversed = Arranged(items: items.reversed(), groups: nil, groupKey: nil, isManualOrder: false)
        for plain in [true, false] {
            let sources = [
                ItemsView.source(arranged, context: context, showList: true, showNotes: true, plain: plain),
                ListView.source(list, items: items, context: context, showNotes: true, plain: plain),
                ItemsView.source(reversed, context: context, showList: true, showNotes: true, plain: plain),
            ]
            for source in sources {
                #expect(source.writeRow != nil)
                for depth in plain ? [ColorDepth.none] : [.none, .ansi256, .trueColor] {
                    for width in widths {
                        func printed(cuttingEveryRow: Bool, keepingAtMost limit: Int = ItemTable.keptLinesLimit, window: Int = 3) -> [UInt8] {
                            var bytes: [UInt8] = []
                            ItemTable.write(
                                source, width: width, depth: depth, cuttingEveryRow: cuttingEveryRow, keepingAtMost: limit, windowsOf: window
                            ) {
                                bytes.append(contentsOf: $0)
                            }
                            return bytes
                        }
                        let kept = printed(cuttingEveryRow: false)
                        let label = "\(fileLabel), plain \(plain), depth \(depth), width \(width.map(String.init) ?? "none")"
                        #expect(kept == printed(cuttingEveryRow: true), "\(label)")
                        #expect(kept == printed(cuttingEveryRow: false, keepingAtMost: 0), "measured first: \(label)")
                        #expect(kept == printed(cuttingEveryRow: true, keepingAtMost: 0), "measured first, cut: \(label)")
                    }
                }
            }
        }
    }

    @Test("rows in any order, items listed twice and lines of no item among them, are built in the order of their records in the cache")
    func rowsInAnyOrderAreBuiltInTheCachesOrder() throws {
        func list(_ name: String) -> String { "# \(name)\n" + (0..<20).map { "- [ ] \(name) \($0)\n" }.joined() }
        let (documents, _, _) = try ParseCacheTests.mappedLists(["a.md": list("a"), "b.md": list("b"), "c.md": list("c")])
        let items = documents.enumerated().flatMap { rank, document in document.items(rank: [2, 0, 1][rank]) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            // Each line a random item (some twice) or, one in eight, no item.
            let places: [Int?] = (0..<Int.random(in: 0...90, using: &generator)).map { _ in
                Int.random(in: 0..<8, using: &generator) == 0 ? nil : Int.random(in: items.indices, using: &generator)
            }
            let source = ListingSource(count: places.count, items: items, itemPlace: { places[$0] }, line: { _ in .blank })
            var order: [Int] = []
            source.inCacheOrder {
                Array($0)
            } collect: {
                order += $0.joined()
            }
            let rows = places.indices.filter { places[$0] != nil }
            let expected =
                places.indices.filter { places[$0] == nil }
                + rows.sorted {
                    items[places[$0]!].cacheOrder != items[places[$1]!].cacheOrder
                        ? items[places[$0]!].cacheOrder < items[places[$1]!].cacheOrder : $0 < $1
                }
            #expect(order == expected, "\(places)")
        }
    }

    @Test("asking ahead for the items of the rows to come visits every line once, in order, whatever the lines and wherever they start")
    func askingAheadForRowsVisitsEveryLineInOrder() throws {
        func list(_ name: String) -> String { "# \(name)\n" + (0..<20).map { "- [ ] \(name) \($0)\n" }.joined() }
        let (documents, _, _) = try ParseCacheTests.mappedLists(["a.md": list("a"), "b.md": list("b")])
        let items = documents.enumerated().flatMap { rank, document in document.items(rank: rank) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            // Each line a random item or, one in four, no item (a heading, a blank line).
            let places: [Int?] = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                Int.random(in: 0..<4, using: &generator) == 0 ? nil : Int.random(in: items.indices, using: &generator)
            }
            let source = ListingSource(count: places.count, items: items, itemPlace: { places[$0] }, line: { _ in .blank })
            let lines = Array(places.indices.shuffled(using: &generator))
            let start = Int.random(in: 0...lines.count, using: &generator)
            let slice = lines[start...]
            var visited: [Int] = []
            source.forEachPrefetching(slice) { visited.append($0) }
            #expect(visited == Array(slice), "\(places), from \(start)")
            let range = start..<places.count
            visited = []
            source.forEachPrefetching(range) { visited.append($0) }
            #expect(visited == Array(range))
        }
    }

    @Test("rows of several lists are built in the order their lists lie in the parse cache, whatever ranks their lists have")
    func rowsOfSeveralListsAreBuiltInTheCachesOrder() throws {
        func list(_ name: String) -> String { "# \(name)\n" + (0..<10).map { "- [ ] \(name) \($0)\n" }.joined() }
        let (documents, mapping, ranges) = try ParseCacheTests.mappedLists(["a.md": list("a"), "b.md": list("b"), "c.md": list("c")])
        #expect(ranges[0].upperBound <= ranges[1].lowerBound && ranges[1].upperBound <= ranges[2].lowerBound)
        // The lists ranked as a folder ranks them (here c, a, b), or all of
        // rank 0 (lists read on their own): the rank does not decide.
        for ranks in [[1, 2, 0], [0, 0, 0]] {
            let (a, b, c) = (documents[0].items(rank: ranks[0]), documents[1].items(rank: ranks[1]), documents[2].items(rank: ranks[2]))
            // Listed c, b, a, c, b, a, ...: built a's rows first, then b's, then c's.
            let listed = (0..<10).flatMap { [c[$0], b[$0], a[$0]] }
            let source = ListingSource(count: listed.count, items: listed, itemPlace: { $0 }, line: { _ in .blank })
            var order: [Int] = []
            source.inCacheOrder {
                Array($0)
            } collect: {
                order += $0.joined()
            }
            let expected = (0..<10).map { $0 * 3 + 2 } + (0..<10).map { $0 * 3 + 1 } + (0..<10).map { $0 * 3 }
            #expect(order == expected, "ranks \(ranks)")
            // The pages the rows were read from are given back once built (the
            // lists each task read, joined): all three lists' here.
            #expect(mapping.released.last == ranges[0].lowerBound..<ranges[2].upperBound, "ranks \(ranks)")
            mapping.released = []
        }
    }

    @Test("a listing of many groups (each line's group read from a table) places every heading, blank line and row as one of few does")
    func manyGroupsPlaceTheirLinesAsFewDo() throws {
        // 300 sections of 1 to 3 items: more groups than a search serves.
        var text = "# Many\n"
        for section in 0..<300 {
            text += "## S\(section)\n" + (0...(section % 3)).map { "- [ ] item \(section).\($0)\n" }.joined()
        }
        let list = try #require(EncodedDocument(encoding: DocumentParser.parse(Array(text.utf8), path: "many.md")))
        let items = list.items()
        let context = ItemContext(today: Fixture.today, dependencies: .none)
        let groups = Grouping.group(items, by: .section, today: Fixture.today)
        #expect(groups.count == 300)
        let source = ItemsView.source(
            Arranged(items: items, groups: groups, groupKey: .section, isManualOrder: true), context: context, plain: true)
        // What each line must be: the first group's heading, then its rows;
        // each later group a blank line, its heading, its rows.
        var expected: [String] = []
        for (index, group) in groups.enumerated() {
            if index > 0 { expected.append("blank") }
            expected.append("heading \(group.name)  \(group.items.count)") // the name, then the count
            expected += group.items.map { "row " + $0.title.string }
        }
        let lines = (0..<source.count).map { line -> String in
            switch source.line(line) {
            case .blank: return "blank"
            case .heading(let heading): return "heading " + heading.plain
            case .row: return "row " + (source.item(line)?.title.string ?? "none")
            }
        }
        #expect(lines == expected)
    }

    @Test("a listing's rows are built in batches cut where their lists span more of the parse cache than a batch may")
    func batchesOfRowsKeepToASpanOfTheCache() throws {
        func list(_ name: String) -> String { "# \(name)\n" + (0..<10).map { "- [ ] \(name) \($0)\n" }.joined() }
        let (documents, _, ranges) = try ParseCacheTests.mappedLists(["a.md": list("a"), "b.md": list("b"), "c.md": list("c")])
        let listed = documents.flatMap { $0.items() }
        let source = ListingSource(count: listed.count, items: listed, itemPlace: { $0 }, line: { _ in .blank })
        func batches(spanning span: Int) -> [[Int]] {
            var batches: [[Int]] = []
            source.inCacheOrder(spanningAtMost: span) {
                Array($0)
            } collect: {
                batches.append(Array($0.joined()))
            }
            return batches
        }
        // A span that holds all three lists: one batch.
        #expect(batches(spanning: ranges[2].upperBound) == [Array(0..<30)])
        // A span smaller than any two lists' payloads apart: a batch for each list.
        let oneList = ranges[1].lowerBound - ranges[0].lowerBound - 1
        #expect(batches(spanning: oneList) == [Array(0..<10), Array(10..<20), Array(20..<30)])
    }

    @Test("a listing measured first is built in runs of lines that lie close together in the parse cache")
    func runsOfAListingStayWithinASpanOfTheCache() throws {
        func list(_ name: String) -> String { "# \(name)\n" + (0..<30).map { "- [ ] \(name) \($0)\n" }.joined() }
        let (documents, _, ranges) = try ParseCacheTests.mappedLists(["a.md": list("a"), "b.md": list("b"), "c.md": list("c")])
        let (a, b, c) = (documents[0].items(), documents[1].items(), documents[2].items())
        func runs(_ items: [EncodedListedItem], lines: Int, bytes: Int) -> [Range<Int>] {
            ListingSource(count: items.count, items: items, itemPlace: { $0 }, line: { _ in .blank }).runs(ofAtMost: lines, spanningAtMost: bytes)
        }
        // In the cache's order, lines alone cut the runs.
        let inOrder = a + b + c
        #expect(runs(inOrder, lines: 16, bytes: ranges[2].upperBound) == stride(from: 0, to: 90, by: 16).map { $0..<min(90, $0 + 16) })
        // Rows that jump between the first list and the last: each run keeps to the span it may hold.
        let jumping = zip(a, c).flatMap { [$0, $1] }
        #expect(runs(jumping, lines: 16, bytes: ranges[2].upperBound).count == 4)
        #expect(runs(jumping, lines: 16, bytes: ranges[1].upperBound) == (0..<60).map { $0..<$0 + 1 })
        // Neighbouring lists fit one span of both.
        let neighbours = zip(a, b).flatMap { [$0, $1] }
        #expect(runs(neighbours, lines: 16, bytes: ranges[1].upperBound).count == 4)
        #expect(runs(neighbours, lines: 1024, bytes: ranges[1].upperBound) == [0..<60])
        // A list wider than the span on its own is cut by lines alone.
        #expect(runs(a, lines: 16, bytes: 1) == [0..<16, 16..<30])
        #expect(runs(a + b, lines: 64, bytes: 1) == [0..<30, 30..<60])
    }

    @Test func truncationKeepsStylesAndEndsInAnEllipsis() {
        var text = StyledText("Hello ", .plain)
        text.append("wide world", .strong)
        let cut = text.truncated(to: 9)
        #expect(cut.plain == "Hello wi…")
        #expect(cut.width == 9)
        #expect(cut.rendered(.ansi256) == "Hello \u{1B}[1mwi…\u{1B}[0m")
        #expect(text.truncated(to: 40).plain == "Hello wide world")
        #expect(StyledText("🛒🛒🛒").truncated(to: 4).plain == "🛒…")
    }

    @Test func colorsAreApproximatedIn256Colors() {
        #expect(RGB(red: 255, green: 0, blue: 0).xterm256 == 196)
        #expect(RGB(red: 0, green: 0, blue: 0).xterm256 == 16)
        #expect(RGB(red: 128, green: 128, blue: 128).xterm256 == 244)
    }

    @Test("a list color is a name in any case (grey too) or #rrggbb, and nothing else")
    func listColorsAreNamesInAnyCaseOrHex() {
        #expect(ListColor.rgb("blue")! == (0, 122, 255))
        #expect(ListColor.rgb("Blue")! == (0, 122, 255))
        #expect(ListColor.rgb("GREY")! == ListColor.rgb("gray")!)
        #expect(ListColor.rgb("#FF8800")! == (255, 136, 0))
        #expect(ListColor.isValid("#ff8800") && ListColor.isValid("Teal") && ListColor.isValid("grey"))
        #expect(!ListColor.isValid("#ff880") && !ListColor.isValid("#ff880g") && !ListColor.isValid("bleu") && !ListColor.isValid(""))
        #expect(ListColor.names.count == 13 && !ListColor.names.contains("grey"))
    }

    @Test("a span's escape sequences: its SGR codes in order, its color at each depth, a link around them")
    func spanEscapeSequences() {
        let every = TextStyle(
            bold: true, dim: true, italic: true, underline: true, strikethrough: true, inverse: true, color: RGB(listColor: "#ff8800"))
        #expect(StyledText("x", every).rendered(.trueColor) == "\u{1B}[1;2;3;4;7;9;38;2;255;136;0mx\u{1B}[0m")
        #expect(StyledText("x", TextStyle(color: .red)).rendered(.ansi256) == "\u{1B}[38;5;\(RGB.red.xterm256)mx\u{1B}[0m")
        #expect(StyledText("x", TextStyle(dim: true)).rendered(.ansi256) == "\u{1B}[2mx\u{1B}[0m")
        #expect(
            StyledText("x", TextStyle(underline: true, link: "https://a.b")).rendered(.trueColor)
                == "\u{1B}]8;;https://a.b\u{1B}\\\u{1B}[4mx\u{1B}[0m\u{1B}]8;;\u{1B}\\")
        #expect(StyledText("x", TextStyle(link: "u")).rendered(.trueColor) == "\u{1B}]8;;u\u{1B}\\x\u{1B}]8;;\u{1B}\\")
        #expect(StyledText("x", every).rendered(.none) == "x")
    }

    @Test("text in two links side by side stays two spans, each around its own URL; text in one link, appended twice, is one span")
    func linksKeepTheirOwnURLs() {
        var two = StyledText("a", TextStyle(underline: true, link: "https://one.test"))
        two.append("b", TextStyle(underline: true, link: "https://two.test"))
        #expect(two.spans.map(\.style.link) == ["https://one.test", "https://two.test"])
        #expect(
            two.rendered(.trueColor)
                == "\u{1B}]8;;https://one.test\u{1B}\\\u{1B}[4ma\u{1B}[0m\u{1B}]8;;\u{1B}\\"
                + "\u{1B}]8;;https://two.test\u{1B}\\\u{1B}[4mb\u{1B}[0m\u{1B}]8;;\u{1B}\\")
        var one = StyledText("a", TextStyle(link: "https://same.test"))
        one.append("b", TextStyle(link: "https://same.test"))
        #expect(one.spans.count == 1)
        #expect(one.spans.first?.style.link == "https://same.test")
        #expect(TextStyle(link: "https://same.test") != TextStyle(link: "https://one.test"))
        #expect(TextStyle(link: nil) == .plain)
    }

    @Test func tableColumnsAlignAndNeverEndInSpaces() {
        let rows: [ListingLine] = [
            .row(ItemRow(prefix: StyledText("☐ "), title: StyledText("short"), due: StyledText("today"), list: StyledText("L"))),
            .row(ItemRow(prefix: StyledText("☐ "), title: StyledText("a longer title"), due: StyledText(), list: StyledText("List"))),
        ]
        #expect(
            ItemTable.render(rows, width: nil, depth: .none) == [
                "☐ short           today  L",
                "☐ a longer title         List",
            ])
        // Too narrow for everything: the list name gives way before the title.
        #expect(
            ItemTable.render(rows, width: 24, depth: .none) == [
                "☐ short           today",
                "☐ a longer title",
            ])
        #expect(
            ItemTable.render(rows, width: 14, depth: .none) == [
                "☐ short  today",
                "☐ a lo…",
            ])
    }

    @Test func aListingOfManyBlocksIsAlignedAcrossBlocksAndPrintedInOrder() {
        // More lines than one batch of blocks; the widest title and due date
        // are in the last block, and still set the columns of the first row.
        let count = ItemTable.chunkSize * ItemTable.chunksPerBatch * 2 + 5
        let source = ListingSource(count: count) { index in
            if index % 1000 == 999 { return .blank }
            let title = index == count - 1 ? "the widest title of them all" : "row \(index)"
            let due = index == count - 2 ? "in 300 days" : "today"
            return .row(ItemRow(prefix: StyledText("☐ "), title: StyledText(title), due: StyledText(due), list: StyledText("L")))
        }
        var lines: [String] = []
        ItemTable.render(source, width: nil, depth: .none) { lines.append($0) }
        #expect(lines.count == count)
        let mainWidth = 2 + "the widest title of them all".count + ItemTable.gap
        let dueWidth = "in 300 days".count + ItemTable.gap
        for (index, line) in lines.enumerated() {
            if index % 1000 == 999 {
                #expect(line == "")
                continue
            }
            let title = index == count - 1 ? "the widest title of them all" : "row \(index)"
            let due = index == count - 2 ? "in 300 days" : "today"
            let expected =
                ("☐ " + title).padding(toLength: mainWidth, withPad: " ", startingAt: 0)
                + due.padding(toLength: dueWidth, withPad: " ", startingAt: 0) + "L"
            if line != expected {
                Issue.record("line \(index): \(line.debugDescription)")
                break
            }
        }
    }

    @Test func rowsPrintedFromTheirKeptBytesMatchRowsPrintedFromStyledText() {
        // Rows of every kind of cell: wide and combining characters, a title
        // whose first mark joins the prefix's last space, styles and links,
        // empty cells, notes, a space that belongs to the character before
        // it (U+0600), indentation; printed at every color depth and at
        // widths that cut some of them and none.
        let titles = [
            "short", "a much longer title that goes on and on", "🛒 groceries", "e\u{301}te\u{301}", "日本語のタイトル", "",
            "\u{FE0F}vs16 first", "\u{1F3FB}skin", "\u{0903}visarga",
        ]
        var lines: [ListingLine] = [.heading(StyledText("Heading", .strong)), .blank, .heading(StyledText("Shop\u{0600} "))]
        for (index, title) in titles.enumerated() {
            var styledTitle = StyledText(title, index % 2 == 0 || index > 5 ? .plain : TextStyle(bold: true, color: .red))
            if index == 2 { styledTitle.append(" link", TextStyle(underline: true, link: "https://example.com")) }
            let marker = index < 6 ? ItemStyle.priorityMarker(.high) + StyledText(" ") : StyledText()
            var row = ItemRow(
                prefix: StyledText(String(repeating: "  ", count: index % 3)) + ItemStyle.box(.open) + StyledText(" ") + marker,
                title: styledTitle)
            if index % 2 == 0 { row.due = RelativeDate.styled(date("2026-11-20"), today: today) }
            if index % 3 != 2 { row.tags = ItemStyle.tags(Array(["home", "errand", "très-long"].prefix(index % 4))) }
            if index != 4 { row.list = StyledText(index == 7 ? "Shop\u{0600} " : "List \(index)", .colored(.blue)) }
            if index == 1 || index == 8 {
                row.notes = [
                    StyledText("a note under the row", .dimmed), StyledText(""), StyledText("  indented  ", .dimmed), StyledText("x\u{0600} "),
                ]
                row.notesIndent = row.prefix.width
            }
            lines.append(.row(row))
        }
        for depth in [ColorDepth.none, .ansi256, .trueColor] {
            for width in [nil, 200, 60, 40, 24, 12] as [Int?] {
                func printed(cuttingEveryRow: Bool, keepingAtMost limit: Int = ItemTable.keptLinesLimit) -> String {
                    var bytes: [UInt8] = []
                    ItemTable.write(ListingSource(lines), width: width, depth: depth, cuttingEveryRow: cuttingEveryRow, keepingAtMost: limit) {
                        bytes.append(contentsOf: $0)
                    }
                    return String(decoding: bytes, as: UTF8.self)
                }
                let kept = printed(cuttingEveryRow: false)
                #expect(kept == printed(cuttingEveryRow: true), "depth \(depth), width \(width.map(String.init) ?? "none")")
                #expect(
                    kept == printed(cuttingEveryRow: false, keepingAtMost: 0),
                    "measured first: depth \(depth), width \(width.map(String.init) ?? "none")")
                #expect(kept.split(separator: "\n", omittingEmptySubsequences: false).count == lines.count + 8 + 1)
            }
        }
    }

    @Test func rowsBuiltInTheCachesOrderArePrintedInTheListingsOrder() {
        // More rows than one batch of chunks, whose items lie in the
        // reverse order of the listing: built in the items' order, printed
        // in the listing's.
        let count = ItemTable.chunkSize * ItemTable.chunksPerBatch + 100
        let list = readModel(DocumentParser.parse((0..<count).map { "- [ ] item \($0)" }.joined(separator: "\n") + "\n", path: "big.md"))
        let items = list.items()
        let source = ListingSource(
            count: count, items: items, itemPlace: { count - 1 - $0 },
            line: { .row(ItemRow(prefix: StyledText("☐ "), title: StyledText(items[count - 1 - $0].title.string))) })
        var printed: [String] = []
        ItemTable.render(source, width: nil, depth: .none) { printed.append($0) }
        #expect(printed == (0..<count).reversed().map { "☐ item \($0)" })
        // Too long to keep, in another order than the cache's: measured
        // first, then written a window at a time (the last one shorter).
        for window in [ItemTable.windowLines, 1000] {
            var inWindows: [UInt8] = []
            ItemTable.write(source, width: nil, depth: .none, keepingAtMost: count - 1, windowsOf: window) { inWindows.append(contentsOf: $0) }
            #expect(String(decoding: inWindows, as: UTF8.self) == printed.map { $0 + "\n" }.joined())
        }
        // Too long to keep, in the cache's order: measured first, each chunk built again and written in order.
        let inOrder = ListingSource(
            count: count, items: items, itemPlace: { $0 },
            line: { .row(ItemRow(prefix: StyledText("☐ "), title: StyledText(items[$0].title.string))) })
        #expect(inOrder.rowsMostlyInCacheOrder)
        #expect(!source.rowsMostlyInCacheOrder)
        // Built in order: the lines of no item first, in order, then the
        // rows in the cache's order, a list at a time (ties, an item listed
        // twice, by line).
        func buildOrder(_ source: ListingSource) -> [Int] {
            var order: [Int] = []
            source.inCacheOrder {
                Array($0)
            } collect: {
                order += $0.joined()
            }
            return order
        }
        #expect(buildOrder(inOrder) == Array(0..<count))
        #expect(buildOrder(source) == Array((0..<count).reversed()))
        let withHeadings = ListingSource(
            count: 8, items: items, itemPlace: { [nil, 3, 1, nil, 2, 0, nil, 4][$0] }, line: { _ in .blank })
        #expect(buildOrder(withHeadings) == [0, 3, 6, 5, 2, 4, 1, 7])
        // By day: each day's rows in the cache's order, the days interleaved.
        let byDay = (0..<count).filter { $0 % 3 == 0 } + (0..<count).filter { $0 % 3 == 1 } + [0] + (0..<count).filter { $0 % 3 == 2 }
        let days = ListingSource(count: byDay.count, items: items, itemPlace: { byDay[$0] }, line: { _ in .blank })
        let order = buildOrder(days)
        #expect(order.map { byDay[$0] } == [0, 0] + Array(1..<count))
        #expect(Set(order).count == byDay.count)
        // One item out of its place (a list written again elsewhere after an edit) still counts as in order.
        let oneMoved = ListingSource(
            count: count, items: items, itemPlace: { ($0 + 1) % count },
            line: { .row(ItemRow(prefix: StyledText("☐ "), title: StyledText(items[($0 + 1) % count].title.string))) })
        #expect(oneMoved.rowsMostlyInCacheOrder)
        var measuredFirst: [UInt8] = []
        ItemTable.write(inOrder, width: nil, depth: .none, keepingAtMost: count - 1) { measuredFirst.append(contentsOf: $0) }
        #expect(String(decoding: measuredFirst, as: UTF8.self) == (0..<count).map { "☐ item \($0)\n" }.joined())
    }
}
