import ArgumentParser
import Foundation
import TickEngine
import TickModel
import TickSystem

/// `--where EXPR` and `--yes`: acting on every item a query matches (SPEC §5).
struct BulkOptions: ParsableArguments {
    @Option(name: .customLong("where"), help: ArgumentHelp("Act on every item that matches this query (see tick help query).", valueName: "expr"))
    var query: String?

    @Flag(name: .long, help: "With --where, do not ask before changing more than \(Bulk.askAbove) items on a terminal.")
    var yes = false
}

/// Turns `--where` into the items' addresses.
enum Bulk {
    /// Above this many items, a terminal is asked first.
    static let askAbove = 3

    /// The items to act on: `items` as given, or the `PATH:LINE` of every
    /// item `--where` matches (in manual order, within `--list` if given;
    /// with `leavesOnly`, an item whose enclosing item also matches is left
    /// out: moving or removing the parent takes it along). Nil when
    /// `--where` matches nothing (said on standard error) or the person at
    /// the terminal says no.
    static func items(
        _ items: [String], bulk: BulkOptions, folder: FolderOptions, list: String?, verb: String,
        dryRun: Bool, leavesOnly: Bool = false
    ) throws -> [String]? {
        guard let text = bulk.query else {
            guard !items.isEmpty else {
                throw TickError.usage("name at least one ITEM (PATH:LINE, ^id or title text), or give --where EXPR")
            }
            return items
        }
        guard items.isEmpty else { throw TickError.usage("give ITEMs or --where, not both") }
        let query = try QueryInput.parse([text], today: folder.todayDate)
        let workspace = try folder.workspace()
        let candidates = try ListFilter.items(workspace, list: list)
        var matches = QueryEvaluator.filter(candidates, query.resolvingDependencies(workspace.dependencies))
        if leavesOnly {
            let chosen = ItemSet(matches)
            matches = matches.filter { chosen.ancestorCount(of: $0) == 0 }
        }
        guard !matches.isEmpty else {
            Terminal.note("no item matches --where \(text); nothing was changed")
            return nil
        }
        if matches.count > askAbove, !bulk.yes, !dryRun, isTerminal {
            Terminal.writeError("\(verb) \(matches.count) items (\(matches.prefix(3).map { $0.title.string }.joined(separator: ", ")), ...)? [y/N] ")
            let answer = readLine()?.trimmingWhiteSpace().lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                Terminal.note("nothing was changed")
                return nil
            }
        }
        return matches.map(\.address)
    }

    /// True when a person can answer: standard input and standard error are
    /// a terminal (or the test seam TICK_TEST_ASSUME_TERMINAL says so).
    private static var isTerminal: Bool {
        if Environment.process["TICK_TEST_ASSUME_TERMINAL"] == "1" { return true }
        return isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1
    }
}
