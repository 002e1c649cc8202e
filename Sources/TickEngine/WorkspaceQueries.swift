import TickModel
import TickRecords
import TickSystem

// The engine's entry points over a whole workspace.

extension EncodedWorkspace {
    /// How many items each of `groups` holds on `today`, and the numbers
    /// of open and of done items of each list (in list order): what the
    /// home screen shows, from each list's tally (for a list read from the
    /// cache, the cache's index alone).
    public func homeCounts(of groups: [SmartGroup], today: TaskDate) -> (groups: [Int], lists: [(open: Int, done: Int)]) {
        let tallies = listTallies(today: today)
        let total = tallies.reduce(into: ListTally()) { $0 += $1 }
        return (groups.map { $0.count(in: total) }, tallies.map { ($0.open, $0.done) })
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
        // The group's own test and order key are taken in the same pass
        // on every core, so that the folder's items are never gathered
        // whole, and each record is read once. A group in manual order is
        // gathered without keys: a key beside each of `all`'s items at
        // 50,000 notes held 17 MB more at the command's peak.
        if isInManualOrder {
            return workspace.itemsAccepted(byTestsFrom: {
                let matches = expression.map { QueryEvaluator.test($0) }
                return { item in orderKey(item, today: today) != nil && matches?(item) != false }
            })
        }
        return workspace.itemsInKeyOrder(byFunctionsFrom: {
            let matches = expression.map { QueryEvaluator.test($0) }
            return { item in orderKey(item, today: today).flatMap { matches?(item) == false ? nil : $0 } }
        })
    }
}
