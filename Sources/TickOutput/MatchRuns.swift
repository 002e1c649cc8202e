import TickEngine
import TickModel
import TickRecords
import TickSystem

/// How the one-pass writers (`ItemJSON.writeItemsDocument(matching:)`,
/// `ICalendarWriter.write(matching:)`) write the items of every list of a
/// workspace that match a query, in manual order: the one way they all do it.
///
/// Guarantees: each task takes a run of whole lists in list order
/// (`EncodedWorkspace.listRuns`), tests their items (`QueryEvaluator.test`;
/// every item without a query) and renders what matches at once, while the
/// items' records are still in the processor's cache; the runs' bytes are
/// delivered in order as they are done (`Parallel.orderedChunks`). No array
/// of the matches is made (each item would retain its list) and no record
/// is read a second time (a second pass read each from memory again: a
/// fifth of a repeated query's time). A run holds whole lists, so what a
/// writer makes once per list is made once.
enum MatchRuns {
    /// Calls `render` once for each run, on every core, with a function
    /// that hands it the run's matches one by one, and the run's output;
    /// `deliver` gets the runs' bytes in order. (`runSize` and `inFlight`
    /// are the smallest run of items one task takes, and how many runs may
    /// be held rendered before they are delivered; tests make them small.)
    static func write(
        matching expression: QueryExpression?, in workspace: EncodedWorkspace, runSize: Int, inFlight: Int,
        render: (_ forEachMatch: ((EncodedListedItem) -> Void) -> Void, _ output: inout ByteOutput) -> Void,
        deliver: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        let runs = workspace.listRuns(minimumSize: runSize)
        Parallel.orderedChunks(runs.count, inFlight: inFlight, capacity: 256 * 1024) { run, output in
            let matches = expression.map { QueryEvaluator.test($0) }
            render(
                { body in
                    workspace.forEachItem(in: runs[run]) { item in
                        if matches?(item) ?? true { body(item) }
                    }
                }, &output)
        } deliver: {
            deliver($0)
        }
        workspace.saveRepairs()
    }
}
