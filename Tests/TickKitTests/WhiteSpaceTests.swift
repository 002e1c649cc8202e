import Foundation
import Testing
import TickSystem

/// `trimmingWhiteSpace` removes what Foundation's `trimmingCharacters(in:)`
/// removes, for each of its three sets.
@Suite struct WhiteSpaceTests {
    static let kinds: [(TrimmedSpace, CharacterSet)] = [
        (.spaces, .whitespaces), (.newlines, .newlines), (.spacesAndNewlines, .whitespacesAndNewlines),
    ]

    @Test("every scalar up to U+3100 (and the odd spaces beyond) at either end is trimmed as Foundation trims it, for each set")
    func everyScalarIsTrimmedAsFoundationTrimsIt() {
        let scalars = (0...0x3100).compactMap(Unicode.Scalar.init) + [0x180E, 0x205F, 0xFEFF, 0x1680].compactMap(Unicode.Scalar.init)
        for (kind, set) in Self.kinds {
            for scalar in scalars {
                let s = String(scalar)
                for text in ["\(s)a\(s)", "\(s)\(s)", "a\(s)b", "\(s)", " \(s)x\t"] {
                    #expect(text.trimmingWhiteSpace(kind) == text.trimmingCharacters(in: set), "U+\(String(scalar.value, radix: 16)) in \(kind)")
                }
            }
        }
    }

    @Test("a combining mark after white space stays, and the white space before it goes, as Foundation trims it")
    func aCombiningMarkAfterWhiteSpaceStays() {
        for (kind, set) in Self.kinds {
            for text in [" \u{301}abc", "abc \u{301}", "\t\u{301}", "  é  ", "\u{3000}日付\u{3000}", "\r\n x \r\n", ""] {
                #expect(text.trimmingWhiteSpace(kind) == text.trimmingCharacters(in: set))
                #expect(text[...].trimmingWhiteSpace(kind) == text.trimmingCharacters(in: set))
            }
        }
    }
}
