import TickModel
import TickRecords
import TickSystem

// The engine's entry points over a whole workspace.

extension EncodedWorkspace {
    /// How many items each of `groups` holds on `today`, in one pass over
    /// the folder on every core, with no item kept.
    public func counts(of groups: [SmartGroup], today: TaskDate) -> [Int] {
        let runs = listRuns(minimumSize: 4096)
        let perRun = Parallel.map(runs.count) { run in
            var counts = [Int](repeating: 0, count: groups.count)
            forEachItem(in: runs[run]) { item in
                for (position, group) in groups.enumerated() where group.contains(item, today: today) { counts[position] += 1 }
            }
            return counts
        }
        saveRepairs()
        return perRun.reduce(into: [Int](repeating: 0, count: groups.count)) { total, counts in
            for position in counts.indices { total[position] += counts[position] }
        }
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
