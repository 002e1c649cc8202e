import Foundation
import Synchronization
import TickEngine
import TickModel
import TickRecords
import TickStore
import TickSystem

extension FolderOptions {
    /// Every list of the notes folder as the read model holds it
    /// (`EncodedWorkspace`): unchanged files read in place from the parse
    /// cache (unless TICK_NO_CACHE is set), the others parsed in parallel;
    /// what had to be skipped is reported on standard error.
    /// `printingWarnings: false` leaves the warnings to the caller (`tick
    /// check` reports them its own way).
    func workspace(printingWarnings: Bool = true) throws -> EncodedWorkspace {
        let root = try folder()
        let cache = ParseCache(root: root.root)
        // The cache, when it changed, is saved while the answer is printed.
        let workspace = EncodedWorkspace.load(root, cache: cache, savingInBackground: true)
        if printingWarnings { for warning in workspace.warnings { Terminal.warning(warning) } }
        KeptUntilExit.keep(workspace)
        return workspace
    }

    /// True when today was pinned with --today or TICK_TODAY.
    var isTodayPinned: Bool {
        today != nil || Environment.process.nonEmpty("TICK_TODAY") != nil
    }
}

/// What lives until the process exits: the lists a command loaded, and
/// the results it printed or exported (arrays of items, each of which
/// holds its list).
/// Freeing thousands of documents (and unmapping the parse cache) one by
/// one after the answer is printed only delays the exit by milliseconds,
/// and releasing the items costs a reference count change each, on one
/// core (`tick today` at 50,000 notes: 240,000 items, about 14 ms of CPU);
/// the system takes a process's memory back at once. Only commands, which
/// run once per process, keep anything; the language server never does.
/// Safe to call from any thread (tests print listings on several at once).
enum KeptUntilExit {
    /// A value kept: never read again, so any value may be held, whichever
    /// thread made it.
    private struct Kept: @unchecked Sendable {
        let value: Any
    }

    private static let values = Mutex<[Kept]>([])

    static func keep(_ value: Any) {
        let kept = Kept(value: value)
        values.withLock { $0.append(kept) }
    }

    /// How many values are kept so far.
    static var count: Int { values.withLock { $0.count } }
}

/// Reading a query from the command line.
enum QueryInput {
    /// Parses the words of a query (joined by spaces); a syntax error becomes
    /// a usage failure that shows the query with a caret under the column.
    static func parse(_ words: [String], today: TaskDate) throws -> QueryExpression {
        let text = words.joined(separator: " ")
        do {
            var notes: [String] = []
            let expression = try QueryParser.parse(text, today: today, notes: &notes)
            for note in notes { Terminal.note(note) }
            return expression
        } catch {
            throw TickError.usage(caretMessage(error))
        }
    }

    /// "bad query: MESSAGE", then the query, then a caret under the column.
    static func caretMessage(_ error: QuerySyntaxError) -> String {
        let shown = String(error.query.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
        let before = String(shown.prefix(max(0, error.column - 1)))
        let pad = String(repeating: " ", count: DisplayWidth.of(before))
        return "bad query at column \(error.column): \(error.message)\n  \(shown)\n  \(pad)^"
    }
}

/// Narrowing results to one list: `--list L`.
enum ListFilter {
    /// The items of the list `name` names, or all items when `name` is nil.
    static func items(_ workspace: EncodedWorkspace, list name: String?) throws -> [EncodedListedItem] {
        guard let name else { return workspace.items }
        let lists = workspace.documents
        return workspace.items(ofListAt: lists[try ListLookup.resolve(name, in: lists)].path)
    }

    /// The items of the list `name` names (of every list when `name` is
    /// nil) that match `query` (all of them without one), in manual order.
    /// A query over every list tests the items on every core as the lists
    /// are read, so the folder's items are not gathered first.
    static func items(_ workspace: EncodedWorkspace, list name: String?, matching query: QueryExpression?) throws -> [EncodedListedItem] {
        guard name == nil, let query else {
            let items = try items(workspace, list: name)
            return query.map { QueryEvaluator.filter(items, $0) } ?? items
        }
        return QueryEvaluator.filter(workspace, query)
    }
}
