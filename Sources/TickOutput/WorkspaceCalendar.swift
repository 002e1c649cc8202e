import TickEngine
import TickModel
import TickRecords
import TickSystem

extension ICalendarWriter {
    /// Writes the calendar of the items of `workspace` that match
    /// `expression` (every item when it is nil), in manual order: the bytes
    /// of `write(_:stamp:to:)` over `QueryEvaluator.filter(workspace,
    /// expression)`. Each task tests a run of whole lists and writes the
    /// to-dos of what matches at once, while the items' records are still
    /// in the processor's cache, as `ItemJSON.writeItemsDocument(matching:)`
    /// does: the items are never gathered into an array (each would retain
    /// its list) and no record is read a second time. A run holds whole
    /// lists, so each list's UID counts are made once.
    /// (`runSize` and `inFlight` are the smallest run of items one task
    /// takes, and how many runs may be held written before they are
    /// delivered; tests make them small.)
    public static func write(
        matching expression: QueryExpression?, in workspace: EncodedWorkspace, stamp: String,
        runSize: Int = 1024, inFlight: Int = 6, to emit: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        let runs = workspace.listRuns(minimumSize: runSize)
        writeCalendar(to: emit) { deliver in
            Parallel.orderedChunks(runs.count, inFlight: inFlight, capacity: 256 * 1024) { run, output in
                let matches = expression.map { QueryEvaluator.test($0) }
                var lists = ListParts()
                var lines = ContentLines()
                workspace.forEachItem(in: runs[run]) { item in
                    guard matches?(item) ?? true else { return }
                    lines.removeAll()
                    todo(item, stamp: stamp, lists: &lists, into: &lines)
                    lines.copy(to: &output)
                }
            } deliver: {
                deliver($0)
            }
        }
        workspace.saveRepairs()
    }
}
