import ArgumentParser
import Foundation
import TickModel
import TickStore
import TickSystem

extension Tick {
    /// Parses the command line and runs the command. Usage errors (exit 64)
    /// are one line on standard error, like every other error; help,
    /// version and completion scripts are printed as the library prints them.
    static func main() {
        // Before any other thread allocates (docs/PERFORMANCE.md).
        HeapPages.start()
        // Signal dispositions are the command line's to set, never the
        // library's: it asks through `ProcessHooks` at the moment it needs one.
        // A file size limit makes writing a list fail (exit 73), not kill tick.
        ProcessHooks.beforeWritingFiles = { signal(SIGXFSZ, SIG_IGN) }
        // While a cache is saved, a closed output must not kill tick halfway
        // through the file: `Terminal.writeAll` meets EPIPE instead, waits for
        // the save, and ends tick with SIGPIPE (`Terminal.endWithBrokenPipe`).
        ProcessHooks.beforeBackgroundSave = { signal(SIGPIPE, SIG_IGN) }
        let command: ParsableCommand
        if let shell = CompletionScripts.requested(in: Array(CommandLine.arguments.dropFirst())) {
            finishBackgroundWork()
            print(CompletionScripts.script(for: shell), terminator: "")
            Terminal.flushStandardOutput()
            Foundation.exit(0)
        }
        // The settings first: a bad config file is one line (64), and an
        // alias changes the command line.
        let rawArguments: [String]
        do {
            try Configuration.loadUser()
            rawArguments = try Configuration.expandingAlias(Array(CommandLine.arguments.dropFirst()), commandNames: Set(commandNames))
        } catch {
            finishBackgroundWork()
            Terminal.error(error.description)
            exit(withError: ExitCode(TickError.Kind.usage.exitCode))
        }
        let arguments = joiningNegativeValues(movingGlobalOptions(rawArguments))
        if let failure = unknownCommand(in: arguments) {
            finishBackgroundWork()
            Terminal.error(failure.message)
            exit(withError: ExitCode(failure.kind.exitCode))
        }
        func refuseDashedName() {
            // The parser asks for help (an `h` in the name) or refuses an
            // unknown short option: say what the argument was read as.
            guard let dashed = dashedName(in: rawArguments) else { return }
            let names = Set(commandNames)
            let subcommand = rawArguments.first { names.contains($0) } ?? "COMMAND"
            finishBackgroundWork()
            Terminal.error(
                "'\(dashed)' begins with '-' and was read as options; to name a file or item that begins with '-', put it after --, as in: tick \(subcommand) -- \(dashed)"
            )
            exit(withError: ExitCode(TickError.Kind.usage.exitCode))
        }
        openParseCacheEarly(arguments)
        do {
            command = try parseCommand(arguments)
        } catch {
            refuseDashedName()
            exitWithUsageError(error)
        }
        // argument-parser's help command is internal to it: known by its
        // type's name (`_typeName`, not `String(describing:)`, which asks the
        // runtime's conformance tables for the type first: a millisecond).
        if _typeName(type(of: command), qualified: false) == "HelpCommand" { refuseDashedName() }
        do {
            var runnable = command
            try runnable.run()
        } catch {
            exitWithUsageError(error)
        }
        for warning in CacheRepairs.takeWarnings() { Terminal.warning(warning) }
        finishBackgroundWork()
        // Output `print` buffered is written now, where a failure can still
        // be reported (exit 73), not by `exit`, which ignores it.
        Terminal.flushStandardOutput()
    }

    /// The command a command line names, parsed. A line that begins with the
    /// name of a subcommand without subcommands of its own is parsed by that
    /// subcommand alone, as a root of its own, and a line of options alone
    /// by the home screen (the default subcommand): parsing through `tick`
    /// would also have the library reflect on `tick`, on the default
    /// subcommand and on its completion-script pseudo-commands, about 2 ms
    /// of every command before any work starts (docs/PERFORMANCE.md).
    /// Everything else goes through `tick`, as every line once did: `help`,
    /// `git` and its subcommands (a root of its own would gain a `help`
    /// subcommand), and whatever the library answers itself
    /// (`asksTheLibrary`).
    static func parseCommand(_ arguments: [String]) throws -> ParsableCommand {
        guard let (command, own) = rootOfItsOwn(arguments) else { return try parseAsRoot(arguments) }
        return try command.parseAsRoot(own)
    }

    /// The value of the option `name` (as `--dir`) in a subcommand's
    /// arguments, read before they are parsed (`openParseCacheEarly`):
    /// the last one given, as `--dir PATH` or `--dir=PATH`, before any
    /// `--`. A hint only: the parser's reading is the one the command uses.
    static func optionGiven(_ name: String, in arguments: [String]) -> String? {
        var given: String?
        var index = arguments.startIndex
        while index < arguments.endIndex, arguments[index] != "--" {
            let argument = arguments[index]
            if argument == name, index + 1 < arguments.endIndex {
                given = arguments[index + 1]
                index += 1
            } else if argument.hasPrefix(name + "=") {
                given = String(argument.dropFirst(name.count + 1))
            }
            index += 1
        }
        return given
    }

    /// The subcommand that parses `arguments` as a root of its own
    /// (`parseCommand`), with the arguments it parses; nil when `tick`
    /// parses them.
    static func rootOfItsOwn(_ arguments: [String]) -> (command: ParsableCommand.Type, arguments: [String])? {
        if asksTheLibrary(arguments) { return nil }
        guard let first = arguments.first, !first.hasPrefix("-") else { return (Home.self, arguments) }
        guard let named = configuration.subcommands.first(where: { $0.configuration.commandName == first }),
            named.configuration.subcommands.isEmpty
        else { return nil }
        return (named, Array(arguments.dropFirst()))
    }

    /// Opens the parse cache of the folder `arguments` name on another core
    /// (`ParseCache.startLoading`) while they are parsed, when their
    /// command reads it (`TickCommand.parseCacheUse`): parsing takes about
    /// 2 ms of one core, and opening a cache (reading its index) a few ms
    /// of another core at 5,000 notes, which the walk of the folder then
    /// had to share. The folder is the one `--dir` names (`optionGiven`),
    /// else the usual default. A guess the parser does not confirm only
    /// cost that core's time: the command opens the cache it names as it
    /// always did.
    static func openParseCacheEarly(_ arguments: [String]) {
        guard let (command, own) = rootOfItsOwn(arguments), (command as? any TickCommand.Type)?.parseCacheUse == .reads,
            let folder = try? NotesFolder(path: FolderOptions.folderPath(dir: optionGiven("--dir", in: own))),
            let cache = ParseCache(root: folder.root)
        else { return }
        cache.startLoading()
    }

    /// Whether a line asks the library itself for something: help, the
    /// version, the help dump, a completion script (with or without a
    /// shell; `CompletionScripts` answers only the first) or a shell's
    /// completions (`---completion`, which the scripts send). The library
    /// answers these for `tick`, and a command parsed as a root of its own
    /// would answer some differently. Any short option with an `h` counts:
    /// the library reads `-xh` as `-x -h`.
    static func asksTheLibrary(_ arguments: [String]) -> Bool {
        let libraryOptions: Set<Substring> = [
            "--help", "--help-hidden", "--version", "--experimental-dump-help", "--generate-completion-script",
        ]
        return arguments.prefix { $0 != "--" }.contains { argument in
            if argument.hasPrefix("---") { return true }
            if argument.hasPrefix("--") {
                return libraryOptions.contains(argument.split(separator: "=", maxSplits: 1).first ?? "")
            }
            return argument.hasPrefix("-") && argument.contains("h")
        }
    }

    /// Waits for the work started on other threads for this process (saving
    /// the parse cache), which must be done before it exits: `exit` tears
    /// down what those threads may still be using.
    private static func finishBackgroundWork() {
        BackgroundSaves.wait()
    }

    /// An argument before any `--` that begins with one '-' yet holds '.',
    /// ':' or '/' (`-dash.md:1`): a file name or item, never a cluster of
    /// short options, unless the user asked for help outright. The parser
    /// reads it as options (`-h` among them prints help), so the command
    /// line is refused with a pointer to `--` instead.
    static func dashedName(in arguments: [String]) -> String? {
        let before = arguments.prefix { $0 != "--" }
        if before.contains(where: { ["-h", "--help", "help"].contains($0) }) { return nil }
        return before.first { argument in
            argument.hasPrefix("-") && !argument.hasPrefix("--") && argument.count > 1 && argument.contains(where: { ".:/".contains($0) })
        }
    }

    /// Options every subcommand shares may also come before its name
    /// (`tick --dir ~/notes today`): they are moved after it, where the
    /// subcommand's option groups read them. Anything else is left alone.
    static func movingGlobalOptions(_ arguments: [String]) -> [String] {
        let valueOptions = globalValueOptions
        let flags: Set<String> = ["--json"]
        let names = Set(commandNames)
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if valueOptions.contains(argument), index + 1 < arguments.count {
                leading += [argument, arguments[index + 1]]
                index += 2
            } else if valueOptions.contains(name) || flags.contains(argument) {
                leading.append(argument)
                index += 1
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.count, names.contains(arguments[index]) else { return arguments }
        return [arguments[index]] + leading + arguments[(index + 1)...]
    }

    /// `--limit -1` as `--limit=-1`: the parser would take `-1` for an
    /// option and say the value is missing, where the user needs to hear
    /// that the limit must be positive (the option's own check says so).
    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var joined: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { return joined + arguments[index...] }
            if argument == "--limit", index + 1 < arguments.count, arguments[index + 1].hasPrefix("-"),
                arguments[index + 1].dropFirst().first?.isNumber == true
            {
                joined.append("--limit=" + arguments[index + 1])
                index += 2
                continue
            }
            joined.append(argument)
            index += 1
        }
        return joined
    }

    /// The width help is wrapped to, as the library finds it: COLUMNS, else
    /// the terminal's width, else 80.
    static var helpWidth: Int {
        Display.terminalWidth(isTerminal: isatty(STDOUT_FILENO) == 1, environment: .process) ?? 80
    }

    /// `message` with its `USAGE:` line broken between arguments (never
    /// inside `[--dir <dir>]`) to fit `width`, the next lines lined up
    /// under the first argument. (The library wraps everything else.)
    static func wrappingUsage(_ message: String, width: Int) -> String {
        message.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.hasPrefix("USAGE: "), DisplayWidth.of(String(line)) > width else { return String(line) }
            // Words outside brackets; "..." stays with the word before it.
            var words: [String] = []
            var depth = 0
            var current = ""
            for character in line {
                if character == " " && depth == 0 {
                    if current == "...", !words.isEmpty { words[words.count - 1] += " ..." } else if !current.isEmpty { words.append(current) }
                    current = ""
                    continue
                }
                if character == "[" || character == "<" { depth += 1 }
                if character == "]" || character == ">" { depth = max(0, depth - 1) }
                current.append(character)
            }
            if current == "...", !words.isEmpty { words[words.count - 1] += " ..." } else if !current.isEmpty { words.append(current) }
            // "USAGE:", "tick", the subcommand's name: the head the rest lines up under.
            let headCount = min(words.count, words.count > 2 && !words[2].hasPrefix("[") && !words[2].hasPrefix("<") ? 3 : 2)
            let head = words[..<headCount].joined(separator: " ")
            let indent = String(repeating: " ", count: min(DisplayWidth.of(head) + 1, max(0, width / 2)))
            var lines: [String] = []
            var text = head
            for word in words[headCount...] {
                if DisplayWidth.of(text) + 1 + DisplayWidth.of(word) > width, text != head, text != indent {
                    lines.append(text)
                    text = indent + word
                } else {
                    text += (text == indent ? "" : " ") + word
                }
            }
            lines.append(text)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// The options of plain `tick` that take a value.
    static let globalValueOptions: Set<String> = ["--dir", "--today", "--color"]

    /// Every subcommand's name, and `help`.
    /// The subcommands' names (each names itself in its configuration), and `help`.
    static var commandNames: [String] { configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"] }

    /// A word where a command's name goes that names no command (`tick todya`,
    /// `tick help nosuch`): a usage error with the nearest command's name.
    /// (Plain `tick` takes no words, so the first word after the global
    /// options must be a command.)
    static func unknownCommand(in arguments: [String]) -> TickError? {
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("-") {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if globalValueOptions.contains(argument) {
                index += 2
            } else if argument == "--json" || (argument.contains("=") && globalValueOptions.contains(name)) {
                index += 1
            } else {
                return nil // --help, --version, completion scripts and the like: the parser's
            }
        }
        guard index < arguments.count else { return nil }
        let names = commandNames
        var word = arguments[index]
        if word == "help" {
            guard let asked = arguments[(index + 1)...].first(where: { !$0.hasPrefix("-") }) else { return nil }
            word = asked
        }
        guard !names.contains(word) else { return nil }
        let suggestion = NearestWord.nearest(to: word, among: names).map { "; did you mean '\($0)'?" } ?? ""
        return .usage(
            "'\(word)' is not a tick command" + suggestion
                + " (`tick help` lists the commands)")
    }

    private static func exitWithUsageError(_ error: Error) -> Never {
        finishBackgroundWork()
        Terminal.flushStandardOutput()
        let code = exitCode(for: error)
        if code == .success, !(error is ExitCode) {
            // Help, version, completion scripts: printed as the library
            // prints them, with the USAGE line wrapped to the screen.
            let message = fullMessage(for: error)
            if !message.isEmpty { print(wrappingUsage(message, width: helpWidth)) }
            exit(withError: ExitCode.success)
        }
        if error is ExitCode { exit(withError: error) }
        Terminal.error(oneLine(message(for: error)))
        exit(withError: ExitCode(code.rawValue))
    }

    /// The library's message on one line: a list of allowed values becomes
    /// a comma-separated list.
    static func oneLine(_ message: String) -> String {
        let lines = message.split(separator: "\n").map { $0.trimmingWhiteSpace() }.filter { !$0.isEmpty }
        guard let first = lines.first else { return "invalid command line; see 'tick --help'" }
        let rest = lines.dropFirst().map { $0.hasPrefix("- ") ? String($0.dropFirst(2)) : $0 }
        var text = first.hasPrefix("Error: ") ? String(first.dropFirst(7)) : first
        if !rest.isEmpty { text += " " + rest.joined(separator: ", ") }
        return text
    }
}
