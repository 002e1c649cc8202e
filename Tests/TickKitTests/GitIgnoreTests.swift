import Foundation
import Testing

@testable import TickStore

/// Git's ignore rules, read in-process (`IgnoreRules`): the lists tick finds
/// in a git work tree are the ones `git ls-files --others --ignored
/// --exclude-standard` does not name, and a folder's `.git/config` never
/// makes tick run a program.
@Suite struct GitIgnoreTests {
    /// Runs git (through `env`, so `VAR=value` may come first).
    @discardableResult
    static func git(_ arguments: [String]) throws -> (status: Int32, output: Data) {
        let result = try PythonICalendar.run(arguments.contains("git") ? arguments : ["git"] + arguments, input: nil)
        return (result.status, result.output)
    }

    /// Every file of the differential test's tree; the lists among them are
    /// what tick may find.
    static let tree = [
        "a.md", "b.md", "c.markdown", "notes.txt", "space name.md", "#hash.md", "!bang.md", "[br].md", "star*.md", "q?.md",
        "Abc.md", "abc.md", "1st.md", "build/out.md", "build/sub/deep.md", "docs/a.md", "docs/b.md", "docs/build/c.md",
        "docs/drafts/d.md", "docs/drafts/keep.md", "src/build.md", "deep/x/y/z/build/e.md", "deep/x/y/z/f.md", "deep/x/g.md",
        "logs/2024/jan.md", "logs/2025/feb.md", "foo/bar.md", "foo/x/bar.md", "foo/x/y/bar.md", "bar/foo.md", "y/keep.md",
    ]

    /// Patterns the scenarios draw from: every form of gitignore(5).
    static let vocabulary = [
        "*.md", "a.md", "/a.md", "build", "build/", "/build/", "docs/build", "**/build", "build/**", "docs/**/d.md",
        "**/drafts/*", "!keep.md", "!**/keep.md", "!docs/drafts/keep.md", "foo/**/bar.md", "foo/*/bar.md", "[ab].md",
        "[!a]*.md", "[^a]*.md", "[a-c]*.md", "?.md", "\\#hash.md", "#hash.md", "\\!bang.md", "!bang.md", "\\[br\\].md",
        "[[]br].md", "*.markdown", "deep/**", "deep/**/", "logs/*/", "logs/202[45]", "x/", "y", "!y", "!deep/x/y/",
        "!build/sub/", "docs", "!docs/", "*", "!*.md", "!*/", "Abc.md", "[[:upper:]]*.md", "[[:digit:]]*", "*b*", "**",
        "/**/f.md", "z/", "  ", "", "a.md  ", "a.md\\ ", "!", "/", "docs/\\*.md", "star\\*.md", "star*.md", "q\\?.md",
        "foo/**", "**/x/**/", "*/", "**/", "b.md/", "/docs/b.md", "d.md", "sub", "!sub/deep.md", "**/y/**", "bar",
        "!foo/x/", "foo/x", "[a-]*.md", "[]]*.md", "space\\ name.md", "space name.md", "*.md/", "**/*.md", "x/**/*.md",
        "**foo", "f**", "b*/", "deep/*/y", "!/docs", "\\", "[z-a]*.md", "[[:alpha:]].md", "[[:bogus:]]*.md",
    ]

    /// Where the scenarios put ignore files (the empty string is `.git/info/exclude`).
    static let ignoreFolders = ["", ".", "docs", "deep/x", "foo", "build"]

    /// The ignore files of one scenario, by folder ("" is info/exclude).
    static func scenario(_ number: Int) -> [String: String] {
        var random = SeededGenerator(seed: UInt64(number) &* 7919)
        var files: [String: String] = [:]
        for folder in ignoreFolders where Bool.random(using: &random) {
            let count = Int.random(in: 1...6, using: &random)
            let lines = (0..<count).map { _ in vocabulary.randomElement(using: &random)! }
            let ending = Int.random(in: 0..<5, using: &random) == 0 ? "\r\n" : "\n"
            files[folder] = lines.joined(separator: ending) + (Bool.random(using: &random) ? ending : "")
        }
        return files
    }

    /// Hand-written scenarios for the rules gitignore(5) spells out.
    static let namedScenarios: [[String: String]] = [
        [".": "build/\n"], // a folder pattern at any depth
        [".": "/build/\n"], // anchored at the top only
        [".": "docs/build\n"], // a middle slash anchors
        [".": "*.md\n!keep.md\n"], // negation, later line wins
        [".": "docs/drafts/\n!docs/drafts/keep.md\n"], // no re-include inside an excluded folder
        [".": "docs/drafts/*\n!docs/drafts/keep.md\n"], // but re-include below a `/*`
        [".": "*.md\n", "docs": "!a.md\n"], // a deeper file wins
        ["": "*.md\n", ".": "!b.md\n"], // .gitignore over info/exclude
        [".": "!b.md\n", "": "*.md\n"],
        [".": "foo/**/bar.md\n"], [".": "**/build\n"], [".": "deep/**\n!deep/x/g.md\n"],
        [".": "\\#hash.md\n\\!bang.md\n"], [".": "#hash.md\n!bang.md\n"],
        [".": "a.md   \n"], [".": "space\\ name.md\n"], [".": "[[:upper:]]*.md\n"], [".": "[!a]*.md\n"],
        [".": "*\n!*/\n!*.md\n"], ["docs": "/a.md\nbuild\n"], ["deep/x": "y/z/\n"], [".": "b.md\r\n"],
    ]

    /// The list files of `tree` that tick must find in `folder`: those git
    /// does not name as ignored.
    static func expectedLists(in folder: URL) throws -> [String] {
        let ignored = try git(["-C", folder.path, "ls-files", "--others", "--ignored", "--exclude-standard", "-z"]).output
        let ignoredPaths = Set(ignored.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
        let root = folder.standardizedFileURL.path
        let all = FileManager.default.enumerator(atPath: root)!.compactMap { $0 as? String }
        return all.filter { NotesFolder.isListFile($0) && !ignoredPaths.contains($0) && !$0.hasPrefix(".git") }.sorted()
    }

    @Test("tick skips exactly the files git ignores, over many scenarios of patterns")
    func listsAreTheFilesGitDoesNotIgnore() throws {
        let notes = try NotesFixture()
        for path in Self.tree { try notes.write(path, Array("- [ ] \(path)\n".utf8)) }
        #expect(try Self.git(["-C", notes.root.path, "init", "-q"]).status == 0)
        let scenarios = Self.namedScenarios + (0..<250).map(Self.scenario)
        for (number, scenario) in scenarios.enumerated() {
            for folder in Self.ignoreFolders {
                let path = folder.isEmpty ? ".git/info/exclude" : folder + "/.gitignore"
                try? FileManager.default.removeItem(at: notes.url(path))
                if let content = scenario[folder] { try notes.write(path, Array(content.utf8)) }
            }
            let expected = try Self.expectedLists(in: notes.root)
            let found = try NotesFolder(path: notes.root.path).listFiles().paths
            #expect(found == expected, "scenario \(number): \(scenario)")
            // A notes folder below the work tree's top: the rules above it count too.
            if try Self.git(["-C", notes.root.path, "check-ignore", "-q", "docs"]).status != 0 {
                let below = try NotesFolder(path: notes.url("docs").path).listFiles().paths
                #expect(below == (try Self.expectedLists(in: notes.url("docs"))), "scenario \(number) from docs: \(scenario)")
            }
        }
    }

    @Test("the global excludes file counts: core.excludesFile, else the XDG ignore file")
    func theGlobalExcludesFileCounts() throws {
        let notes = try NotesFixture(["a.md": "- [ ] a\n", "b.md": "- [ ] b\n", "c.md": "- [ ] c\n", "d.md": "- [ ] d\n"])
        let home = try NotesFixture(["config/git/ignore": "a.md\n", "mine.ignore": "b.md\n!d.md\n"])
        #expect(try Self.git(["-C", notes.root.path, "init", "-q"]).status == 0)
        try notes.write(".git/info/exclude", Array("d.md\n".utf8))
        func lists(_ environment: [String: String]) throws -> [String] {
            let run = try TickProcess.run(["lists", "--json", "--dir", notes.root.path], environment: environment)
            let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            return ((json?["lists"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }.sorted()
        }
        let xdg = ["HOME": home.root.path, "XDG_CONFIG_HOME": home.url("config").path]
        #expect(try lists(xdg) == ["b.md", "c.md"])
        // core.excludesFile in ~/.gitconfig replaces the XDG ignore file; info/exclude still wins over it.
        try home.write(".gitconfig", Array("[user]\n\tname = x\n[core]\n\texcludesFile = \"~/mine.ignore\" ; a comment\n".utf8))
        #expect(try lists(xdg) == ["a.md", "c.md"])
        // And git agrees.
        let ignored = try Self.git([
            "HOME=" + home.root.path, "XDG_CONFIG_HOME=" + home.url("config").path, "git", "-C", notes.root.path,
            "ls-files", "--others", "--ignored", "--exclude-standard",
        ]).output
        #expect(String(decoding: ignored, as: UTF8.self) == "b.md\nd.md\n")
    }

    @Test("a linked work tree (.git is a gitdir: file) is found, and its info/exclude read")
    func aGitdirFileIsAWorkTree() throws {
        let repository = try NotesFixture(["kept.md": "", "skip.md": ""])
        #expect(try Self.git(["-C", repository.root.path, "init", "-q"]).status == 0)
        let moved = repository.root.path + "-gitdir"
        try FileManager.default.moveItem(atPath: repository.url(".git").path, toPath: moved)
        defer { try? FileManager.default.removeItem(atPath: moved) }
        try repository.write(".git", Array("gitdir: \(moved)\n".utf8))
        try Data("skip.md\n".utf8).write(to: URL(fileURLWithPath: moved + "/info/exclude"))
        #expect(try NotesFolder(path: repository.root.path).listFiles().paths == ["kept.md"])
        #expect(try Self.expectedLists(in: repository.root) == ["kept.md"])
    }

    @Test("a notes folder that git ignores is read whole")
    func anIgnoredNotesFolderIsReadWhole() throws {
        let repository = try NotesFixture(["notes/a.md": "", "notes/b.md": "", ".gitignore": "notes/\nb.md\n"])
        #expect(try Self.git(["-C", repository.root.path, "init", "-q"]).status == 0)
        #expect(try NotesFolder(path: repository.url("notes").path).listFiles().paths == ["a.md", "b.md"])
    }

    @Test("no command runs a program named in the folder's .git/config")
    func noCommandRunsProgramsFromGitConfig() throws {
        let notes = try NotesFixture([
            "inbox.md": "- [ ] one\n- [ ] two\n- [ ] three\n- [ ] four\n", "other.md": "# Other\n",
            ".gitattributes": "* filter=evil diff=evil\n", "ignored/x.md": "", ".gitignore": "ignored/\n",
        ])
        #expect(try Self.git(["-C", notes.root.path, "init", "-q"]).status == 0)
        let marker = notes.root.path + "-marker"
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let command = "touch '\(marker)'"
        let hooks = notes.root.path + "-hooks"
        try FileManager.default.createDirectory(atPath: hooks, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: hooks) }
        for hook in ["pre-commit", "post-checkout", "post-index-change", "fsmonitor-watchman", "pre-auto-gc", "reference-transaction"] {
            _ = FileManager.default.createFile(
                atPath: hooks + "/" + hook, contents: Data("#!/bin/sh\n\(command)\n".utf8),
                attributes: [.posixPermissions: 0o755])
        }
        for (key, value) in [
            ("core.fsmonitor", command), ("core.hooksPath", hooks), ("diff.external", command),
            ("filter.evil.clean", command), ("filter.evil.smudge", command), ("filter.evil.process", command),
            ("diff.evil.textconv", command), ("core.pager", command), ("core.editor", command),
            ("core.sshCommand", command), ("gc.auto", "1"),
        ] {
            #expect(try Self.git(["-C", notes.root.path, "config", key, value]).status == 0)
        }
        let commands: [[String]] =
            HostileFolderTests.readCommands + [
                ["show", "inbox"], ["check"], ["scheduled"], ["overdue"], ["completed"], ["export", "--format", "csv"],
                ["done", "inbox.md:1"], ["reopen", "inbox.md:1"], ["cancel", "inbox.md:2"], ["add", "inbox", "five"],
                ["edit", "inbox.md:3", "--due", "2026-12-01"], ["mv", "inbox.md:4", "other"], ["rm", "inbox.md:1"],
                ["sort", "inbox", "--by", "title"], ["archive", "inbox"], ["new", "Fresh"],
            ]
        for arguments in commands {
            let result = try notes.tick(arguments)
            #expect(result.status == 0, "tick \(arguments): exit \(result.status): \(result.stderr)")
            #expect(
                !FileManager.default.fileExists(atPath: marker),
                "tick \(arguments) ran a program from .git/config (exit \(result.status): \(result.stderr))")
            try? FileManager.default.removeItem(atPath: marker)
        }
        // The ignore rules still held meanwhile.
        #expect(!(try notes.tick("lists").stdout.contains("ignored")))
    }
}

extension NotesFixture {
    /// Runs tick with `arguments` in this folder, today pinned.
    func tick(_ arguments: [String]) throws -> TickProcess.Result {
        try TickProcess.run(arguments + ["--dir", root.path, "--today", "2026-11-21"])
    }
}
