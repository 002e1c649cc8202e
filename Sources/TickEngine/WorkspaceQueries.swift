import TickModel
import TickRecords
import TickSystem

// The engine's entry points over a whole workspace.

extension EncodedWorkspace {
    /// How many items each of `groups` holds on `today`, and the numbers
    /// of open and of done items of each list (in list order): what the
    /// home screen shows, in one pass over the folder on every core, with
    /// no item kept (two passes would read the whole parse cache twice).
    public func homeCounts(of groups: [SmartGroup], today: TaskDate) -> (groups: [Int], lists: [(open: Int, done: Int)]) {
        let runs = listRuns(minimumSize: 4096)
        let perRun = Parallel.map(runs.count) { run in
            var counts = [Int](repeating: 0, count: groups.count)
            var lists = [(open: Int, done: Int)](repeating: (0, 0), count: runs[run].count)
            forEachItem(in: runs[run]) { item in
                for (position, group) in groups.enumerated() where group.contains(item, today: today) { counts[position] += 1 }
                let status = item.status
                let place = item.listRank - runs[run].lowerBound
                if status.isOpen { lists[place].open += 1 } else if status == .done { lists[place].done += 1 }
            }
            return (counts, lists)
        }
        saveRepairs()
        let groupCounts = perRun.reduce(into: [Int](repeating: 0, count: groups.count)) { total, run in
            for position in run.0.indices { total[position] += run.0[position] }
        }
        return (groupCounts, Array(perRun.map(\.1).joined()))
    }

    /// Which items of the folder are blocked or blocking.
    public var dependencies: DependencyIndex {
        DependencyIndex(itemsAccepted(byTestsFrom: { { $0.id != nil || $0.dependsOnText != nil } }))
    }
}

extension QueryEvaluator {
    /// The items of `workspace` that match `expression`, in manual order.
    public static func filter(_ workspace: EncodedWorkspace, _ expression: QueryExpression) -> [EncodedListedItem] {
        workspace.itemsAccepted(byTestsFrom: { test(expression) })
    }
}

extension SmartGroup {
    /// The members of this group in `workspace`, among the items that match
    /// `expression` when one is given, in the group's own order.
    public func members(of workspace: EncodedWorkspace, matching expression: QueryExpression?, today: TaskDate)
        -> [EncodedListedItem]
    {
        // The group's own test runs in the same pass on every core, so
        // that the folder's items are never gathered whole.
        let items = workspace.itemsAccepted(byTestsFrom: {
            let matches = expression.map { QueryEvaluator.test($0) }
            return { item in contains(item, today: today) && matches?(item) ?? true }
        })
        return members(of: items, today: today)
    }
}
