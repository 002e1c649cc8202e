/// One stretch of a line-level three-way merge (what `git merge-file`
/// computes): lines both sides agree on, or a conflict between them.
///
/// Every line keeps its own line ending (none for a last line without one).
public enum LineMergePiece: Sendable, Equatable {
    case clean([[UInt8]])
    case conflict(base: [[UInt8]], ours: [[UInt8]], theirs: [[UInt8]])
}

/// A line-level three-way merge of BASE, OURS and THEIRS, in order.
///
/// tick does not write its own diff3: the command line runs
/// `git merge-file`, the merge git itself uses for text, so that prose,
/// headings and front matter merge exactly as git would merge them.
public typealias LineMerger = @Sendable (_ base: [UInt8], _ ours: [UInt8], _ theirs: [UInt8]) throws -> [LineMergePiece]

extension LineMergePiece {
    /// The lines of `bytes`, each with its ending.
    public static func lines(of bytes: some Collection<UInt8>) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in bytes {
            current.append(byte)
            if byte == 0x0A {
                lines.append(current)
                current = []
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// Reads the output of `git merge-file -p --diff3 --marker-size=SIZE`:
    /// clean lines, and each conflict's ours, base and theirs lines. A marker
    /// is SIZE equal characters at the start of a line, then a space, the
    /// line ending or nothing (`=` only with no label).
    public static func parseDiff3(_ output: [UInt8], markerSize: Int) -> [LineMergePiece] {
        enum Marker { case start, base, separator, end }
        func marker(_ line: [UInt8]) -> Marker? {
            guard line.count >= markerSize, let first = line.first else { return nil }
            guard line.prefix(markerSize).allSatisfy({ $0 == first }) else { return nil }
            let rest = line.dropFirst(markerSize)
            let bare = rest.isEmpty || rest.first == 0x0A || Array(rest) == [0x0D, 0x0A] || Array(rest) == [0x0D]
            let labelled = rest.first == 0x20
            switch first {
            case UInt8(ascii: "<"): return bare || labelled ? .start : nil
            case UInt8(ascii: "|"): return bare || labelled ? .base : nil
            case UInt8(ascii: "="): return bare ? .separator : nil
            case UInt8(ascii: ">"): return bare || labelled ? .end : nil
            default: return nil
            }
        }
        enum State { case clean, ours, base, theirs }
        var pieces: [LineMergePiece] = []
        var clean: [[UInt8]] = []
        var ours: [[UInt8]] = []
        var base: [[UInt8]] = []
        var theirs: [[UInt8]] = []
        var state = State.clean
        for line in lines(of: output) {
            switch (state, marker(line)) {
            case (.clean, .start):
                if !clean.isEmpty {
                    pieces.append(.clean(clean))
                    clean = []
                }
                state = .ours
            case (.ours, .base): state = .base
            case (.ours, .separator), (.base, .separator): state = .theirs
            case (.theirs, .end):
                pieces.append(.conflict(base: base, ours: ours, theirs: theirs))
                ours = []
                base = []
                theirs = []
                state = .clean
            case (.clean, _): clean.append(line)
            case (.ours, _): ours.append(line)
            case (.base, _): base.append(line)
            case (.theirs, _): theirs.append(line)
            }
        }
        if state != .clean { clean += ours + base + theirs } // cannot happen with git's output; keep every byte
        if !clean.isEmpty { pieces.append(.clean(clean)) }
        return pieces
    }

    /// The smallest marker size of at least `minimum` that no line of the
    /// texts could be mistaken for.
    public static func safeMarkerSize(for texts: [[UInt8]], minimum: Int = 32) -> Int {
        var size = minimum
        for text in texts {
            for line in lines(of: text) {
                guard let first = line.first, [UInt8(ascii: "<"), UInt8(ascii: "|"), UInt8(ascii: "="), UInt8(ascii: ">")].contains(first)
                else { continue }
                let run = line.prefix(while: { $0 == first }).count
                if run >= size { size = run + 1 }
            }
        }
        return size
    }
}
