import TickEngine
import TickModel
import TickRecords
import TickSystem

extension ItemJSON {
    /// Writes the items document of the items of `workspace` that match
    /// `expression`, in manual order: the bytes of `writeItemsDocument` over
    /// `QueryEvaluator.filter(workspace, expression)`, tested and rendered
    /// in one pass (`MatchRuns`, which says what `runSize` and `inFlight` are).
    public static func writeItemsDocument(
        matching expression: QueryExpression, in workspace: EncodedWorkspace, context: ItemContext,
        runSize: Int = 1024, inFlight: Int = 6,
        to write: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        writeItemsDocument(today: context.today, to: write) { deliver in
            MatchRuns.write(matching: expression, in: workspace, runSize: runSize, inFlight: inFlight) { forEachMatch, output in
                forEachMatch { appendItem($0, context: context, to: &output) }
            } deliver: {
                deliver($0)
            }
        }
    }
}
