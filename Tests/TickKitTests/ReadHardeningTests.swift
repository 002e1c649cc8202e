import Foundation
import Testing

@testable import TickModel
@testable import TickStore
@testable import TickSyntax

/// Hostile files on the read path (issue 13): inputs built to make a parser
/// or matcher take exponential or quadratic time or memory, run through the
/// built binary under a time limit and, where memory is the threat, a
/// memory limit.
@Suite struct ReadHardeningTests {
    /// Runs tick on `notes` under `timeout 60` and, when given, `ulimit -v`
    /// (KiB): a run that would not finish is killed and shows as exit 124.
    /// Under a sanitizer (`make sanitize` sets TICK_SANITIZER) the address
    /// space limit is left out: the sanitizer's shadow memory alone is
    /// terabytes of address space; the time limit still holds.
    static func bounded(_ notes: NotesFixture, _ arguments: [String], memoryKiB: Int? = nil) throws -> TickProcess.Result {
        let underSanitizer = ProcessInfo.processInfo.environment["TICK_SANITIZER"] != nil
        let limit = underSanitizer ? "" : memoryKiB.map { "ulimit -v \($0); " } ?? ""
        return try TickProcess.run(
            arguments + ["--dir", notes.root.path, "--today", "2026-11-21"],
            wrapper: ["/bin/sh", "-c", limit + "exec timeout 60 \"$@\"", "sh"])
    }

    /// 16 levels of `x: &x [*w, *w, ...]`: 9^16 values once expanded, in under a kilobyte.
    static let aliasBomb: String = {
        var lines = ["---", "a: &a [x, x, x, x, x, x, x, x, x]"]
        var previous = "a"
        for level in 0..<16 {
            let name = "b\(level)"
            lines.append("\(name): &\(name) [" + Array(repeating: "*" + previous, count: 9).joined(separator: ", ") + "]")
            previous = name
        }
        return (lines + ["---", "# Bomb", "", "- [ ] inside the bomb", "- [ ] also inside", ""]).joined(separator: "\n")
    }()

    @Test("a YAML alias bomb in front matter is a warning; reads and edits still work, in bounded memory")
    func aliasBombIsAWarning() throws {
        let notes = try NotesFixture(["bomb.md": Self.aliasBomb, "other.md": "- [ ] other item\n"])
        let memory = 2_000_000 // 2 GB of address space: the bomb wanted 24 GB
        for command in HostileFolderTests.readCommands {
            let result = try Self.bounded(notes, command, memoryKiB: memory)
            #expect(result.status == 0, "tick \(command): exit \(result.status): \(result.stderr.prefix(300))")
        }
        let all = try Self.bounded(notes, ["all"], memoryKiB: memory)
        #expect(all.stdout.contains("other item") && all.stdout.contains("inside the bomb"))
        let check = try Self.bounded(notes, ["check"], memoryKiB: memory)
        #expect(check.stdout.contains("YAML aliases expand to more than 10000 values"), "\(check.stdout) \(check.stderr)")
        #expect(check.status == 1)
        let doneOther = try Self.bounded(notes, ["done", "other.md:1"], memoryKiB: memory)
        #expect(doneOther.status == 0, "\(doneOther.stderr.prefix(300))")
        #expect(try notes.text("other.md").hasPrefix("- [x] other item"))
        let doneInside = try Self.bounded(notes, ["done", "inside the bomb"], memoryKiB: memory)
        #expect(doneInside.status == 0, "\(doneInside.stderr.prefix(300))")
        #expect(try notes.text("bomb.md").contains("- [x] inside the bomb"))
        #expect(try notes.text("bomb.md").hasPrefix(Self.aliasBomb.components(separatedBy: "# Bomb")[0]))
    }

    @Test("aliases within the budget still read as YAML does")
    func modestAliasesStillRead() {
        let parsed = FrontMatterParser.parse("base: &b [1, 2]\ncopy: *b\n")
        guard case .success(let values) = parsed else {
            Issue.record("\(parsed)")
            return
        }
        #expect(values.map(\.key) == ["base", "copy"])
        #expect(values[1].value == .array([.int(1), .int(2)]))
        #expect(
            AliasBudget.lineExceedingBudget(
                "a: &a [" + Array(repeating: "x", count: 100).joined(separator: ",") + "]\n"
                    + (0..<99).map { "k\($0): *a" }.joined(separator: "\n")) == nil)
        #expect(
            AliasBudget.lineExceedingBudget(
                "a: &a [" + Array(repeating: "x", count: 100).joined(separator: ",") + "]\n"
                    + (0..<101).map { "k\($0): *a" }.joined(separator: "\n")) == 101)
    }
}

/// Wide GFM tables (issue 13.12): cmark-gfm 0.29 spends n²/2 steps on a
/// row of n cells, so tick narrows wide rows in its private copy of the
/// file (`CmarkInput.narrowWideTableRows`) without changing any block.
@Suite struct WideTableTests {
    /// A table of `rows` rows of `columns` cells between two items.
    static func wideTable(rows: Int, columns: Int) -> String {
        let header = "|" + (0..<columns).map { "h\($0)" }.joined(separator: "|") + "|"
        let delimiter = "|" + Array(repeating: "---", count: columns).joined(separator: "|") + "|"
        let body = (0..<rows).map { _ in "|" + Array(repeating: "c", count: columns).joined(separator: "|") + "|" }
        return
            (["- [ ] before the table due:2026-11-25", "", header, delimiter] + body
            + ["- [ ] right after the table", "", "- [ ] after the table", ""]).joined(separator: "\n")
    }

    @Test("a table of 20 rows of 60,000 cells is read in linear time; the items around it are found and editable")
    func wideTableIsLinear() throws {
        let notes = try NotesFixture(["wide.md": Self.wideTable(rows: 18, columns: 60_000), "other.md": "- [ ] other\n"])
        let all = try ReadHardeningTests.bounded(notes, ["all"])
        #expect(all.status == 0, "exit \(all.status) (124: killed after 60 s): \(all.stderr.prefix(300))")
        for title in ["before the table", "right after the table", "after the table", "other"] {
            #expect(all.stdout.contains(title), "\(title) missing from: \(all.stdout.prefix(500))")
        }
        let check = try ReadHardeningTests.bounded(notes, ["check"])
        #expect(check.status == 0, "exit \(check.status): \(check.stdout.prefix(300)) \(check.stderr.prefix(300))")
        let done = try ReadHardeningTests.bounded(notes, ["done", "right after the table"])
        #expect(done.status == 0, "exit \(done.status): \(done.stderr.prefix(300))")
        #expect(try notes.text("wide.md").contains("- [x] right after the table"))
    }

    /// cmark-gfm's blocks (tables and rows included, cells left out) of a
    /// short copy, narrowed or not.
    static func skeletons(_ text: String, keeping base: Int) -> (plain: [String], narrowed: [String], changed: Bool) {
        let bytes = Array(text.utf8)
        let source = SourceText(bytes)
        var short = bytes.withUnsafeBufferPointer { CmarkInput.shortCopy(of: $0, blankingUpTo: 0, lines: source) }
        let plain = short.bytes.withUnsafeBufferPointer { CmarkBlockParser.blockSkeleton(of: $0) }
        let before = short.bytes
        CmarkInput.narrowWideTableRows(in: &short.bytes, lineStarts: short.lineStarts, keeping: base)
        #expect(short.bytes.count == before.count)
        let narrowed = short.bytes.withUnsafeBufferPointer { CmarkBlockParser.blockSkeleton(of: $0) }
        return (plain, narrowed, short.bytes != before)
    }

    @Test("narrowing keeps every block, table and row on tables whose header and delimiter counts agree or differ by a little or a lot")
    func narrowingKeepsTablesOnChosenCases() {
        func row(_ cells: Int, _ cell: String, leading: Bool = true, trailing: Bool = true) -> String {
            (leading ? "|" : "") + Array(repeating: cell, count: cells).joined(separator: "|") + (trailing ? "|" : "")
        }
        var cases: [String] = []
        for header in [20, 21, 22, 23, 40] {
            for delimiter in [19, 20, 21, 22, 40] {
                for (leading, trailing) in [(true, true), (false, false), (true, false), (false, true)] {
                    cases.append(
                        [
                            row(header, "h"), row(delimiter, "---", leading: leading, trailing: trailing),
                            row(30, "c"), "- [ ] item", "",
                        ].joined(separator: "\n"))
                }
            }
        }
        cases.append(
            [row(30, "h"), row(30, ":-:"), row(30, "-"), row(29, "--"), "", "> " + row(25, "q"), "> " + row(25, "-"), ""].joined(separator: "\n"))
        cases.append(["- " + row(24, "h"), "  " + row(24, "-"), "  " + row(40, "x"), "- [ ] next", ""].joined(separator: "\n"))
        cases.append([row(30, "a\\|b"), row(30, "---"), ""].joined(separator: "\n"))
        var tables = 0
        for text in cases {
            let (plain, narrowed, changed) = Self.skeletons(text, keeping: 2)
            #expect(plain == narrowed, "\(text.debugDescription)")
            #expect(changed, "nothing narrowed in \(text.debugDescription)")
            if plain.contains(where: { $0.hasPrefix("table ") }) { tables += 1 }
        }
        #expect(tables >= 15, "only \(tables) of \(cases.count) cases made a table")
    }

    @Test("narrowing keeps every block, table and row on random table-like lines")
    func narrowingKeepsTablesOnRandomInput() {
        var random = SeededGenerator(seed: 13_12)
        let cells = ["a", "", " b ", "---", ":--", "--:", ":-:", "-", "\\|", "a\\\\", "`x|y`", " "]
        let prefixes = ["", "", "", "", "", "", "> ", "- ", "  ", "- [ ] ", "1. ", "    ", "# "]
        var tables = 0
        var narrowedTables = 0
        for round in 0..<1500 {
            var lines: [String] = []
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                switch Int.random(in: 0..<10, using: &random) {
                case 0: lines.append("")
                case 1: lines.append("- [ ] an item")
                case 2: lines.append("text")
                default:
                    let count = Int.random(in: 0...24, using: &random)
                    let delimiterRow = Bool.random(using: &random)
                    var row = prefixes.randomElement(using: &random)! + (Bool.random(using: &random) ? "|" : "")
                    row += (0..<count).map { _ in
                        delimiterRow
                            ? ["---", ":-", "-:", " - "].randomElement(using: &random)!
                            : cells.randomElement(using: &random)!
                    }.joined(separator: "|")
                    if Bool.random(using: &random) { row += "|" }
                    lines.append(row)
                    // Often the same row shape twice: a header and its delimiter.
                    if Int.random(in: 0..<3, using: &random) == 0 {
                        let next = count + (Bool.random(using: &random) ? 0 : Int.random(in: -3...3, using: &random))
                        lines.append("|" + Array(repeating: "---", count: max(0, next)).joined(separator: "|") + "|")
                    }
                }
            }
            let text = lines.joined(separator: ["\n", "\r\n"].randomElement(using: &random)!) + "\n"
            let base = Int.random(in: 2...4, using: &random)
            let (plain, narrowed, changed) = Self.skeletons(text, keeping: base)
            if plain.contains(where: { $0.hasPrefix("table ") }) {
                tables += 1
                if changed { narrowedTables += 1 }
            }
            #expect(plain == narrowed, "round \(round), keeping \(base): \(text.debugDescription)")
        }
        #expect(
            tables > 150 && narrowedTables > 50,
            "only \(tables) inputs made a table, \(narrowedTables) of them narrowed: the generator does not test much")
    }
}

/// File names that are not UTF-8 (issue 13.7): tick names lists by path, so
/// it cannot name such a list; it must say so instead of letting its items
/// vanish.
@Suite struct NonUTF8NameTests {
    /// Creates `bytes` (a name, not UTF-8) below `folder`, a file with
    /// `contents` or, when nil, a folder.
    static func create(_ name: [UInt8], in folder: URL, contents: String?) {
        let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        path.withUnsafeBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { path in
                if let contents {
                    let descriptor = open(path.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                    precondition(descriptor >= 0)
                    _ = contents.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress!, $0.count - 1) }
                    close(descriptor)
                } else {
                    precondition(mkdir(path.baseAddress!, 0o755) == 0)
                }
            }
        }
    }

    @Test("a list or folder whose name is not UTF-8 is a warning in every read command and an error in check")
    func nonUTF8NamesAreReported() throws {
        let notes = try NotesFixture(["ok.md": "- [ ] fine\n"])
        Self.create(Array("caf".utf8) + [0xE9] + Array(".md".utf8), in: notes.root, contents: "- [ ] latin-1 named\n")
        Self.create(Array("dir".utf8) + [0xFF], in: notes.root, contents: nil)
        Self.create(Array("notes".utf8) + [0xE9] + Array(".txt".utf8), in: notes.root, contents: "not a list")
        try HostileFolderTests.readEverything(notes, expectWarning: "caf\\xE9.md: its name is not valid UTF-8")
        let all = try TickProcess.run(["all", "--dir", notes.root.path, "--today", "2026-11-21"])
        #expect(all.stderr.contains("dir\\xFF: its name is not valid UTF-8"), "\(all.stderr)")
        #expect(!all.stderr.contains("notes\\xE9.txt"), "a file that is no list was named: \(all.stderr)")
        let check = try TickProcess.run(["check", "--dir", notes.root.path, "--today", "2026-11-21"])
        #expect(check.status == 1, "check exit \(check.status): \(check.stdout) \(check.stderr)")
        #expect(check.stdout.contains("caf\\xE9.md:1:1: error: its name is not valid UTF-8"), "\(check.stdout)")
        #expect(check.stdout.contains("dir\\xFF:1:1: error: its name is not valid UTF-8"), "\(check.stdout)")
        // An edit elsewhere in the folder still works, and warns.
        let done = try TickProcess.run(["done", "fine", "--dir", notes.root.path, "--today", "2026-11-21"])
        #expect(done.status == 0 && done.stderr.contains("caf\\xE9.md"), "exit \(done.status): \(done.stderr)")
    }

    @Test("escaped names show UTF-8 as it is and every other byte as \\xHH, and read back to the same bytes")
    func escapedNamesRoundTrip() {
        for name in [Array("caf".utf8) + [0xE9] + Array(".md".utf8), Array("ü\\x41".utf8) + [0x80, 0xFF], [0xC3], Array("plain".utf8)] {
            let escaped = NotesFolder.escapedName(name)
            #expect(NotesFolder.rawName(escaped) == name + [0], "\(name) → \(escaped)")
        }
        #expect(NotesFolder.escapedName(Array("caf".utf8) + [0xE9] + Array(".md".utf8)) == "caf\\xE9.md")
    }
}
