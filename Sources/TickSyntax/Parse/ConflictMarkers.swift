import TickModel
import TickSystem

/// Git's conflict markers: the `<<<<<<<`, `|||||||` (diff3), `=======` and
/// `>>>>>>>` lines a merge leaves in a file it could not merge.
///
/// cmark-gfm reads them as text (a `=======` line even underlines the line
/// above as a heading), so without this a conflicted list would show its
/// markers as notes and edits would go on as if nothing were wrong. Only a
/// complete region counts (`<<<<<<<`, then `=======`, then `>>>>>>>`, each
/// at the start of a line), so a lone `=======` under a heading is not
/// one; a region that lies inside a fenced code block opened before it (a
/// note that shows what a conflict looks like) is not one either.
public enum ConflictMarkers {
    /// How every diagnostic about a marker begins (`Document.conflictLines` finds them by it).
    public static let diagnosticPrefix = "git conflict marker"

    /// The message of the diagnostic on a marker line.
    static let diagnostic =
        "\(diagnosticPrefix): this file has an unresolved merge conflict; resolve it and remove the markers (tick will not change the file until then)"

    /// The 1-based lines of the markers of every complete region, in order.
    package static func lines(in source: SourceText) -> [Int] {
        let bytes = source.bytes
        // Nearly every file has no `<<<<<<<` at all: one search says so.
        let found = bytes.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            var index = 0
            while index + 7 <= buffer.count, let hit = Posix.findByte(UInt8(ascii: "<"), base + index, buffer.count - index - 6) {
                let offset = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                if (offset..<offset + 7).allSatisfy({ buffer[$0] == UInt8(ascii: "<") }) { return true }
                index = offset + 1
            }
            return false
        }
        guard found else { return [] }

        enum Marker { case ours, base, separator, theirs }
        func marker(_ line: Int) -> Marker? {
            var range = source.range(ofLine: line)
            // A byte-order mark before the first line's marker is not part of it.
            if line == 1, source.hasByteOrderMark { range = min(range.lowerBound + 3, range.upperBound)..<range.upperBound }
            guard range.count >= 7 else { return nil }
            let first = bytes[range.lowerBound]
            guard (range.lowerBound..<range.lowerBound + 7).allSatisfy({ bytes[$0] == first }) else { return nil }
            // After the seven: nothing, or (but for `=======`) a space and a label.
            let rest = range.lowerBound + 7
            let bare = rest == range.upperBound
            let labelled = !bare && (bytes[rest] == 0x20 || bytes[rest] == 0x09)
            switch first {
            case UInt8(ascii: "<"): return bare || labelled ? .ours : nil
            case UInt8(ascii: "|"): return bare || labelled ? .base : nil
            case UInt8(ascii: "="): return bare ? .separator : nil
            case UInt8(ascii: ">"): return bare || labelled ? .theirs : nil
            default: return nil
            }
        }

        var result: [Int] = []
        var region: [Int] = [] // markers of the region being read
        var sawSeparator = false
        var fence: (character: UInt8, length: Int)? = nil
        for line in 1...source.lineCount {
            switch marker(line) {
            case .ours?:
                if fence == nil {
                    region = [line]
                    sawSeparator = false
                }
                continue
            case .base? where !region.isEmpty && !sawSeparator:
                region.append(line)
                continue
            case .separator? where !region.isEmpty && !sawSeparator:
                region.append(line)
                sawSeparator = true
                continue
            case .theirs? where sawSeparator:
                result += region + [line]
                region = []
                sawSeparator = false
                continue
            default:
                break
            }
            // Fences are followed outside regions only: inside one, the two
            // sides may each open or close one.
            guard region.isEmpty else { continue }
            let range = source.range(ofLine: line)
            var index = range.lowerBound
            var indent = 0
            while index < range.upperBound, bytes[index] == 0x20, indent < 4 {
                index += 1
                indent += 1
            }
            guard index < range.upperBound, indent < 4, bytes[index] == UInt8(ascii: "`") || bytes[index] == UInt8(ascii: "~") else { continue }
            let character = bytes[index]
            var length = 0
            while index + length < range.upperBound, bytes[index + length] == character { length += 1 }
            guard length >= 3 else { continue }
            if let open = fence {
                let rest = (index + length..<range.upperBound).allSatisfy { bytes[$0] == 0x20 || bytes[$0] == 0x09 }
                if open.character == character, length >= open.length, rest { fence = nil }
            } else {
                fence = (character, length)
            }
        }
        return result
    }
}

extension Document {
    /// The lines of the git conflict markers in the file (`ConflictMarkers`); empty when there are none.
    public var conflictLines: [Int] {
        diagnostics.filter { $0.message.hasPrefix(ConflictMarkers.diagnosticPrefix) }.map(\.line)
    }
}
