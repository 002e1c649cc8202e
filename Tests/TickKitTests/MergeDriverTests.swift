import Foundation
import Testing

@testable import TickEdit
@testable import TickModel
@testable import TickSyntax

/// `tick merge` (SPEC §8): the fixture corpus, one case per rule, and
/// properties on generated lists and edits.
@Suite struct MergeDriverTests {
    static let corpusRoot = Fixture.path("merge")
    static let corpus: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: corpusRoot)) ?? []).sorted()
    static let today = "2026-11-21"

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func merge(_ base: [UInt8], _ ours: [UInt8], _ theirs: [UInt8]) throws -> ListMerge.Outcome {
        try ListMerge.merge(base: base, ours: ours, theirs: theirs, path: "list.md", today: date(today), lineMerge: GitProcess.mergeFile)
    }

    /// The items of merged bytes, order aside: status, title, dates,
    /// priority, tags and note lines of each (lines both sides added to
    /// the notes come ours first, so their order is set aside too).
    static func items(_ bytes: [UInt8]) -> [String] {
        DocumentParser.parse(bytes, path: "list.md").items.map { item in
            let m = item.metadata
            let dates = MetadataField.dateFields.map { m.date($0)?.isoString ?? "-" }.joined(separator: ",")
            return
                "\(item.status) \(item.title) [\(dates)] \(m.hasPriority ? m.priority.name : "-") \(m.tags.sorted()) \(m.every ?? "-") \((item.notes ?? "").split(separator: "\n").sorted())"
        }.sorted()
    }

    @Test("the corpus has a case for every rule")
    func corpusIsThere() {
        #expect(Self.corpus.count >= 25)
    }

    @Test("tick merge writes the expected bytes to OURS and exits 1 exactly when markers are left", arguments: corpus)
    func corpusCase(_ name: String) throws {
        let folder = Self.corpusRoot + "/" + name
        let scratch = try TemporaryFolder()
        let ours = scratch.url.appendingPathComponent("ours.md")
        try Data(try Self.bytes(folder + "/ours.md")).write(to: ours)
        let run = try TickRunner.run(
            ["merge", folder + "/base.md", ours.path, folder + "/theirs.md", name + ".md"],
            environment: ["TICK_TODAY": Self.today])
        let expected = try Self.bytes(folder + "/expected.md")
        let merged = try Self.bytes(ours.path)
        #expect(String(decoding: merged, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(merged == expected)
        let conflicted = String(decoding: expected, as: UTF8.self).contains("<<<<<<< ours")
        #expect(run.status == (conflicted ? 1 : 0), "\(run.stderr)")
        if conflicted { #expect(run.stderr.contains("\(name).md: ") && run.stderr.contains("git add")) }
    }

    @Test("swapping ours and theirs merges to the same items", arguments: corpus)
    func swappedSides(_ name: String) throws {
        let folder = Self.corpusRoot + "/" + name
        let (base, ours, theirs) = (try Self.bytes(folder + "/base.md"), try Self.bytes(folder + "/ours.md"), try Self.bytes(folder + "/theirs.md"))
        let forward = try Self.merge(base, ours, theirs)
        let backward = try Self.merge(base, theirs, ours)
        #expect(forward.conflicts == backward.conflicts)
        if forward.conflicts == 0 { #expect(Self.items(forward.bytes) == Self.items(backward.bytes)) }
    }

    @Test("an unknown marker size or a missing version is one error line, and OURS is left as it was")
    func badInvocations() throws {
        let scratch = try TemporaryFolder(["ours.md": "- [ ] A\n", "theirs.md": "- [x] A\n"])
        let missing = try TickRunner.run(["merge", scratch.path + "/nope.md", scratch.path + "/ours.md", scratch.path + "/theirs.md"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("cannot read the base version") && missing.stderr.split(separator: "\n").count == 1)
        let size = try TickRunner.run(["merge", "--marker-size", "0", "a", "b", "c"])
        #expect(size.status == 64)
        #expect(try String(contentsOfFile: scratch.path + "/ours.md", encoding: .utf8) == "- [ ] A\n")
    }

    @Test("a larger marker size (git's %L) makes longer markers")
    func markerSize() throws {
        let folder = Self.corpusRoot + "/same-field-changed-on-both-sides-conflicts"
        let outcome = try ListMerge.merge(
            base: try Self.bytes(folder + "/base.md"), ours: try Self.bytes(folder + "/ours.md"),
            theirs: try Self.bytes(folder + "/theirs.md"), path: "list.md", today: date(Self.today),
            markers: ListMerge.Markers(size: 9), lineMerge: GitProcess.mergeFile)
        let text = String(decoding: outcome.bytes, as: UTF8.self)
        #expect(text.contains("<<<<<<<<< ours\n") && text.contains("\n=========\n") && text.contains(">>>>>>>>> theirs\n"))
    }

    // MARK: Properties

    /// A generated list and edits to it, made with tick's own edits.
    struct Generator {
        var random: SeededGenerator
        var counter = 0
        static let words = [
            "apples", "bread", "call", "dentist", "email", "fix", "garden", "haircut", "invoice", "jacket",
            "kettle", "lamp", "movie", "notes", "oven", "paint", "quiz", "rent", "shoes", "taxes",
        ]

        mutating func title() -> String {
            counter += 1
            return "\(Self.words.randomElement(using: &random)!) \(Self.words.randomElement(using: &random)!) n\(counter)x"
        }

        mutating func day() -> TaskDate { TaskDate(year: 2026, month: 12, day: Int.random(in: 1...28, using: &random)) }

        mutating func list(_ dialect: MetadataDialect) -> [UInt8] {
            var text = ""
            for index in 0..<Int.random(in: 2...7, using: &random) {
                if index > 0, Int.random(in: 0..<5, using: &random) == 0 { text += "\n## \(title())\n\n" }
                var line = "- [ ] \(title())"
                if Bool.random(using: &random) { line += " " + TokenFormat.date(.due, day(), dialect: dialect) }
                if Int.random(in: 0..<4, using: &random) == 0 { line += " " + TokenFormat.text(.recurrence, "week", dialect: dialect) }
                if Int.random(in: 0..<3, using: &random) == 0 { line += " #" + Self.words.randomElement(using: &random)! }
                text += line + "\n"
                if Int.random(in: 0..<6, using: &random) == 0 { text += "  A note.\n" }
            }
            return Array(text.utf8)
        }

        /// One to three edits, each one a tick command's splices or a line
        /// added or removed.
        mutating func edit(_ bytes: [UInt8]) -> [UInt8] {
            var bytes = bytes
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let document = DocumentParser.parse(bytes, path: "list.md")
                let top = document.items.filter { $0.parent == nil }
                guard let item = top.randomElement(using: &random) else { break }
                var splices: [Splice]
                switch Int.random(in: 0..<7, using: &random) {
                case 0:
                    splices = StatusEdit.splices(
                        .done(date: TaskDate(year: 2026, month: 11, day: Int.random(in: 20...23, using: &random))),
                        item: item, in: document, today: date(MergeDriverTests.today))
                case 1: splices = TokenEdit.splices([.setDate(.due, day())], item: item, in: document)
                case 2: splices = TokenEdit.splices([.addTag(Self.words.randomElement(using: &random)!)], item: item, in: document)
                case 3: splices = TokenEdit.splices([.replaceText(title())], item: item, in: document)
                case 4: splices = [Splice.delete(EditStyle.blockStart(item, in: document.source)..<item.blockRange.upperBound)]
                case 5: splices = [Splice.insert("- [ ] \(title())\n", at: EditStyle.blockStart(item, in: document.source))]
                default:
                    let end = bytes.last == 0x0A || bytes.isEmpty ? "" : "\n"
                    splices = [Splice.insert(end + "- [ ] \(title())\n", at: bytes.count)]
                }
                if let edited = try? Splice.apply(splices, to: bytes) { bytes = edited }
            }
            return bytes
        }
    }

    static func titles(_ bytes: [UInt8]) -> Set<String> {
        Set(DocumentParser.parse(bytes, path: "list.md").items.map(\.title))
    }

    @Test(
        "generated lists: a side merged with itself or with an unchanged side is that side byte for byte; swapping sides keeps the items; no item is lost"
    )
    func properties() throws {
        var generator = Generator(random: SeededGenerator(seed: 17_2026))
        var clean = 0
        for round in 0..<50 {
            let dialect: MetadataDialect = [.tick, .emoji, .dataview][round % 3]
            let base = generator.list(dialect)
            let ours = generator.edit(base)
            let theirs = generator.edit(base)
            let context =
                "round \(round)\nBASE\n\(String(decoding: base, as: UTF8.self))OURS\n\(String(decoding: ours, as: UTF8.self))THEIRS\n\(String(decoding: theirs, as: UTF8.self))"

            #expect(try Self.merge(base, ours, ours) == ListMerge.Outcome(bytes: ours, conflicts: 0), "\(context)")
            #expect(try Self.merge(base, ours, base) == ListMerge.Outcome(bytes: ours, conflicts: 0), "\(context)")
            #expect(try Self.merge(base, base, theirs) == ListMerge.Outcome(bytes: theirs, conflicts: 0), "\(context)")

            let merged = try Self.merge(base, ours, theirs)
            let swapped = try Self.merge(base, theirs, ours)
            if merged.conflicts == 0 && swapped.conflicts == 0 {
                clean += 1
                #expect(Self.items(merged.bytes) == Self.items(swapped.bytes), "\(context)")
            }
            // Nothing lost: what a side added, and what both sides kept, is there
            // (between markers, if it conflicts).
            let text = String(decoding: merged.bytes, as: UTF8.self)
            let (b, o, t) = (Self.titles(base), Self.titles(ours), Self.titles(theirs))
            for title in o.subtracting(b).union(t.subtracting(b)).union(b.intersection(o).intersection(t)) {
                #expect(text.contains(title), "\(title) is lost\n\(context)\nMERGED\n\(text)")
            }
        }
        #expect(clean >= 25)
    }
}
