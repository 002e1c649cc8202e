import CCoreFoundation
import Foundation

/// A column of texts, each compared with the others as
/// `String.compare(_:options: [.caseInsensitive], range: nil, locale:)`
/// compares them: case-insensitive, in the locale's order. Every pair gets
/// the same answer (a test compares the two on random text in several
/// locales), at about a tenth of the cost.
///
/// Foundation's `compare` makes a `CFLocale` from the `Locale`, and a Core
/// Foundation string of each text, at every call (nine tenths of a sort by
/// title), and then asks `CFStringCompareWithOptionsAndLocale`, its options
/// made non-literal (`String.CompareOptions._cfValue(true)`). This column
/// asks the same function with the same options, but makes the locale once
/// and each text's string once, when it is appended.
///
/// Guarantees: every string it makes is released with the column, once.
package final class CollatedTexts {
    private let locale: UnsafeRawPointer
    /// Each text's string, by its place in the column, each place holding
    /// a reference of its own (a text appended again shares the string
    /// before it, retained again).
    private var strings: [UnsafeRawPointer] = []
    private static let options = UInt(TickCFCompareCaseInsensitive | TickCFCompareNonliteral)

    package init(locale: Locale = .current, capacity: Int = 0) {
        let identifier = Self.string(locale.identifier)
        defer { CFRelease(identifier) }
        self.locale = CFLocaleCreate(nil, identifier)!
        strings.reserveCapacity(capacity)
    }

    deinit {
        for string in strings { CFRelease(string) }
        CFRelease(locale)
    }

    package var count: Int { strings.count }

    /// Appends `utf8`; bytes that are not UTF-8 are read as
    /// `String(decoding:as:)` reads them.
    package func append(utf8: UnsafeBufferPointer<UInt8>) {
        let string =
            CFStringCreateWithBytes(nil, utf8.baseAddress, utf8.count, UInt32(TickCFStringEncodingUTF8), 0)
            ?? Self.string(String(decoding: utf8, as: UTF8.self))
        strings.append(string)
    }

    /// Appends `text`.
    package func append(_ text: String) {
        strings.append(Self.string(text))
    }

    /// Appends the text appended last again, sharing its string (a list's
    /// name, for each of its items).
    package func appendLastAgain() {
        strings.append(CFRetain(strings.last!)!)
    }

    /// Negative, zero or positive as the text at `left` sorts before, with
    /// or after the one at `right`.
    package func compare(_ left: Int, _ right: Int) -> Int {
        let (left, right) = (strings[left], strings[right])
        let range = TickCFRange(location: 0, length: CFStringGetLength(left))
        return CFStringCompareWithOptionsAndLocale(left, right, range, Self.options, locale)
    }

    /// A new string of `text` (UTF-8, which a `String` always is).
    private static func string(_ text: String) -> UnsafeRawPointer {
        var text = text
        return text.withUTF8 { CFStringCreateWithBytes(nil, $0.baseAddress, $0.count, UInt32(TickCFStringEncodingUTF8), 0)! }
    }
}
