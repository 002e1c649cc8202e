import Foundation
import Testing

/// Every `tick ...` example in README.md and in every `tick help SUBCOMMAND`
/// page, run as a user would type it (through bash, with `tick` on PATH) on a
/// fresh copy of examples/ with today pinned to 2026-11-21, and checked
/// against what its text says it does. An example missing from the table
/// below, or one that changes a different item than the one it names, fails.
@Suite("README and help examples work on examples/")
struct DocumentedExamplesTests {
    /// One check of a changed file.
    enum Check {
        /// The one line holding `text` now holds `has` (and not `lacks`).
        case line(String, containing: String, has: String, lacks: String? = nil)
        /// No line holds `text` any more (it did before).
        case gone(String, String)
        /// A new line holds `text`, right after the line holding `after`.
        case added(String, String, after: String)
        /// The line holding `text`, elsewhere before, is now right after the line holding `after`.
        case moved(String, String, after: String)
        /// The line holding `first` comes before the line holding `second`.
        case order(String, String, before: String)

        var file: String {
            switch self {
            case .line(let file, _, _, _), .gone(let file, _), .added(let file, _, _), .moved(let file, _, _),
                .order(let file, _, _):
                file
            }
        }

        /// The texts this check names: the only lines the change may remove.
        var named: [String] {
            switch self {
            case .line(_, let text, _, _), .gone(_, let text): [text]
            case .added(_, let text, _), .moved(_, let text, _): [text]
            case .order(_, let first, let second): [first, second]
            }
        }
    }

    /// What an example does.
    enum Effect {
        /// Exit 0, nothing written.
        case reads
        /// Exit 0, nothing written, standard output holds `text`.
        case prints(String)
        /// Exits `code`, nothing written.
        case exits(Int32)
        /// Exit 0; only the files the checks name change, as they say.
        case changes([Check])
        /// `--dry-run`: nothing written; the diff names `file` and has a line starting with `line` ("+..." or "-...").
        case diff(String, line: String)
        /// Exit 0; the shell redirection writes `file`, which holds `text`; no list changes.
        case writes(String, containing: String)
        /// Exit 0; the editor was started at `file`'s `line`.
        case opens(String, line: Int)
        /// Exit 0; `file` is a new list holding `text`.
        case creates(String, containing: String)
    }

    /// Every example, by its command (a trailing `  # comment` left off).
    static let expected: [String: Effect] = [
        // README: reading
        "tick": .prints("Groceries"),
        "tick lists": .prints("groceries.md"),
        "tick show groceries --notes": .prints("Semi-skimmed"),
        "tick today": .prints("Buy milk"),
        "tick query 'open due <= +7d #work' --sort priority,due --group-by list": .prints("Review Ana"),
        "tick query milk": .prints("Buy milk"),
        "tick view work": .prints("Send the Q4 budget"),
        "tick view": .prints("open #work"),
        "tick view work '!high' --json": .prints("Write the Q4 planning doc"),
        "tick query milk bread": .reads,
        "tick query 'due <' --explain": .exits(64),
        "tick export --format json 'open'": .prints("\"title\": \"Buy milk\""),
        "tick open 'milk'": .opens("groceries.md", line: 12),
        "tick check": .reads,
        "tick check --dependencies": .reads,
        "tick query 'open and not blocked' --sort urgency": .prints("Send the Q4 budget"),
        // The examples run with standard input closed: the server ends at
        // once, with 1 since no shutdown came (LanguageServerTests speaks to it).
        "tick lsp": .exits(1),
        "tick lsp --dir ~/notes": .exits(1),
        // README: changing
        "tick add groceries 'Oat milk due:friday !high' --section Dairy":
            .changes([.added("groceries.md", "- [ ] Oat milk due:2026-11-27 !high", after: "Parmesan")]),
        "tick done 'milk'": .changes([.line("groceries.md", containing: "Buy **milk**", has: "- [x]", lacks: nil)]),
        "tick reopen groceries.md:16": .changes([.line("groceries.md", containing: "Eggs", has: "- [ ] Eggs", lacks: "done:")]),
        "tick cancel ^q4plan": .changes([.line("work.md", containing: "^q4plan", has: "- [-]", lacks: nil)]),
        "tick start work.md:13": .changes([.line("work.md", containing: "Review Ana", has: "- [/]", lacks: nil)]),
        "tick note ^q4plan 'Priya signed off'": .changes([.added("work.md", "  Priya signed off", after: "Draft lives in the team drive")]),
        "tick edit groceries.md:12 --due tomorrow --priority urgent --tag errand --untag later":
            .changes([.line("groceries.md", containing: "Buy **milk**", has: "!urgent due:2026-11-22 #errand")]),
        "tick mv groceries.md:12 work --section 'Next up'":
            .changes([
                .gone("groceries.md", "Buy **milk**"), .gone("groceries.md", "Check the fridge first"),
                .gone("groceries.md", "Semi-skimmed"), .gone("groceries.md", "Oat milk too"),
                .added("work.md", "4. [ ] Buy **milk**", after: "Clean up stale feature flags"),
            ]),
        "tick rm groceries.md:15": .changes([.gone("groceries.md", "Check the fridge first")]),
        "tick sort work --by priority,due --write":
            .changes([
                .order("work.md", "Send the Q4 budget", before: "Write the Q4 planning doc"),
                .order("work.md", "Review Ana", before: "Submit expenses"),
                .order("work.md", "Submit expenses", before: "Prepare slides"),
            ]),
        "tick archive groceries":
            .changes([
                .order("groceries.md", "Croissants", before: "## Done"),
                .order("groceries.md", "## Done", before: "Eggs"),
                .order("groceries.md", "## Done", before: "Spinach"),
            ]),
        "tick new 'Trip to Lisbon' --color teal --icon airplane": .creates("Trip to Lisbon.md", containing: "# Trip to Lisbon"),
        "tick done 'milk' --dry-run": .diff("groceries.md", line: "+- [x] Buy **milk**"),
        "tick done --where '#errand' --dry-run": .diff("groceries.md", line: "+- [x] Buy **milk**"),
        // Nothing was changed in the fresh copy yet: nothing to undo or redo.
        "tick undo": .prints("nothing to undo"),
        "tick undo --list": .prints("No changes recorded"),
        "tick redo": .prints("nothing to redo"),

        // tick help agenda
        "tick agenda": .prints("Overdue"),
        "tick agenda --days 3 '#work'": .prints("Send the Q4 budget"),
        "tick agenda --json": .prints("\"days\""),
        // tick help merge: examples/ is not a git work tree (the setup itself is MergeGitTests').
        "tick git setup": .exits(66),

        // tick help
        "tick --dir ~/notes": .prints("Groceries"),
        "tick query 'open due <= +7d #work' --sort due": .prints("Review Ana"),
        "tick show groceries": .prints("Buy milk"),
        "tick home --dir ~/notes --json": .prints("\"lists\""),
        "tick lists --json | jq -r '.lists[].path'": .prints("projects/garden.md"),
        "tick show work.md --notes": .prints("Draft lives in the team drive"),
        "tick show \"Reading list\" --json": .prints("Dune"),
        "tick today '#work' --sort priority": .prints("Send the Q4 budget"),
        "tick today --list groceries --json": .prints("Lemons"),
        "tick scheduled": .prints("Migrate the staging database"),
        "tick scheduled 'due <= +7d'": .prints("Parmesan"),
        "tick scheduled --group-by list": .prints("Migrate the staging database"),
        "tick all": .prints("Try pairing"),
        "tick all --group-by list": .prints("Try pairing"),
        "tick all '#house' --sort priority": .reads,
        "tick overdue": .prints("Send the Q4 budget"),
        "tick overdue --list work": .prints("Submit expenses"),
        "tick overdue --sort due --json": .prints("Submit expenses"),
        "tick completed": .prints("Eggs"),
        "tick completed 'done >= -7d'": .prints("Spinach"),
        "tick completed --limit 10": .prints("Eggs"),
        "tick query 'open due < today'": .prints("Submit expenses"),
        "tick query 'open and (#house or list = home)' --sort priority": .prints("dripping kitchen tap"),
        "tick query 'due <= +7d not done' --group-by due --explain": .prints("2026-11-28"),
        "tick query '\"milk\" or \"eggs\"' --json": .prints("Eggs"),
        "tick export --format ics 'open has due' > tick.ics": .writes("tick.ics", containing: "BEGIN:VTODO"),
        "tick export --format csv > items.csv": .writes("items.csv", containing: "Buy milk"),
        "tick export --format ics --events --alarm 1h --output tick-events.ics": .writes("tick-events.ics", containing: "TRIGGER:-PT1H"),
        "tick export --format json '#work' --sort due": .prints("\"title\": \"Send the Q4 budget to finance\""),
        "tick open ^q4plan": .opens("work.md", line: 7),
        "tick open groceries.md:12": .opens("groceries.md", line: 12),
        "EDITOR=nano tick open \"planning doc\"": .opens("work.md", line: 7),
        "tick check work.md projects/": .reads,
        "tick check --json": .prints("["),
        "tick add groceries \"Buy bread due:tomorrow #errand\"":
            .changes([.added("groceries.md", "- [ ] Buy bread due:2026-11-22 #errand", after: "Croissants")]),
        "tick add work \"Call Ana\" --due friday --priority high --section \"Next up\"":
            .changes([.added("work.md", "4. [ ] Call Ana !high due:2026-11-27", after: "Clean up stale feature flags")]),
        "tick add work \"Check the numbers\" --under ^q4plan --dry-run": .diff("work.md", line: "+  - [ ] Check the numbers"),
        "tick done groceries.md:12": .changes([.line("groceries.md", containing: "Buy **milk**", has: "- [x]", lacks: nil)]),
        "tick done ^q4plan \"status update\" --dry-run": .diff("work.md", line: "+- [x] Post the weekly status update"),
        "tick done milk --no-date": .changes([.line("groceries.md", containing: "Buy **milk**", has: "- [x]", lacks: "done:")]),
        "tick done \"council tax\" --no-repeat":
            .changes([.line("home.md", containing: "Pay the council tax", has: "- [x]", lacks: "📅 2026-12-28")]),
        "tick reopen Eggs --list groceries": .changes([.line("groceries.md", containing: "Eggs", has: "- [ ] Eggs", lacks: "done:")]),
        "tick start \"runbook\" --list work": .changes([.line("work.md", containing: "on-call runbook", has: "2. [/]", lacks: nil)]),
        "tick note ^q4plan \"Priya signed off on the hiring section\"":
            .changes([.added("work.md", "  Priya signed off on the hiring section", after: "Draft lives in the team drive")]),
        "tick note groceries.md:12 Ask for the organic one":
            .changes([.added("groceries.md", "  Ask for the organic one", after: "Oat milk too if they have the barista one")]),
        "tick cancel work.md:15": .changes([.line("work.md", containing: "Submit expenses", has: "- [-]", lacks: nil)]),
        "tick cancel \"feature flags\" --no-date":
            .changes([.line("work.md", containing: "feature flags", has: "3. [-]", lacks: "cancelled:")]),
        "tick edit groceries.md:12 --due friday --priority urgent":
            .changes([.line("groceries.md", containing: "Buy **milk**", has: "!urgent due:2026-11-27")]),
        "tick edit ^q4plan --no-due --tag work/q4 --untag work/planning":
            .changes([.line("work.md", containing: "^q4plan", has: "#work/q4", lacks: "due:")]),
        "tick edit \"Eggs\" --title \"Free-range eggs\" --dry-run": .diff("groceries.md", line: "+- [x] Free-range eggs"),
        "tick edit \"Prepare slides\" --after q4plan":
            .changes([.line("work.md", containing: "Prepare slides", has: "#work/review after:q4plan")]),
        "tick mv home.md:20 groceries":
            .changes([.gone("home.md", "padlock"), .added("groceries.md", "- [ ] Buy a new padlock", after: "Croissants")]),
        "tick mv \"Try pairing\" work --section \"This week\"":
            .changes([.moved("work.md", "- [ ] Try pairing on Fridays", after: "They moved the contract talks")]),
        // "tick rm groceries.md:15" is the README's too.
        "tick rm \"old CRM\" --dry-run": .diff("work.md", line: "-- [-] Vendor call about the old CRM"),
        "tick sort groceries --by priority --write":
            .changes([
                .order("groceries.md", "Lemons", before: "Butternut squash"),
                .order("groceries.md", "Butternut squash", before: "Apples"),
            ]),
        "tick sort work --by due,priority --dry-run": .diff("work.md", line: "+- [ ] Submit expenses"),
        "tick archive work --to archive/work-2026.md --dry-run": .diff("archive/work-2026.md", line: "+- [x] Book a room"),
        "tick new Errands --color orange --icon bag": .creates("Errands.md", containing: "# Errands"),
        "tick new projects/kitchen --dry-run": .diff("projects/kitchen.md", line: "+# kitchen"),
    ]

    /// An example and where it was found.
    struct Example: CustomStringConvertible {
        var command: String
        var source: String
        var description: String { "\(source): \(command)" }
    }

    /// The command of an example line: the line without a trailing `  # comment`.
    static func command(_ line: String) -> String {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard let comment = trimmed.range(of: "  # ") else { return trimmed }
        return trimmed[..<comment.lowerBound].trimmingCharacters(in: .whitespaces)
    }

    static func isExample(_ command: String) -> Bool {
        command == "tick" || command.hasPrefix("tick ") || command.contains(" tick ")
    }

    /// The `tick` lines of README.md's `sh` code blocks.
    static func readmeExamples() throws -> [Example] {
        let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var examples: [Example] = []
        var inShell = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                inShell = line == "```sh"
                continue
            }
            if inShell, isExample(command(line)) { examples.append(Example(command: command(line), source: "README.md")) }
        }
        return examples
    }

    /// The subcommands `tick help` lists.
    static func subcommands() throws -> [String] {
        let help = try TickRunner.run(["help"]).stdout
        guard let start = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        let block = help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        return block.compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
    }

    /// The lines of each help page's `Examples:` block.
    static func helpExamples() throws -> [Example] {
        var examples: [Example] = []
        for name in [nil] + (try subcommands()).map(Optional.some) {
            let page = try TickRunner.run(["help"] + (name.map { [$0] } ?? [])).stdout
            var inExamples = false
            for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
                if line == "Examples:" {
                    inExamples = true
                    continue
                }
                if line.isEmpty { inExamples = false }
                if inExamples, isExample(command(String(line))) {
                    examples.append(Example(command: command(String(line)), source: "tick help \(name ?? "")"))
                }
            }
        }
        return examples
    }

    /// The text of every file below `folder`, by relative path.
    static func snapshot(_ folder: URL) -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            files[relative] = (try? String(contentsOf: url, encoding: .utf8)) ?? "<not UTF-8>"
        }
        return files
    }

    /// Runs `command` through bash in a fresh copy of examples/ (which is
    /// also `~/notes`), with `tick` on PATH and a `vi` and `nano` that write
    /// their arguments to `~/editor`.
    static func run(_ command: String) throws -> (run: TickRun, notes: URL, home: TemporaryFolder) {
        let home = try TemporaryFolder()
        let notes = home.url.appendingPathComponent("notes")
        try FileManager.default.copyItem(at: TestPaths.examples, to: notes)
        let bin = home.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for editor in ["vi", "nano"] {
            let script = bin.appendingPathComponent(editor)
            try Data("#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$HOME/editor\"\n".utf8).write(to: script)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        }
        let path = [
            TickRunner.executable.deletingLastPathComponent().path, bin.path,
            ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ].joined(separator: ":")
        let shell = try TemporaryFolder()
        let script = shell.url.appendingPathComponent("example.sh")
        try Data("set -o pipefail\ncd \"$HOME/notes\"\n\(command)\n".utf8).write(to: script)
        // TickRunner's executable is bash here: it keeps TickRunner's clean environment and pipes.
        let run = try TickRunner.run(
            ["-c", "exec bash \"$0\"", script.path],
            environment: [
                "HOME": home.path, "PATH": path, "TICK_TODAY": "2026-11-21", "XDG_STATE_HOME": home.path,
            ], program: URL(fileURLWithPath: "/bin/sh"))
        return (run, notes, home)
    }

    static func lines(_ text: String?) -> [String] {
        (text ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Lines of `before` that `after` no longer holds (as many times).
    static func removedLines(_ before: [String], _ after: [String]) -> [String] {
        var remaining = Dictionary(after.map { ($0, 1) }, uniquingKeysWith: +)
        var removed: [String] = []
        for line in before {
            if let count = remaining[line], count > 0 { remaining[line] = count - 1 } else { removed.append(line) }
        }
        return removed
    }

    static func verify(_ check: Check, before: [String], after: [String], _ example: Example) {
        let context = Comment(rawValue: "\(example) \(check)")
        switch check {
        case .line(_, let text, let has, let lacks):
            let old = before.filter { $0.contains(text) }
            let new = after.filter { $0.contains(text) }
            #expect(old.count == 1 && new.count == 1, context)
            guard let line = new.first else { return }
            #expect(line.contains(has), context)
            if let lacks { #expect(!line.contains(lacks), context) }
            #expect(old.first != line, context)
        case .gone(_, let text):
            #expect(before.contains { $0.contains(text) }, context)
            #expect(!after.contains { $0.contains(text) }, context)
        case .added(_, let text, let previous):
            #expect(!before.contains { $0.contains(text) }, context)
            guard let index = after.firstIndex(where: { $0.contains(text) }) else {
                Issue.record(context)
                return
            }
            #expect(index > 0 && after[index - 1].contains(previous), context)
        case .moved(_, let text, let previous):
            let old = before.firstIndex { $0.contains(text) }
            let new = after.firstIndex { $0.contains(text) }
            #expect(old != nil && new != nil && !before[old! - 1].contains(previous), context)
            #expect(new.map { $0 > 0 && after[$0 - 1].contains(previous) } == true, context)
        case .order(_, let first, let second):
            let a = after.firstIndex { $0.contains(first) }
            let b = after.firstIndex { $0.contains(second) }
            #expect(a != nil && b != nil && a! < b!, context)
        }
    }

    @Test("every example is in the table and the table has no stale rows")
    func everyExampleIsListed() throws {
        let examples = try Self.readmeExamples() + Self.helpExamples()
        #expect(examples.count > 40)
        for example in examples where Self.expected[example.command] == nil {
            Issue.record("no expected effect for the example \(example)")
        }
        let commands = Set(examples.map(\.command))
        for command in Self.expected.keys where !commands.contains(command) {
            Issue.record("the table names an example that no longer appears: \(command)")
        }
    }

    @Test("every README and help example does what its text says on examples/", arguments: try Self.readmeExamples() + Self.helpExamples())
    func exampleHasItsEffect(_ example: Example) throws {
        guard let effect = Self.expected[example.command] else { return } // reported by everyExampleIsListed
        let original = Self.snapshot(TestPaths.examples)
        let (run, notes, home) = try Self.run(example.command)
        let now = Self.snapshot(notes)
        let context = Comment(rawValue: "\(example)\nexit \(run.status)\nstdout: \(run.stdout)\nstderr: \(run.stderr)")
        var mayChange: Set<String> = []
        switch effect {
        case .reads:
            #expect(run.status == 0, context)
        case .prints(let text):
            #expect(run.status == 0, context)
            #expect(run.stdout.contains(text), context)
        case .exits(let code):
            #expect(run.status == code, context)
        case .diff(let file, let line):
            #expect(run.status == 0, context)
            #expect(run.stdout.contains("+++ \(file)"), context)
            #expect(Self.lines(run.stdout).contains { $0.hasPrefix(line) && !$0.hasPrefix("+++") && !$0.hasPrefix("---") }, context)
        case .writes(let file, let text):
            #expect(run.status == 0, context)
            mayChange = [file]
            #expect(now[file]?.contains(text) == true, context)
        case .opens(let file, let line):
            #expect(run.status == 0, context)
            let arguments = (try? String(contentsOf: home.url.appendingPathComponent("editor"), encoding: .utf8)) ?? ""
            #expect(arguments == "+\(line)\n\(notes.appendingPathComponent(file).path)\n", context)
        case .creates(let file, let text):
            #expect(run.status == 0, context)
            mayChange = [file]
            #expect(original[file] == nil && now[file]?.contains(text) == true, context)
        case .changes(let checks):
            #expect(run.status == 0, context)
            mayChange = Set(checks.map(\.file))
            for check in checks {
                Self.verify(check, before: Self.lines(original[check.file]), after: Self.lines(now[check.file]), example)
            }
            for file in mayChange {
                let named = checks.filter { $0.file == file }.flatMap(\.named)
                for line in Self.removedLines(Self.lines(original[file]), Self.lines(now[file]))
                where !line.trimmingCharacters(in: .whitespaces).isEmpty && !named.contains(where: { line.contains($0) }) {
                    Issue.record("\(example) changed a line it does not name: \(line)")
                }
            }
        }
        for (file, text) in original where !mayChange.contains(file) {
            #expect(now[file] == text, "\(example) changed \(file)")
        }
        for file in now.keys where original[file] == nil && !mayChange.contains(file) {
            Issue.record("\(example) created \(file)")
        }
    }
}
