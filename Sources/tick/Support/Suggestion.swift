/// "Did you mean …?" for a mistyped name: the nearest of the known names by
/// edit distance (insertions, deletions, substitutions and swaps of two
/// neighbouring letters each count one), when it is near enough to be a typo.
enum Suggestion {
    /// The known name nearest to `word`, or nil when none is within a typo's
    /// reach (one edit for words of up to four letters, two for longer ones).
    /// Ties go to the name listed first.
    static func nearest(to word: String, in names: [String]) -> String? {
        let typed = Array(word.lowercased())
        let reach = typed.count <= 4 ? 1 : 2
        var best: (name: String, distance: Int)? = nil
        for name in names {
            let distance = editDistance(typed, Array(name.lowercased()))
            if distance <= reach, distance < (best?.distance ?? Int.max) { best = (name, distance) }
        }
        return best?.name
    }

    /// The optimal string alignment distance between `a` and `b`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
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

    /// "; did you mean 'today'?" or nothing.
    static func didYouMean(_ word: String, in names: [String]) -> String {
        nearest(to: word, in: names).map { "; did you mean '\($0)'?" } ?? ""
    }
}
