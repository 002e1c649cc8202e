/// One byte splice: replace the bytes of `range` in a file with `replacement`.
///
/// An empty `range` is an insertion at `range.lowerBound`; an empty
/// `replacement` is a deletion. Every edit tick makes is a set of splices
/// against the file's own bytes, so the bytes no splice covers are copied
/// unchanged.
public struct Splice: Sendable, Hashable, CustomStringConvertible {
    public var range: Range<Int>
    public var replacement: [UInt8]

    public init(_ range: Range<Int>, _ replacement: [UInt8]) {
        self.range = range
        self.replacement = replacement
    }

    public init(_ range: Range<Int>, _ replacement: String) {
        self.init(range, Array(replacement.utf8))
    }

    /// An insertion of `text` at `offset`.
    public static func insert(_ text: [UInt8], at offset: Int) -> Splice { Splice(offset..<offset, text) }
    public static func insert(_ text: String, at offset: Int) -> Splice { Splice(offset..<offset, text) }
    /// A deletion of `range`.
    public static func delete(_ range: Range<Int>) -> Splice { Splice(range, [UInt8]()) }

    public var description: String {
        "\(range.lowerBound)..<\(range.upperBound) -> \(String(decoding: replacement, as: UTF8.self).debugDescription)"
    }
}

/// Why a set of splices cannot be applied.
public enum SpliceError: Error, Equatable, CustomStringConvertible {
    /// Two splices claim the same bytes (or two insertions the same offset).
    case overlapping(Range<Int>, Range<Int>)
    /// A splice reaches past the end of the bytes.
    case outOfBounds(Range<Int>, count: Int)

    public var description: String {
        switch self {
        case .overlapping(let a, let b): "internal error: edits overlap at bytes \(a) and \(b)"
        case .outOfBounds(let range, let count): "internal error: edit at bytes \(range) is past the end (\(count) bytes)"
        }
    }
}

extension Splice {
    /// Sorts `splices` by position and checks that no two overlap: each range
    /// lies within `0..<count`, no two ranges share a byte, no insertion falls
    /// strictly inside a replaced range, and no two insertions share an
    /// offset (their order would be ambiguous). A replacement and an
    /// insertion may touch: the insertion at a range's end goes after it,
    /// at its start before it.
    public static func validated(_ splices: [Splice], count: Int) throws(SpliceError) -> [Splice] {
        for splice in splices where splice.range.lowerBound < 0 || splice.range.upperBound > count {
            throw .outOfBounds(splice.range, count: count)
        }
        // Insertions at an offset sort before a replacement starting there.
        let sorted = splices.enumerated().sorted { a, b in
            if a.element.range.lowerBound != b.element.range.lowerBound {
                return a.element.range.lowerBound < b.element.range.lowerBound
            }
            if a.element.range.isEmpty != b.element.range.isEmpty { return a.element.range.isEmpty }
            return a.offset < b.offset
        }.map(\.element)
        for (previous, next) in zip(sorted, sorted.dropFirst()) {
            if previous.range.isEmpty && next.range.isEmpty && previous.range.lowerBound == next.range.lowerBound {
                throw .overlapping(previous.range, next.range)
            }
            if !previous.range.isEmpty && next.range.lowerBound < previous.range.upperBound {
                throw .overlapping(previous.range, next.range)
            }
        }
        return sorted
    }

    /// The bytes after applying `splices`, which must not overlap (see
    /// `validated`). Every byte outside the splices' ranges is copied as is.
    public static func apply(_ splices: [Splice], to bytes: [UInt8]) throws(SpliceError) -> [UInt8] {
        let sorted = try validated(splices, count: bytes.count)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + sorted.reduce(0) { $0 + $1.replacement.count })
        var cursor = 0
        for splice in sorted {
            result.append(contentsOf: bytes[cursor..<splice.range.lowerBound])
            result.append(contentsOf: splice.replacement)
            cursor = splice.range.upperBound
        }
        result.append(contentsOf: bytes[cursor...])
        return result
    }
}
