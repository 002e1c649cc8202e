import Foundation
import Testing

@testable import TickEdit
@testable import TickModel
@testable import TickSyntax

/// `tick merge` under real git (Debian's git 2.39 in CI), set up by
/// `tick git setup`: two clones edit the same list with tick's own commands,
/// then one pulls (merge or rebase) or cherry-picks, in every dialect, with
/// LF and with CRLF plus a byte-order mark; and a criss-cross history.
@Suite struct MergeGitTests {
    /// A folder of repositories, with git and tick run through bash.
    final class Repositories {
        let root: TemporaryFolder
        let binFolder: String

        init() throws {
            root = try TemporaryFolder()
            // `tick` on PATH, as `tick git setup` and the README expect.
            binFolder = root.path + "/bin"
            try FileManager.default.createDirectory(atPath: binFolder, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: binFolder + "/tick", withDestinationPath: TickRunner.executable.path)
            try FileManager.default.createDirectory(atPath: root.path + "/home", withIntermediateDirectories: true)
        }

        /// Runs `script` with bash -e in `folder` (below the root); the
        /// status and what it printed (both streams).
        @discardableResult
        func sh(_ script: String, in folder: String = ".", today: String = "2026-11-21") throws -> (status: Int32, output: String) {
            let run = try TickRunner.run(
                ["-c", "set -e\n" + script],
                environment: [
                    "PATH": binFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                    "HOME": root.path + "/home", "GIT_CONFIG_NOSYSTEM": "1", "TICK_TODAY": today,
                    "GIT_AUTHOR_NAME": "Tick Test", "GIT_AUTHOR_EMAIL": "test@example.com",
                    "GIT_COMMITTER_NAME": "Tick Test", "GIT_COMMITTER_EMAIL": "test@example.com",
                ], in: URL(fileURLWithPath: root.path + "/" + folder), program: URL(fileURLWithPath: "/bin/bash"))
            return (run.status, run.stdout + run.stderr)
        }

        func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: root.path + "/" + path))) }

        func write(_ path: String, _ bytes: [UInt8]) throws {
            let url = URL(fileURLWithPath: root.path + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }

        /// Machine A's repository with `list` committed, and machine B's clone; both set up.
        func twoClones(_ list: [UInt8]) throws {
            try write("a/list.md", list)
            let setUp = try sh("git init -q -b main . && tick git setup && git add -A && git commit -qm base", in: "a")
            #expect(setUp.status == 0, "\(setUp.output)")
            let clone = try sh("git clone -q a b && cd b && tick git setup >/dev/null")
            #expect(clone.status == 0, "\(clone.output)")
        }
    }

    /// One ordinary situation: the list, what each machine does (tick
    /// commands), and what the merged list must hold.
    struct Situation: Sendable, CustomTestStringConvertible {
        var name: String
        var base: String
        var onA: String
        var onB: String
        /// Checks the merged items (status, title, due, done) in file order or as a set.
        var expected: [String]
        var ordered: Bool
        var testDescription: String { name }
    }

    static let situations: [Situation] = [
        Situation(
            name: "both add an item at the end", base: "- [ ] Milk DUE(2026-11-30)\n",
            onA: "tick add list Eggs", onB: "tick add list Butter",
            expected: ["open Milk 2026-11-30 -", "open Butter - -", "open Eggs - -"], ordered: false),
        Situation(
            name: "one marks done, the other changes the due date", base: "- [ ] Pay rent DUE(2026-11-30)\n- [ ] Call mom\n",
            onA: "tick done 'Pay rent' --today 2026-11-21", onB: "tick edit 'Pay rent' --due 2026-12-01",
            expected: ["done Pay rent 2026-12-01 2026-11-21", "open Call mom - -"], ordered: true),
        Situation(
            name: "both mark the same item done on different days", base: "- [ ] Pay rent DUE(2026-11-30)\n",
            onA: "tick done 'Pay rent' --today 2026-11-22", onB: "tick done 'Pay rent' --today 2026-11-21",
            expected: ["done Pay rent 2026-11-30 2026-11-21"], ordered: true),
        Situation(
            name: "one moves an item to another section, the other edits it",
            base: "# List\n\n## Today\n\n- [ ] Call mom\n- [ ] Pay rent\n\n## Later\n\n- [ ] Fix bike DUE(2026-12-05)\n",
            onA: "tick mv 'Call mom' list --section Later", onB: "tick edit 'Call mom' --due 2026-11-26",
            expected: ["open Pay rent - -", "open Fix bike 2026-12-05 -", "open Call mom 2026-11-26 -"], ordered: true),
        Situation(
            name: "both complete the same recurring item", base: "- [ ] Water plants DUE(2026-11-20) EVERY\n",
            onA: "tick done 'Water plants' --today 2026-11-22", onB: "tick done 'Water plants' --today 2026-11-21",
            expected: ["open Water plants 2026-11-27 -", "done Water plants 2026-11-20 2026-11-21"], ordered: true),
    ]

    enum Integration: String, CaseIterable, Sendable {
        case merge, rebase
        case cherryPick = "cherry-pick"
    }

    /// `base` with DUE(d) and EVERY written in `dialect`, with CRLF and a BOM when asked.
    static func text(_ base: String, _ dialect: MetadataDialect, crlf: Bool) -> [UInt8] {
        var text = base.replacingOccurrences(of: "EVERY", with: TokenFormat.text(.recurrence, "week", dialect: dialect))
        while let range = text.range(of: #"DUE\((\d{4}-\d\d-\d\d)\)"#, options: .regularExpression) {
            let day = String(text[range].dropFirst(4).dropLast())
            text.replaceSubrange(range, with: TokenFormat.date(.due, TaskDate(iso: day)!, dialect: dialect))
        }
        if crlf { text = "\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n") }
        return Array(text.utf8)
    }

    static func summary(_ bytes: [UInt8]) -> [String] {
        DocumentParser.parse(bytes, path: "list.md").items.map { item in
            "\(item.status) \(item.title) \(item.metadata.due?.isoString ?? "-") \(item.metadata.done?.isoString ?? "-")"
        }
    }

    static let cases: [(Situation, MetadataDialect, Bool, Integration)] = situations.flatMap { situation in
        [MetadataDialect.tick, .emoji, .dataview].flatMap { dialect in
            [false, true].flatMap { crlf in Integration.allCases.map { (situation, dialect, crlf, $0) } }
        }
    }

    @Test("two clones edit the same list; the pull or cherry-pick merges it without a conflict", arguments: cases)
    func twoClones(_ situation: Situation, _ dialect: MetadataDialect, _ crlf: Bool, _ integration: Integration) throws {
        let repos = try Repositories()
        try repos.twoClones(Self.text(situation.base, dialect, crlf: crlf))
        let a = try repos.sh(situation.onA + " >/dev/null && git commit -qam 'on A'", in: "a")
        let b = try repos.sh(situation.onB + " >/dev/null && git commit -qam 'on B'", in: "b")
        #expect(a.status == 0 && b.status == 0, "\(a.output)\(b.output)")
        let command =
            switch integration {
            case .merge: "git pull -q --no-rebase --no-edit"
            case .rebase: "git pull -q --rebase"
            case .cherryPick: "git fetch -q && git cherry-pick --keep-redundant-commits origin/main >/dev/null"
            }
        let pulled = try repos.sh(command + " && git status --porcelain", in: "b")
        #expect(pulled.status == 0, "\(pulled.output)")
        #expect(!pulled.output.contains("CONFLICT") && !pulled.output.contains("UU "), "\(pulled.output)")
        let merged = try repos.bytes("b/list.md")
        let text = String(decoding: merged, as: UTF8.self)
        #expect(!text.contains("<<<<<<<") && !text.contains(">>>>>>>"), "\(text)")
        let summary = Self.summary(merged)
        if situation.ordered {
            #expect(summary == situation.expected, "\(text)")
        } else {
            #expect(summary.sorted() == situation.expected.sorted(), "\(text)")
        }
        if crlf {
            #expect(merged.starts(with: [0xEF, 0xBB, 0xBF]))
            #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "every line ends in CRLF:\n\(text.debugDescription)")
        }
        // Every token tick wrote is in the list's own dialect.
        let document = DocumentParser.parse(merged, path: "list.md")
        for item in document.items {
            for token in item.runs.tokens where token.field != .tag {
                #expect(token.dialect == dialect, "\(text)")
            }
        }
    }

    @Test("a real conflict under git leaves markers around the one item and git reports the file conflicted")
    func realConflict() throws {
        let repos = try Repositories()
        try repos.twoClones(Array("- [ ] Milk\n- [ ] Pay rent due:2026-11-30\n- [ ] Bread\n".utf8))
        try repos.sh("tick edit 'Pay rent' --due 2026-12-01 >/dev/null && tick add list Eggs >/dev/null && git commit -qam A", in: "a")
        try repos.sh("tick edit 'Pay rent' --due 2026-12-02 >/dev/null && git commit -qam B", in: "b")
        let pulled = try repos.sh("git pull -q --no-rebase --no-edit", in: "b")
        #expect(pulled.status != 0)
        #expect(pulled.output.contains("CONFLICT"), "\(pulled.output)")
        let text = String(decoding: try repos.bytes("b/list.md"), as: UTF8.self)
        #expect(
            text == """
                - [ ] Milk
                <<<<<<< ours
                - [ ] Pay rent due:2026-12-02
                =======
                - [ ] Pay rent due:2026-12-01
                >>>>>>> theirs
                - [ ] Bread
                - [ ] Eggs

                """)
        // tick sees the conflict: check reports it, an edit refuses the file.
        let check = try repos.sh("tick check", in: "b")
        #expect(check.status == 1 && check.output.contains("list.md:2:1"), "\(check.output)")
        let done = try repos.sh("tick done Milk", in: "b")
        #expect(done.status == 65, "\(done.output)")
    }

    @Test("a criss-cross history (two merge bases) merges each situation with the driver, inner merge included", arguments: situations)
    func crissCross(_ situation: Situation) throws {
        let repos = try Repositories()
        try repos.write("a/list.md", Self.text(situation.base, .emoji, crlf: false))
        // x and y each make one side of the situation, then merge each other
        // (x takes y, y takes x's first commit): two merge bases for what follows.
        let script = """
            git init -q -b main . && tick git setup >/dev/null && git add -A && git commit -qm base
            git checkout -q -b x && \(situation.onA) >/dev/null && git commit -qam x1
            git checkout -q main && git checkout -q -b y && \(situation.onB) >/dev/null && git commit -qam y1
            git checkout -q x && git merge -q --no-edit y
            git checkout -q y && git merge -q --no-edit x~1
            git checkout -q x && tick add list 'Later on X' >/dev/null && git commit -qam x2
            git checkout -q y && tick add list 'Later on Y' >/dev/null && git commit -qam y2
            git checkout -q x && git merge --no-edit y 2>&1
            """
        let run = try repos.sh(script, in: "a")
        #expect(run.status == 0, "\(run.output)")
        #expect(!run.output.contains("CONFLICT"), "\(run.output)")
        let bases = try repos.sh("git merge-base --all HEAD^1 HEAD^2 | wc -l", in: "a")
        #expect(bases.output.trimmingCharacters(in: .whitespacesAndNewlines) == "2", "a criss-cross has two merge bases: \(bases.output)")
        let merged = try repos.bytes("a/list.md")
        let expected = situation.expected + ["open Later on X - -", "open Later on Y - -"]
        #expect(Self.summary(merged).sorted() == expected.sorted(), "\(String(decoding: merged, as: UTF8.self))")
    }

    @Test("tick git setup writes .gitattributes and merge.tick.*, says what it did, and changes nothing the second time")
    func setupIsIdempotent() throws {
        let repos = try Repositories()
        try repos.write("a/notes/list.md", Array("- [ ] Milk\n".utf8))
        try repos.write("a/notes/.gitattributes", Array("*.png binary".utf8))
        let first = try repos.sh("git init -q -b main . && cd notes && tick git setup", in: "a")
        #expect(first.status == 0, "\(first.output)")
        #expect(
            first.output.contains("added '*.md merge=tick'")
                && first.output.contains("set merge.tick.driver = tick merge --marker-size %L %O %A %B %P"),
            "\(first.output)")
        #expect(
            String(decoding: try repos.bytes("a/notes/.gitattributes"), as: UTF8.self) == "*.png binary\n*.md merge=tick\n*.markdown merge=tick\n")
        let second = try repos.sh("cd notes && tick git setup", in: "a")
        #expect(second.status == 0 && second.output.contains("Nothing changed"), "\(second.output)")
        #expect(
            String(decoding: try repos.bytes("a/notes/.gitattributes"), as: UTF8.self) == "*.png binary\n*.md merge=tick\n*.markdown merge=tick\n")
        let attribute = try repos.sh("git check-attr merge notes/list.md", in: "a")
        #expect(attribute.output.contains("merge: tick"), "\(attribute.output)")
        // Outside a work tree: one line, exit 66.
        try repos.write("plain/list.md", Array("- [ ] Milk\n".utf8))
        let outside = try repos.sh("GIT_CEILING_DIRECTORIES=\(repos.root.path) tick git setup", in: "plain")
        #expect(outside.status == 66 && outside.output.contains("is not in a git work tree"), "\(outside.output)")
    }

    @Test("the README's two-clone scenario runs as written: both machines edit, pull, no conflict")
    func readmeScenario() throws {
        let readme = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        guard let start = readme.range(of: "```bash\n"), let end = readme.range(of: "\n```", range: start.upperBound..<readme.endIndex)
        else {
            Issue.record("README.md has no bash block with the scenario")
            return
        }
        let script = String(readme[start.upperBound..<end.lowerBound])
        #expect(script.contains("git pull"))
        let repos = try Repositories()
        let run = try repos.sh(script)
        #expect(run.status == 0, "\(run.output)")
        #expect(!run.output.contains("CONFLICT"), "\(run.output)")
        let summary = Self.summary(try repos.bytes("laptop/home.md"))
        #expect(
            summary.sorted() == ["done Pay rent 2026-12-01 2026-11-21", "open Milk - -", "open Eggs - -", "open Butter - -"].sorted(), "\(summary)")
    }
}
