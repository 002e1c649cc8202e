import TickEngine
import TickModel
import TickRecords
import TickSystem

extension ICalendarWriter {
    /// Writes the calendar of the items of `workspace` that match
    /// `expression` (every item when it is nil), in manual order: the bytes
    /// of `write(_:stamp:to:)` over `QueryEvaluator.filter(workspace,
    /// expression)`, tested and written in one pass (`MatchRuns`, which says
    /// what `runSize` and `inFlight` are). A run holds whole lists, so each
    /// list's escaped name and path are made once.
    public static func write(
        matching expression: QueryExpression?, in workspace: EncodedWorkspace, stamp: String,
        runSize: Int = 1024, inFlight: Int = 6, to emit: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        writeCalendar(to: emit) { deliver in
            MatchRuns.write(matching: expression, in: workspace, runSize: runSize, inFlight: inFlight) { forEachMatch, output in
                var lists = ListParts(listsComeOnce: true)
                ContentLines.appending(to: &output) { lines in
                    forEachMatch { item in todo(item, stamp: stamp, lists: &lists, into: &lines) }
                }
            } deliver: {
                deliver($0)
            }
        }
    }
}
