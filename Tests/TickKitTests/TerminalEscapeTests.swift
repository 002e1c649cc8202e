import Foundation
import Testing

/// Control characters from files (titles, list names, headings, tags, notes,
/// file names) never reach the terminal raw: every human output shows them
/// as visible stand-ins, and with colors the only escape sequences are
/// tick's own SGR styles and OSC 8 links (issue 13.5).
@Suite struct TerminalEscapeTests {
    static let esc = "\u{1B}"
    /// OSC 52 (clipboard write), a screen clear, a window title, BEL, DEL,
    /// and C1 CSI (U+009B) and OSC (U+009D).
    static let hostile = "\(esc)]52;c;SGVsbG8=\u{07}\(esc)[2J\(esc)]0;owned\u{07}\u{7F}\u{9B}31m\u{9D}0;x\u{9C}"

    static func fixture() throws -> NotesFixture {
        let h = hostile
        // The front matter title uses YAML's escapes (\e, \a, \x9B): YAML
        // refuses raw control characters.
        let front = "---\ntitle: \"Front \\e]52;c;QUFB\\a \\e[2J \\x9B1m name\"\n---\n\n- [ ] Plain item\n"
        return try NotesFixture([
            "evil\(esc)[2J\u{9B}1m\u{07}.md": "- [ ] Item in a hostile file name due:2026-11-21\n",
            "front.md": front,
            "heading.md": """
            # Heading \(h) list

            ## Section \(h) here

            - [ ] Task \(h) one due:2026-11-21 #tag\(esc)x #ok
              Note \(h) line
            - [ ] Link [click](https://example.com/\u{9B}x) and [safe](https://example.com/a) \(h)
            - [x] Finished \(h) done:2026-11-20
            - [ ] Bad date due:\(esc)[2Jx for check

            """,
        ])
    }

    /// Every read command, in both color modes, with and without notes.
    static let commands: [[String]] = [
        [], ["all"], ["query", "open", "--notes"], ["today"], ["scheduled"], ["overdue"], ["lists"], ["completed"], ["query", "open or done"],
        ["query", "open", "--group-by", "list"], ["query", "open", "--group-by", "section"], ["show", "heading.md"],
        ["show", "heading.md", "--notes"], ["show", "front.md"], ["check"],
        // Errors and warnings that quote list names and titles.
        ["show", "nosuch"], ["done", "e"],
    ]

    /// The controls in `text` other than line feeds, after removing tick's
    /// own sequences when `colored` (SGR `ESC [ digits;… m`, and OSC 8
    /// `ESC ] 8 ; ; URL ESC \` whose URL holds no control character).
    static func strayControls(_ text: String, colored: Bool) -> [String] {
        var rest = text
        if colored {
            rest = rest.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            rest = rest.replacingOccurrences(
                of: "\u{1B}\\]8;;[^\\x00-\\x1F\\x7F-\\x9F]*\u{1B}\\\\", with: "",
                options: .regularExpression)
        }
        return rest.unicodeScalars.filter { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
        }.map { String(format: "U+%04X", $0.value) }
    }

    @Test("no control character from a file reaches the terminal, in any read command or message, with or without colors")
    func noRawControlsInHumanOutput() throws {
        let notes = try Self.fixture()
        for command in Self.commands {
            for color in ["never", "always"] {
                // `check` and edits print no colors and take no --color.
                let colorOption = ["check", "done"].contains(command.first ?? "") ? [] : ["--color", color]
                let result = try TickProcess.run(
                    command + ["--dir", notes.root.path, "--today", "2026-11-21"] + colorOption,
                    environment: ["COLUMNS": "200"])
                let expected: Int32 =
                    command == ["check"] ? 1 : command.first == "show" && command.last == "nosuch" || command.first == "done" ? 65 : 0
                #expect(result.status == expected, "tick \(command): exit \(result.status): \(result.stderr)")
                let out = Self.strayControls(result.stdout, colored: color == "always")
                let err = Self.strayControls(result.stderr, colored: false)
                #expect(out.isEmpty, "tick \(command) --color \(color): stdout holds \(out): \(result.stdout.debugDescription)")
                #expect(err.isEmpty, "tick \(command) --color \(color): stderr holds \(err): \(result.stderr.debugDescription)")
            }
        }
    }

    @Test("control characters are shown as control pictures (␛ ␇ ␡) and C1 characters as U+FFFD")
    func controlsAreShownVisibly() throws {
        let notes = try Self.fixture()
        let show = try notes.tick("show", "heading.md", "--color", "never")
        #expect(show.stdout.contains("Heading ␛]52;c;SGVsbG8=␇␛[2J␛]0;owned␇␡�31m�0;x� list"))
        #expect(show.stdout.contains("Section ␛]52;c;SGVsbG8=␇"))
        #expect(show.stdout.contains("Task ␛]52;c;SGVsbG8=␇␛[2J"))
        let lists = try notes.tick("lists", "--color", "never")
        #expect(lists.stdout.contains("Front ␛]52;c;QUFB␇ ␛[2J �1m name"))
        #expect(lists.stdout.contains("evil␛[2J�1m␇"))
        let missing = try notes.tick("show", "nosuch")
        #expect(missing.status == 65 && missing.stderr.contains("evil␛[2J�1m␇.md"), "\(missing.stderr.debugDescription)")
        // What an edit prints quotes the title, and its note too.
        let done = try notes.tick("done", "heading.md:5")
        #expect(done.status == 0 && done.stdout.contains("Task ␛]52;c;SGVsbG8=␇␛[2J"), "\(done.stdout.debugDescription)")
        let again = try notes.tick("done", "heading.md:5")
        #expect(Self.strayControls(again.stdout + again.stderr, colored: false).isEmpty, "\(again.stderr.debugDescription)")
    }

    @Test("with colors, the only escape sequences are tick's styles and its OSC 8 link for a URL without controls")
    func colorsAreTicksOwnSequencesOnly() throws {
        let notes = try Self.fixture()
        let show = try notes.tick("show", "heading.md", "--color", "always")
        let osc8 = show.stdout.components(separatedBy: "\u{1B}]8;;").dropFirst().map { $0.prefix(while: { $0 != "\u{1B}" }) }
        // One link opened and closed: the safe URL; the one with a C1 character is not a link.
        #expect(osc8.filter { !$0.isEmpty } == ["https://example.com/a"])
        #expect(osc8.filter(\.isEmpty).count == 1)
        let sgr = try NSRegularExpression(pattern: "\u{1B}\\[([0-9;]*)m")
        let range = NSRange(show.stdout.startIndex..., in: show.stdout)
        for match in sgr.matches(in: show.stdout, range: range) {
            let parameters = (show.stdout as NSString).substring(with: match.range(at: 1))
            #expect(parameters.split(separator: ";").allSatisfy { Int($0) != nil }, "SGR \(parameters)")
        }
    }
}
