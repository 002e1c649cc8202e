import ArgumentParser
import Foundation
import TickModel
import TickSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// When to color the output.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    /// Only when standard output is a terminal and NO_COLOR is not set.
    case auto
    case always
    case never
}

/// How results are printed: for people (colors, columns) or as JSON.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print one JSON document (SPEC §6) instead of text.")
    var json = false

    @Option(
        name: .long,
        help: ArgumentHelp("When to use colors and hyperlinks: auto (a terminal, unless NO_COLOR is set), always or never.", valueName: "when"))
    var color: ColorChoice = .auto

    /// The terminal settings for this run.
    var display: Display { Display(choice: color, environment: .process) }
}

/// What the terminal can show: colors and width.
struct Display {
    var depth: ColorDepth
    /// Columns to fit; nil for no limit (output that is not a terminal,
    /// unless COLUMNS says otherwise).
    var width: Int?

    init(depth: ColorDepth, width: Int?) {
        self.depth = depth
        self.width = width
    }

    init(choice: ColorChoice, environment: Environment) {
        let isTerminal = isatty(STDOUT_FILENO) == 1
        let noColor = environment.nonEmpty("NO_COLOR") != nil
        let colored: Bool
        switch choice {
        case .always: colored = true
        case .never: colored = false
        case .auto: colored = isTerminal && !noColor
        }
        if colored {
            let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
            depth = colorTerm == "truecolor" || colorTerm == "24bit" ? .trueColor : .ansi256
        } else {
            depth = .none
        }
        width = Display.terminalWidth(isTerminal: isTerminal, environment: environment)
    }

    static func terminalWidth(isTerminal: Bool, environment: Environment) -> Int? {
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        guard isTerminal else { return nil }
        var size = winsize()
        #if canImport(Glibc)
            let result = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size)
        #else
            let result = ioctl(STDOUT_FILENO, TIOCGWINSZ, &size)
        #endif
        if result == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// Prints lines to standard output.
    func print(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        Swift.print(lines.joined(separator: "\n"))
    }

    /// Prints styled lines, each cut to the terminal's width, rendered in
    /// chunks on every core (a folder's list of lists can be 50,000 lines).
    func print(_ lines: [StyledText]) {
        let rendered = Parallel.map(chunksOf: 2048, in: lines.count) { range in
            var bytes: [UInt8] = []
            for line in lines[range] {
                (width.map { line.truncated(to: $0) } ?? line).render(depth, into: &bytes)
                bytes.append(0x0A)
            }
            return bytes
        }
        for bytes in rendered { Terminal.writeRaw(bytes) }
    }

    /// Lays out a listing and prints it as it is made, in pieces of about
    /// 64 KB.
    func print(_ source: ListingSource) {
        ItemTable.write(source, width: width, depth: depth) { Terminal.writeRaw($0) }
    }
}
