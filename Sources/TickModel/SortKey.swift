import Foundation
import TickSystem

/// The keys items sort by (SPEC §4). Every sort falls back to manual order,
/// so output is deterministic.
public enum SortKey: String, Sendable, CaseIterable {
    /// List order, then position in the file (the default).
    case manual
    /// Case-insensitive, locale-aware.
    case title
    /// Highest first.
    case priority
    /// Earliest first, no date last.
    case due
    /// Earliest first, no date last.
    case created
    /// Earliest first, no date last.
    case done
    /// By list name, then manual order.
    case list
    /// Most urgent first (`Urgency`, counted from today).
    case urgency

    /// Why `K[,K]` is not a list of sort keys: one line for the user.
    public struct ListProblem: Error, Sendable, Equatable {
        public var message: String
    }

    /// The sort keys of `K[,K]` (`priority,due`; any case, spaces around
    /// commas allowed): the one reading of sort keys, for `--sort`, `tick
    /// sort --by` and the `sort:` setting.
    public static func list(_ text: String) -> Result<[SortKey], ListProblem> {
        let known = allCases.map(\.rawValue)
        var keys: [SortKey] = []
        for part in text.split(separator: ",") {
            let word = part.trimmingWhiteSpace().lowercased()
            if word.isEmpty { continue }
            guard let key = SortKey(rawValue: word) else {
                let hint = NearestWord.hint(word, among: known, shown: { "'\($0)'" })
                return .failure(ListProblem(message: "unknown sort key '\(word)'\(hint); keys are \(known.joined(separator: ", "))"))
            }
            keys.append(key)
        }
        guard !keys.isEmpty else { return .failure(ListProblem(message: "give at least one sort key, e.g. priority,due")) }
        return .success(keys)
    }

    /// A date's place among dates as a number, smaller first: earliest
    /// first (by day, then time, a day without a time before its times),
    /// as `TaskDate`'s `<` orders them, equal when the dates are; a missing
    /// date last.
    package static func orderKey(of date: TaskDate?) -> UInt64 {
        guard let packed = date?.packed else { return .max }
        return UInt64(packed.day) << 16 | UInt64(packed.minutes)
    }

    /// Ranks lists by `order:` (lists without one after those with one), then
    /// name, then path: the list order of manual sorting and of `tick lists`.
    public static func listRanks(_ documents: [Document]) -> [Int] {
        listRanks(foldedNames: documents.map { foldedName($0.name) }, orders: documents.map(\.order), paths: documents.map(\.path))
    }

    /// A list's name as list order compares it: lowercased once, rather than
    /// compared with a locale on every step of the sort.
    package static func foldedName(_ name: String) -> String { name.lowercased() }

    /// `listRanks(_:)` from each list's folded name (`foldedName`), `order:`
    /// and path. The sort reads the keys from arrays of their own (copying a
    /// list's tuple at each step retained and released its strings: a
    /// repeated query over 5,000 lists spent a millisecond on that).
    static func listRanks(foldedNames keys: [String], orders: [Int?], paths: [String]) -> [Int] {
        var ranks = [Int](repeating: 0, count: keys.count)
        for (rank, index) in listOrder(foldedNames: keys, orders: orders, paths: paths).enumerated() { ranks[index] = rank }
        return ranks
    }

    /// The indices of the lists in list order (`listRanks` inverted).
    package static func listOrder(foldedNames keys: [String], orders: [Int?], paths: [String]) -> [Int] {
        func byOrder(_ a: Int, _ b: Int) -> Bool? {
            switch (orders[a], orders[b]) {
            case (let l?, let r?) where l != r: return l < r
            case (.some, nil): return true
            case (nil, .some): return false
            default: return nil
            }
        }
        // Names and paths that are all ASCII (nearly always) are compared
        // as bytes, packed in one buffer: the same order as `String`'s, with
        // no call into Unicode comparison for each of the ~60,000 steps of
        // sorting 5,000 lists on every query.
        if let packedKeys = PackedTexts(keys), let packedPaths = PackedTexts(paths) {
            return packedKeys.withSlices { key in
                packedPaths.withSlices { path in
                    keys.indices.sorted { a, b in
                        if let ordered = byOrder(a, b) { return ordered }
                        let names = ByteText.compare(key(a), key(b))
                        return names != 0 ? names < 0 : ByteText.compare(path(a), path(b)) < 0
                    }
                }
            }
        }
        return keys.indices.sorted { a, b in
            if let ordered = byOrder(a, b) { return ordered }
            if keys[a] != keys[b] { return keys[a] < keys[b] }
            return paths[a] < paths[b]
        }
    }
}

/// ASCII strings packed end to end in one buffer, each read back as a
/// slice of bytes (for sorting without touching the strings).
struct PackedTexts {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []

    /// Nil when a string is not all ASCII.
    package init?(_ texts: [String]) {
        ends.reserveCapacity(texts.count)
        for text in texts {
            var text = text
            let isASCII = text.withUTF8 { utf8 in
                bytes.append(contentsOf: utf8)
                return ByteText.isASCII(utf8)
            }
            guard isASCII else { return nil }
            ends.append(bytes.count)
        }
    }

    /// The strings' bytes, valid inside `withSlices`.
    struct Slices {
        let bytes: UnsafeBufferPointer<UInt8>
        let ends: UnsafeBufferPointer<Int>

        /// The bytes of string `index`.
        @inline(__always)
        func callAsFunction(_ index: Int) -> UnsafeBufferPointer<UInt8> {
            let start = index == 0 ? 0 : ends[index - 1]
            return UnsafeBufferPointer(start: bytes.baseAddress.map { $0 + start }, count: ends[index] - start)
        }
    }

    /// Calls `body` with the strings' bytes.
    func withSlices<Result>(_ body: (Slices) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { bytes in
            ends.withUnsafeBufferPointer { ends in body(Slices(bytes: bytes, ends: ends)) }
        }
    }
}
