/// The valid word nearest to a typo (`hgih` → `high`), for the "did you
/// mean" of a diagnostic: the fewest insertions, deletions, substitutions
/// and swaps of neighbouring letters (optimal string alignment distance),
/// case ignored; none when every candidate is too far to be a slip.
public enum NearestWord {
    /// The candidate nearest to `word`, or nil when none is within a slip's
    /// reach (one edit for words of up to four letters, two for longer ones).
    /// Ties go to the candidate listed first.
    public static func nearest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased().unicodeScalars)
        guard !typed.isEmpty else { return nil }
        // At most one edit in short words, two in words of five letters or more.
        let limit = typed.count >= 5 ? 2 : 1
        var best: (word: String, distance: Int)? = nil
        for candidate in candidates {
            let distance = self.distance(typed, Array(candidate.lowercased().unicodeScalars))
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.word
    }

    /// The optimal string alignment distance between `a` and `b`.
    public static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// " (did you mean X?)" for the nearest of `candidates`, else "".
    package static func hint(_ word: String, among candidates: [String], shown: (String) -> String = { $0 }) -> String {
        nearest(to: word, among: candidates).map { " (did you mean \(shown($0))?)" } ?? ""
    }
}
