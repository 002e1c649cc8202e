import TickModel

/// A unified diff of two versions of a file, as `diff -u` prints it (with
/// the file's path in both headers, as `header` writes it, and no time
/// stamps), for `--dry-run`.
///
/// Guarantees: the hunks have three lines of context, hunks closer than
/// seven lines are joined, lines are printed byte for byte (a CR of a CRLF
/// ending included), a last line without a line ending is followed by
/// `\ No newline at end of file`, and applying the diff with `patch` turns
/// the old bytes into the new ones. Identical inputs give an empty diff.
public enum UnifiedDiff {
    /// The diff from `old` to `new`; `old` nil means the file is new.
    public static func make(path: String, old: [UInt8]?, new: [UInt8], context: Int = 3) -> [UInt8] {
        let oldLines = old.map(lines) ?? []
        let newLines = lines(new)
        if let old, old == new { return [] }
        let script = editScript(oldLines, newLines)
        guard script.contains(where: { $0 != .same }) else { return [] }

        var output: [UInt8] = Array("--- \(old == nil ? "/dev/null" : header(path))\n+++ \(header(path))\n".utf8)
        // Walk the script, keeping the old and new line numbers of each step.
        struct Step {
            var op: Op
            var oldIndex: Int
            var newIndex: Int
        }
        var steps: [Step] = []
        var oldIndex = 0
        var newIndex = 0
        for op in script {
            steps.append(Step(op: op, oldIndex: oldIndex, newIndex: newIndex))
            switch op {
            case .same:
                oldIndex += 1
                newIndex += 1
            case .delete: oldIndex += 1
            case .insert: newIndex += 1
            }
        }
        // Group changes into hunks.
        let changed = steps.indices.filter { steps[$0].op != .same }
        var hunks: [(Int, Int)] = [] // step index ranges, inclusive
        var start = changed[0]
        var end = changed[0]
        for index in changed.dropFirst() {
            if index - end - 1 <= 2 * context {
                end = index
            } else {
                hunks.append((start, end))
                start = index
                end = index
            }
        }
        hunks.append((start, end))

        for (first, last) in hunks {
            let from = max(0, first - context)
            let to = min(steps.count - 1, last + context)
            let slice = steps[from...to]
            let oldCount = slice.filter { $0.op != .insert }.count
            let newCount = slice.filter { $0.op != .delete }.count
            let oldStart = oldCount == 0 ? slice.first!.oldIndex : slice.first!.oldIndex + 1
            let newStart = newCount == 0 ? slice.first!.newIndex : slice.first!.newIndex + 1
            func range(_ start: Int, _ count: Int) -> String { count == 1 ? "\(start)" : "\(start),\(count)" }
            output += Array("@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n".utf8)
            for step in slice {
                let (mark, line): (UInt8, ArraySlice<UInt8>)
                switch step.op {
                case .same: (mark, line) = (0x20, oldLines[step.oldIndex])
                case .delete: (mark, line) = (UInt8(ascii: "-"), oldLines[step.oldIndex])
                case .insert: (mark, line) = (UInt8(ascii: "+"), newLines[step.newIndex])
                }
                output.append(mark)
                output += line
                if line.last != 0x0A && line.last != 0x0D {
                    output += Array("\n\\ No newline at end of file\n".utf8)
                }
            }
        }
        return output
    }

    /// A path as a `---`/`+++` header names it, so that `patch` and `git
    /// apply` read it back: a path with a space ends with a tab (as GNU diff
    /// and git write it; without one, patch stops the name at the space);
    /// a path with a tab, line break, quote, backslash or other control
    /// character is written in double quotes with C escapes, as both do.
    static func header(_ path: String) -> String {
        var name = path
        if path.unicodeScalars.contains(where: { $0 == "\"" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }) {
            name = "\""
            for scalar in path.unicodeScalars {
                switch scalar {
                case "\"": name += "\\\""
                case "\\": name += "\\\\"
                case "\t": name += "\\t"
                case "\n": name += "\\n"
                case "\r": name += "\\r"
                case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                    name += "\\" + String(scalar.value, radix: 8).leftPadded(to: 3)
                default: name.unicodeScalars.append(scalar)
                }
            }
            name += "\""
        }
        return path.contains(" ") ? name + "\t" : name
    }

    enum Op: Equatable { case same, delete, insert }

    /// The lines of `bytes`, each with its line ending (LF, CRLF or CR).
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        guard !bytes.isEmpty else { return [] }
        let source = SourceText(bytes)
        return (1...source.lineCount).map { bytes[source.rangeWithEnding(ofLine: $0)] }
    }

    /// A shortest edit script (Myers' greedy algorithm) after taking off the
    /// common head and tail.
    static func editScript(_ a: [ArraySlice<UInt8>], _ b: [ArraySlice<UInt8>]) -> [Op] {
        var head = 0
        while head < a.count, head < b.count, a[head] == b[head] { head += 1 }
        var tail = 0
        while tail < a.count - head, tail < b.count - head, a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
        // Compare lines by number: equal lines get equal numbers.
        var numbers: [ArraySlice<UInt8>: Int] = [:]
        let x = a[head..<a.count - tail].map { line in
            numbers[line]
                ?? {
                    numbers[line] = numbers.count
                    return numbers.count - 1
                }()
        }
        let y = b[head..<b.count - tail].map { line in
            numbers[line]
                ?? {
                    numbers[line] = numbers.count
                    return numbers.count - 1
                }()
        }
        let middle = myers(x, y)
        return [Op](repeating: .same, count: head) + middle + [Op](repeating: .same, count: tail)
    }

    static func myers(_ a: [Int], _ b: [Int]) -> [Op] {
        let n = a.count
        let m = b.count
        if n == 0 { return [Op](repeating: .insert, count: m) }
        if m == 0 { return [Op](repeating: .delete, count: n) }
        let maximum = n + m
        var v = [Int](repeating: 0, count: 2 * maximum + 2)
        var trace: [[Int]] = []
        outer: for d in 0...maximum {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && v[k - 1 + maximum] < v[k + 1 + maximum]) {
                    x = v[k + 1 + maximum]
                } else {
                    x = v[k - 1 + maximum] + 1
                }
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[k + maximum] = x
                if x >= n && y >= m { break outer }
            }
        }
        // Backtrack.
        var ops: [Op] = []
        var x = n
        var y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK: Int
            if k == -d || (k != d && v[k - 1 + maximum] < v[k + 1 + maximum]) { previousK = k + 1 } else { previousK = k - 1 }
            let previousX = d == 0 ? 0 : v[previousK + maximum]
            let previousY = previousX - previousK
            while x > previousX && y > previousY {
                ops.append(.same)
                x -= 1
                y -= 1
            }
            if d > 0 {
                if x == previousX {
                    ops.append(.insert)
                    y -= 1
                } else {
                    ops.append(.delete)
                    x -= 1
                }
            }
            if d == 0 {
                while x > 0 && y > 0 {
                    ops.append(.same)
                    x -= 1
                    y -= 1
                }
            }
        }
        // Within each run of changes, list deletions before insertions, as diff does.
        ops.reverse()
        var result: [Op] = []
        var index = 0
        while index < ops.count {
            if ops[index] == .same {
                result.append(.same)
                index += 1
                continue
            }
            var deletes = 0
            var inserts = 0
            while index < ops.count, ops[index] != .same {
                if ops[index] == .delete { deletes += 1 } else { inserts += 1 }
                index += 1
            }
            result += [Op](repeating: .delete, count: deletes) + [Op](repeating: .insert, count: inserts)
        }
        return result
    }
}

extension String {
    /// The string with zeros in front, to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
