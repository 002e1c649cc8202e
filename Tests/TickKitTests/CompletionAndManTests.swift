import Foundation
import Testing

/// Shell completions that know the folder, and the man page's sections
/// (issue 19.6), checked with the real bash completion script.
@Suite struct CompletionAndManTests {
    /// The completions bash offers for the last word of `line`.
    static func complete(_ line: String) throws -> [String] {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("tick-completion-\(UUID().uuidString).bash")
        defer { try? FileManager.default.removeItem(at: script) }
        let generated = try TickRunner.run(["--generate-completion-script", "bash"])
        try Data(generated.stdout.utf8).write(to: script)
        let driver = """
            source "$1"; line="$2"
            COMP_LINE="$line"; COMP_POINT=${#line}
            read -ra COMP_WORDS <<< "$line"
            if [[ "$line" == *" " ]]; then COMP_WORDS+=(""); fi
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            _tick tick "${COMP_WORDS[$COMP_CWORD]}" "${COMP_WORDS[$COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        // `tick` on PATH: the built binary.
        let folder = TickRunner.executable.deletingLastPathComponent().path
        let result = try TickRunner.run(
            ["-c", driver, "bash", script.path, line],
            environment: ["PATH": folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")],
            program: URL(fileURLWithPath: "/bin/bash"))
        return result.stdout.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    @Test("LIST arguments and --list complete the folder's lists; ITEM arguments its item titles; --sort its keys")
    func completionsKnowTheFolder() throws {
        let notes = try NotesFixture([
            "groceries.md": "- [ ] Buy milk\n- [x] Buy eggs\n", "garden.md": "- [ ] Plant bulbs\n",
            "work/plan.md": "- [ ] Write plan\n",
        ])
        let dir = notes.root.path
        // Lists in list order (by name); bash keeps those that start with the word as typed.
        #expect(try Self.complete("tick show --dir \(dir) g") == ["garden", "groceries"])
        #expect(try Self.complete("tick today --dir \(dir) --list w") == ["work/plan"])
        #expect(try Self.complete("tick done --dir \(dir) Buy") == ["Buy milk", "Buy eggs"])
        #expect(try Self.complete("tick edit --dir \(dir) Pl") == ["Plant bulbs"])
        #expect(try Self.complete("tick query open --dir \(dir) --sort pr") == ["priority"])
        #expect(try Self.complete("tick query open --dir \(dir) --group-by st") == ["status"])
    }

    /// The candidates tick gives a completion script for the last of
    /// `words` (an argument of `subcommand`), before the shell filters them.
    static func candidates(_ subcommand: String, _ words: [String]) throws -> [String] {
        let word = words.last ?? ""
        let request = ["---completion", subcommand, "--", "positional@0", String(words.count - 1), String(word.count)]
        let result = try TickRunner.run(request + words, environment: ["SAP_SHELL": "bash"])
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test("a title is offered once, open items first, matched in any case; no more than the limit")
    func itemCandidatesAreBounded() throws {
        let many = (0..<1_100).map { "- [ ] Task \(String(format: "%04d", $0))\n" }.joined()
        let notes = try NotesFixture([
            "big.md": many, "done.md": "- [x] Task done\n",
            "notes.md": "- [ ] Écrire le plan\n- [ ] écrire encore\n- [x] Buy milk\n- [ ] Buy milk\n- [x] Buy bread\n",
        ])
        let words = ["tick", "done", "--dir", notes.root.path]
        let tasks = try Self.candidates("done", words + ["task"])
        #expect(tasks.count == 1_000)
        #expect(tasks.first == "Task 0000" && tasks.last == "Task 0999")
        #expect(try Self.candidates("done", words + ["Task 10"]).count == 100)
        #expect(try Self.candidates("done", words + ["ÉCRIRE"]) == ["Écrire le plan", "écrire encore"])
        #expect(try Self.candidates("done", words + ["bu"]) == ["Buy milk", "Buy bread"])
        #expect(try Self.candidates("show", ["tick", "show", "--dir", notes.root.path, "N"]) == ["notes"])
    }

    @Test("help topics complete after tick help, in bash, zsh and fish")
    func helpTopicsComplete() throws {
        #expect(try Self.complete("tick help s") == ["show", "scheduled", "start", "sort"])
        let zsh = try TickRunner.run(["--generate-completion-script", "zsh"]).stdout
        #expect(zsh.contains("'*:subcommands:(home lists show"))
        let fish = try TickRunner.run(["--generate-completion-script=fish"]).stdout
        #expect(fish.contains("complete -c 'tick' -n '__fish_seen_subcommand_from help' -fa 'home lists show"))
    }

    /// The names of the environment variables the sources read (test seams left out).
    static func variablesRead() throws -> Set<String> {
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources")
        var names = Set<String>()
        let enumerator = FileManager.default.enumerator(atPath: sources.path)
        // Read through `Environment`: `environment["NAME"]`, `Environment.process["NAME"]`, `….nonEmpty("NAME")`.
        let pattern = try Regex(#"(?:[eE]nvironment(?:\.process)?\[|getenv\(|environment\(|nonEmpty\()"([A-Z_]+)""#)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try String(contentsOfFile: sources.path + "/" + path, encoding: .utf8)
            for match in text.matches(of: pattern) {
                if let name = match.output[1].substring.map(String.init), !name.hasPrefix("TICK_TEST_"), !name.hasPrefix("TICK_CHILD_"),
                    name != "HOME", name != "TICK_SANITIZER", name != "SAP_SHELL"
                {
                    names.insert(name)
                }
            }
        }
        return names
    }

    @Test("the man page's ENVIRONMENT names every variable tick reads, and EXIT STATUS every code of SPEC §7")
    func manPageSections() throws {
        let sections = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/man-sections.mdoc"), encoding: .utf8)
        let variables = try Self.variablesRead()
        #expect(variables.count >= 8, "found only \(variables.sorted())")
        for name in variables {
            #expect(sections.contains("Ev \(name)\n") || sections.contains("Ev \(name) "), "\(name) is not in the man page")
        }
        let exitStatus = try #require(sections.components(separatedBy: ".Sh \"EXIT STATUS\"").last)
        for code in [0, 1, 64, 65, 66, 73, 75] { #expect(exitStatus.contains(".It \(code)\n"), "exit \(code) is not in the man page") }
    }
}
