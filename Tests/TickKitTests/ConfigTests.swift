import Foundation
import Testing

@testable import TickSyntax

/// The config files and saved views (SPEC §9): what they set, which wins,
/// and one line with path, line and column for a bad file (64).
@Suite struct ConfigTests {
    /// A user config folder of the test's own, with `text` as config.yml.
    final class UserConfig {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tick-config-\(UUID().uuidString)")
        init(_ text: String) throws {
            try FileManager.default.createDirectory(at: home.appendingPathComponent("tick"), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: home.appendingPathComponent("tick/config.yml"))
        }
        deinit { try? FileManager.default.removeItem(at: home) }
        var environment: [String: String] { ["XDG_CONFIG_HOME": home.path] }
        var path: String { home.path + "/tick/config.yml" }
    }

    static let lists = [
        "work.md": "- [ ] Send budget !urgent due:2026-11-18 #work\n- [ ] Review PR !high due:2026-11-25 #work\n- [ ] Old thing #work\n",
        "home.md": "- [ ] Fix tap due:2026-11-19\n",
    ]

    @Test("a full config reads as written; a folder's settings win over the user's, views and aliases by name")
    func parsesAndMerges() throws {
        let user = try ConfigFile.parse(
            """
            folder: ~/notes
            sort: priority,due
            dialect: emoji
            aliases:
              w: query '#work' --sort due
            views:
              work: {query: "open #work", sort: due, group-by: list}
              soon: "open due <= +7d"
            """, path: "config.yml")
        #expect(user.folder == "~/notes" && user.sort == [.priority, .due] && user.dialect == .emoji)
        #expect(user.alias("w") == ["query", "#work", "--sort", "due"])
        #expect(user.view("WORK") == ConfigFile.View(query: "open #work", sort: [.due], groupBy: .list))
        #expect(user.view("soon")?.query == "open due <= +7d")
        let folder = try ConfigFile.parse("sort: title\nviews:\n  soon: \"due <= +3d\"\n", path: ".tick.yml")
        let merged = user.overridden(by: folder)
        #expect(merged.sort == [.title] && merged.dialect == .emoji)
        #expect(merged.view("soon")?.query == "due <= +3d" && merged.view("work") != nil)
    }

    @Test(
        "a bad file is one problem with its path, line and column",
        arguments: [
            ("sortt: due\n", 1, 1, "unknown setting 'sortt' (did you mean 'sort'?)"),
            ("sort: priority,duee\n", 1, 7, "unknown sort key 'duee' (did you mean 'due'?)"),
            ("dialect: obsidian\n", 1, 10, "unknown dialect 'obsidian'"),
            ("views:\n  a: {query: x, group-by: lst}\n", 2, 27, "unknown group key 'lst' (did you mean 'list'?)"),
            ("views:\n  a: {sort: due}\n", 2, 6, "the view 'a' needs a query"),
            ("a: [b\n", 2, 1, "not valid YAML"),
            ("- just\n- a list\n", 1, 1, "expected settings"),
            ("aliases:\n  w: query 'open\n", 2, 6, "unclosed quote"),
        ])
    func badFiles(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try ConfigFile.parse(text, path: "/x/config.yml")
            Issue.record("no problem found in \(text.debugDescription)")
        } catch {
            #expect(error.path == "/x/config.yml" && error.line == line && error.column == column, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test("a YAML alias bomb in a config file is refused, not expanded")
    func aliasBombIsRefused() {
        let bomb = ReadHardeningTests.aliasBomb.components(separatedBy: "---")[1]
        #expect(throws: ConfigFile.Problem.self) { try ConfigFile.parse(bomb, path: "c.yml") }
    }

    @Test("every command ends with one line (64) when the user's config file is bad")
    func badConfigStopsEveryCommand() throws {
        let user = try UserConfig("views: [unclosed\n")
        let notes = try NotesFixture(Self.lists)
        for command in [["today"], ["done", "Fix tap"], ["view"], []] {
            let result = try TickProcess.run(command + ["--dir", notes.root.path], environment: user.environment)
            #expect(result.status == 64)
            #expect(
                result.stderr.hasPrefix("tick: \(user.path):2:1: not valid YAML") && result.stderr.split(separator: "\n").count == 1,
                "\(result.stderr)")
        }
        #expect(try notes.text("home.md") == Self.lists["home.md"])
    }

    @Test("a view prints what tick query with its query, sort and group-by prints; words and options after it narrow it")
    func viewsRunQueries() throws {
        let notes = try NotesFixture(Self.lists)
        try notes.write(".tick.yml", Array("views:\n  work: {query: \"open #work\", sort: \"due\", group-by: list}\n".utf8))
        for (view, query) in [
            (["view", "work"], ["query", "open #work", "--sort", "due", "--group-by", "list"]),
            (["view", "work", "!high", "--json"], ["query", "(open #work) !high", "--sort", "due", "--group-by", "list", "--json"]),
            (["view", "work", "--sort", "title"], ["query", "open #work", "--sort", "title", "--group-by", "list"]),
        ] {
            let viewed = try TickProcess.run(view + ["--dir", notes.root.path, "--today", "2026-11-21"])
            let queried = try TickProcess.run(query + ["--dir", notes.root.path, "--today", "2026-11-21"])
            #expect(viewed.status == 0 && viewed.stdout == queried.stdout, "\(view): \(viewed.stdout) \(viewed.stderr) vs \(queried.stdout)")
        }
        let list = try TickProcess.run(["view", "--dir", notes.root.path])
        #expect(list.stdout == "work  open #work  --sort due  --group-by list\n")
        let unknown = try TickProcess.run(["view", "wrok", "--dir", notes.root.path])
        #expect(unknown.status == 64 && unknown.stderr.contains("no view named 'wrok' (did you mean 'work'?)"))
    }

    @Test("the user's folder, default sort, aliases and dialect apply; the folder's .tick.yml wins")
    func settingsApply() throws {
        let notes = try NotesFixture(Self.lists)
        let user = try UserConfig(
            """
            folder: \(notes.root.path)
            sort: title
            dialect: emoji
            aliases:
              hot: query open --sort priority
            """)
        // No --dir: the config's folder.
        let home = try TickProcess.run(["lists"], environment: user.environment)
        #expect(home.stdout.contains("work.md") || home.stdout.contains("Work"), "\(home.stdout) \(home.stderr)")
        // Default sort: by title.
        let sorted = try TickProcess.run(["query", "open", "--today", "2026-11-21"], environment: user.environment)
        let titles = sorted.stdout.split(separator: "\n").map {
            $0.contains("Fix tap") ? "Fix" : $0.contains("Old") ? "Old" : $0.contains("Review") ? "Review" : "Send"
        }
        #expect(titles == ["Fix", "Old", "Review", "Send"], "\(sorted.stdout)")
        // An alias.
        let hot = try TickProcess.run(["hot", "--today", "2026-11-21"], environment: user.environment)
        #expect(hot.stdout.split(separator: "\n").first?.contains("Send budget") == true, "\(hot.stdout) \(hot.stderr)")
        // The first item of a new list in the configured dialect.
        _ = try TickProcess.run(["new", "Trip", "--today", "2026-11-21"], environment: user.environment)
        _ = try TickProcess.run(["add", "trip", "Book flights due:2026-12-01", "--today", "2026-11-21"], environment: user.environment)
        let trip = try notes.text("Trip.md")
        #expect(trip.contains("- [ ] Book flights 📅 2026-12-01"), "\(trip)")
        // The folder's sort wins.
        try notes.write(".tick.yml", Array("sort: due\n".utf8))
        let byDue = try TickProcess.run(["query", "open", "has due", "--today", "2026-11-21"], environment: user.environment)
        #expect(byDue.stdout.split(separator: "\n").first?.contains("Send budget") == true, "\(byDue.stdout)")
    }
}
