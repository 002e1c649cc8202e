import ArgumentParser
import Foundation
import TickKit

extension Tick {
    /// Parses the command line and runs the command. Usage errors (exit 64)
    /// are one line on standard error, like every other error; help,
    /// version and completion scripts are printed as the library prints them.
    static func main() {
        // Relative dates (`+7d`, `tomorrow`) need Foundation's calendar; it
        // is set up on another core while the command line is parsed.
        DispatchQueue.global().async(group: backgroundWork) { TaskDate.prepareCalendar() }
        let command: ParsableCommand
        let arguments = Array(CommandLine.arguments.dropFirst())
        func refuseDashedName() {
            // The parser asks for help (an `h` in the name) or refuses an
            // unknown short option: say what the argument was read as.
            guard let dashed = dashedName(in: arguments) else { return }
            let names = Set(configuration.subcommands.map { $0._commandName })
            let subcommand = arguments.first { names.contains($0) } ?? "COMMAND"
            finishBackgroundWork()
            Terminal.error("'\(dashed)' begins with '-' and was read as options; to name a file or item that begins with '-', put it after --, as in: tick \(subcommand) -- \(dashed)")
            exit(withError: ExitCode(64))
        }
        do {
            command = try parseAsRoot(movingGlobalOptions(arguments))
        } catch {
            refuseDashedName()
            exitWithUsageError(error)
        }
        if String(describing: type(of: command)) == "HelpCommand" { refuseDashedName() }
        do {
            var runnable = command
            try runnable.run()
        } catch {
            exitWithUsageError(error)
        }
        for warning in CacheRepairs.takeWarnings() { Terminal.warning(warning) }
        finishBackgroundWork()
    }

    /// Work started on other threads for this process (setting up the
    /// calendar, saving the parse cache), which must be done before it
    /// exits: `exit` tears down what those threads may still be using.
    private static let backgroundWork = DispatchGroup()

    private static func finishBackgroundWork() {
        backgroundWork.wait()
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
        let valueOptions: Set<String> = ["--dir", "--today", "--color"]
        let flags: Set<String> = ["--json"]
        let names = Set(configuration.subcommands.map { $0._commandName } + ["help"])
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

    private static func exitWithUsageError(_ error: Error) -> Never {
        finishBackgroundWork()
        let code = exitCode(for: error)
        if code == .success || error is ExitCode { exit(withError: error) }
        Terminal.error(oneLine(message(for: error)))
        exit(withError: ExitCode(code.rawValue))
    }

    /// The library's message on one line: a list of allowed values becomes
    /// a comma-separated list.
    static func oneLine(_ message: String) -> String {
        let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let first = lines.first else { return "invalid command line; see 'tick --help'" }
        let rest = lines.dropFirst().map { $0.hasPrefix("- ") ? String($0.dropFirst(2)) : $0 }
        var text = first.hasPrefix("Error: ") ? String(first.dropFirst(7)) : first
        if !rest.isEmpty { text += " " + rest.joined(separator: ", ") }
        return text
    }
}
