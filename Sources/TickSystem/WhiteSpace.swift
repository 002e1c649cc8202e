/// The white space `trimmingWhiteSpace` removes, as Foundation's character
/// sets name it.
package enum TrimmedSpace: Sendable {
    /// `CharacterSet.whitespaces`: the tab, Unicode's space separators (Zs)
    /// and, as Foundation counts it, the zero width space (U+200B).
    case spaces
    /// `CharacterSet.newlines`: U+000A–U+000D, U+0085, U+2028 and U+2029.
    case newlines
    /// `CharacterSet.whitespacesAndNewlines`: both.
    case spacesAndNewlines

    /// Whether `scalar` is white space of this kind.
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        let isNewline = (0x0A...0x0D).contains(value) || value == 0x85 || value == 0x2028 || value == 0x2029
        let isSpace =
            value == 0x09 || value == 0x20
            || (value >= 0x80 && (value == 0x200B || scalar.properties.generalCategory == .spaceSeparator))
        switch self {
        case .spaces: return isSpace
        case .newlines: return isNewline
        case .spacesAndNewlines: return isSpace || isNewline
        }
    }
}

extension StringProtocol {
    /// The text without `kind` of white space at either end: what
    /// Foundation's `trimmingCharacters(in:)` returns for the same set,
    /// scalar by scalar.
    ///
    /// Written by hand because Foundation's goes through `NSString` and,
    /// the first time, sets its character sets up: about 0.8 million
    /// instructions, a quarter of a millisecond of every command in a git
    /// work tree, whose settings are read with it.
    package func trimmingWhiteSpace(_ kind: TrimmedSpace = .spaces) -> String {
        let scalars = String(self).unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, kind.contains(scalars[start]) { start = scalars.index(after: start) }
        while end > start {
            let before = scalars.index(before: end)
            guard kind.contains(scalars[before]) else { break }
            end = before
        }
        return String(scalars[start..<end])
    }
}
