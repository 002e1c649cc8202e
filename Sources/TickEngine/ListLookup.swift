import TickModel

/// Finds a list by what a user typed: its path, its path without `.md`, its
/// file name without extension, or its name, case-insensitively.
///
/// Guarantees: the first of those four forms that any list matches decides
/// (one list: found; several: ambiguous), compared as `lowercased()`
/// strings compare; every list is looked at once, and an ASCII path or
/// name (nearly all) is compared as bytes in place, with no string made
/// for it (a folder of 50,000 notes is searched on every `show LIST`).
public enum ListLookup {
    public enum Failure: Error, Equatable {
        case unknown(String, candidates: [String])
        case ambiguous(String, candidates: [String])
    }

    /// The index in `documents` of the list `name` names.
    public static func resolve<List: LookupList>(_ name: String, in documents: [List]) throws(Failure) -> Int {
        let wanted = name.lowercased()
        // The lists each form matches, in the order the forms are tried.
        var matches: [[Int]] = Array(repeating: [], count: Form.allCases.count)
        wanted.withUTF8Bytes { bytes in
            let wanted = Wanted(text: wanted, bytes: bytes, isASCII: ByteText.isASCII(bytes))
            for index in documents.indices {
                for form in Form.allCases where form.matches(documents[index], wanted) { matches[form.rawValue].append(index) }
            }
        }
        for found in matches {
            if found.count == 1 { return found[0] }
            if found.count > 1 { throw .ambiguous(name, candidates: found.map { documents[$0].path }) }
        }
        let near = documents.filter { contains($0.path, wanted) || contains($0.name, wanted) }
        throw .unknown(name, candidates: (near.isEmpty ? documents : near).map(\.path))
    }

    /// The name looked for, lowercased: as a `String` and as its bytes.
    private struct Wanted {
        let text: String
        let bytes: UnsafeBufferPointer<UInt8>
        let isASCII: Bool
    }

    /// What of a list a name is compared with, in the order they are tried.
    private enum Form: Int, CaseIterable {
        case path, pathWithoutExtension, fileNameWithoutExtension, name

        /// True when this form of `list`, lowercased, is `wanted` (lowercased
        /// already). When both are ASCII (which lowercases to ASCII of its
        /// own length) they are compared as bytes, ASCII letters folded;
        /// any other pair goes through `String`.
        func matches<List: LookupList>(_ list: List, _ wanted: Wanted) -> Bool {
            let text = self == .name ? list.name : list.path
            return text.withUTF8Bytes { bytes in
                // (A name that is not ASCII may still equal an ASCII one:
                // U+037E, the Greek question mark, is canonically `;`.)
                guard wanted.isASCII, ByteText.isASCII(bytes) else { return lowercased(of: text) == wanted.text }
                return ByteText.equalASCIICaseFolded(part(of: bytes), wanted.bytes)
            }
        }

        /// This form of the ASCII `path` or name.
        private func part(of bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
            switch self {
            case .path, .name: return bytes
            case .pathWithoutExtension: return ListLookup.withoutExtension(bytes)
            case .fileNameWithoutExtension: return ListLookup.withoutExtension(ListLookup.lastComponent(bytes))
            }
        }

        /// This form of `text`, lowercased, as `String`s make it.
        private func lowercased(of text: String) -> String {
            switch self {
            case .path, .name: return text.lowercased()
            case .pathWithoutExtension: return Document.withoutExtension(text).lowercased()
            case .fileNameWithoutExtension:
                return Document.withoutExtension(text.split(separator: "/").last.map(String.init) ?? "").lowercased()
            }
        }
    }

    /// The ASCII `path` without a final `.markdown` or `.md` (as `Document.withoutExtension(_:)`).
    private static func withoutExtension(_ path: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        for suffix in [".markdown", ".md"] as [StaticString] where path.count >= suffix.utf8CodeUnitCount {
            let start = path.count - suffix.utf8CodeUnitCount
            if suffix.withUTF8Buffer({ UnsafeBufferPointer(rebasing: path[start...]).elementsEqual($0) }) {
                return UnsafeBufferPointer(rebasing: path[..<start])
            }
        }
        return path
    }

    /// The last part of the ASCII `path` that is not empty between slashes
    /// (as `split(separator: "/").last`), empty when there is none.
    private static func lastComponent(_ path: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let slash = UInt8(ascii: "/")
        var end = path.count
        while end > 0, path[end - 1] == slash { end -= 1 }
        var start = end
        while start > 0, path[start - 1] != slash { start -= 1 }
        return UnsafeBufferPointer(rebasing: path[start..<end])
    }

    /// True when `text`, lowercased, contains `wanted` (lowercased already):
    /// as bytes when both are ASCII.
    private static func contains(_ text: String, _ wanted: String) -> Bool {
        text.withUTF8Bytes { bytes in
            wanted.withUTF8Bytes { needle in
                // (An empty needle is left to `String`, as `items(whoseTitleLowercasedContains:)` leaves it.)
                if !needle.isEmpty, ByteText.isASCII(needle), ByteText.isASCII(bytes) {
                    return ByteText.containsASCIICaseFolded(bytes, needle)
                }
                return text.lowercased().contains(wanted)
            }
        }
    }
}

extension ListLookup.Failure: TickErrorConvertible {
    /// One line for the user: what was not found, and the names there are.
    public var message: String {
        switch self {
        case .unknown(let name, let candidates):
            return "no list named '\(name)'" + Self.suggest(candidates, "lists are")
        case .ambiguous(let name, let candidates):
            return "'\(name)' names more than one list" + Self.suggest(candidates, "use a path:")
        }
    }

    private static func suggest(_ candidates: [String], _ lead: String) -> String {
        guard !candidates.isEmpty else { return "; create one with `tick new NAME`" }
        let shown = candidates.prefix(8).joined(separator: ", ")
        return "; \(lead) \(shown)\(candidates.count > 8 ? ", …" : "")"
    }

    public var tickError: TickError { .badData(message) }
}
