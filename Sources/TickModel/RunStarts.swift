extension Array where Element == Int {
    /// For runs laid end to end, whose first positions are these (in
    /// ascending order, the first 0): the index of the run that holds
    /// `position`, the last one that starts at or before it (a binary
    /// search). Grouped items and listings find an item's group this way.
    package func run(containing position: Int) -> Int {
        var (low, high) = (0, count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if self[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
