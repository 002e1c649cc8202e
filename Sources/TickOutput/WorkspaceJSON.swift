import TickEngine
import TickModel
import TickRecords
import TickSystem

extension ItemJSON {
    /// Writes the items document of the items of `workspace` that match
    /// `expression`, in manual order: the bytes of `writeItemsDocument` over
    /// `QueryEvaluator.filter(workspace, expression)`. Each task tests a run
    /// of lists and renders what matches at once, while the items' records
    /// are still in the processor's cache (a second pass read each record
    /// from memory again: a fifth of a repeated query's time).
    /// (`runSize` and `inFlight` are the smallest run of items one task
    /// takes, and how many runs may be held rendered before they are
    /// written; tests make them small.)
    public static func writeItemsDocument(
        matching expression: QueryExpression, in workspace: EncodedWorkspace, context: ItemContext,
        runSize: Int = 1024, inFlight: Int = 6,
        to write: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        let runs = workspace.listRuns(minimumSize: runSize)
        writeItemsDocument(today: context.today, to: write) { deliver in
            Parallel.orderedChunks(runs.count, inFlight: inFlight, capacity: 256 * 1024) { run, output in
                let matches = QueryEvaluator.test(expression)
                workspace.forEachItem(in: runs[run]) { item in
                    if matches(item) { appendItem(item, context: context, to: &output) }
                }
            } deliver: {
                deliver($0)
            }
        }
        workspace.saveRepairs()
    }
}
