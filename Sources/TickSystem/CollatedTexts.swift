import CCoreFoundation
import Foundation

/// A column of texts, each compared with the others as
/// `String.compare(_:options: [.caseInsensitive], range: nil, locale:)`
/// compares them: case-insensitive, in the locale's order. Every pair gets
/// the same answer (a test compares the two on random text in several
/// locales), at a small part of the cost.
///
/// Foundation's `compare` makes a `CFLocale` from the `Locale`, and a Core
/// Foundation string of each text, at every call (nine tenths of a sort by
/// title), and then asks `CFStringCompareWithOptionsAndLocale`, its options
/// made non-literal (`String.CompareOptions._cfValue(true)`). This column
/// asks the same function with the same options, but makes the locale once.
///
/// Most pairs of texts are told apart before either has a character that
/// is not printable ASCII. In the locales whose collation leaves those
/// characters as the root collation orders them (`ordersASCIIAsRoot`:
/// English, German, French and others with no tailoring of the Latin
/// letters, and no collation keyword), such a pair is answered from the
/// texts' bytes: each printable ASCII character has a primary weight of its
/// own there, letters the same in either case, in `asciiRank`'s order, so
/// the first character that differs decides, and a text that ends first,
/// where the other goes on with such a character, comes first. The column
/// then keeps the texts' bytes, and a string only for each text with
/// another character: Core Foundation's strings of a million titles took
/// more than 100 MB. Two texts of the same bytes are equal. Any other pair
/// (equal so far but for case, or reaching another character) gets Core
/// Foundation's answer, a string made for the comparison for a text that
/// has none. In the other locales (`en_US_POSIX` among them: code points)
/// each text's string is made once, and every pair is Core Foundation's.
///
/// Guarantees: every string it makes is released, once.
package final class CollatedTexts {
    /// Texts gathered to be compared: their UTF-8 bytes one after
    /// another, each distinct text once, and where each one ends (it
    /// starts where the one before ends). Bytes that are not UTF-8 are
    /// read as `String(decoding:as:)` reads them.
    package struct Texts {
        fileprivate var bytes: [UInt8] = []
        /// Where each distinct text ends in `bytes` (32 bits: a million
        /// titles are sorted with these in memory).
        fileprivate var ends: [UInt32] = []
        /// For each text appended, the distinct text it is; empty until a
        /// text is appended again (each text is its own until then).
        fileprivate var distinct: [UInt32] = []
        /// How many texts the column expects.
        private let capacity: Int

        package init(capacity: Int = 0) { self.capacity = capacity }

        package var count: Int { distinct.isEmpty ? ends.count : distinct.count }

        package mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
            bytes.append(contentsOf: utf8)
            precondition(bytes.count <= UInt32.max, "more than 4 GB of texts to sort")
            ends.append(UInt32(bytes.count))
            if !distinct.isEmpty { distinct.append(UInt32(ends.count - 1)) }
        }

        package mutating func append(_ text: String) {
            var text = text
            text.withUTF8 { append(utf8: $0) }
        }

        /// Appends the text appended last again (a list's name, for each of its items).
        package mutating func appendLastAgain() {
            if distinct.isEmpty {
                distinct.reserveCapacity(max(capacity, ends.count + 1))
                distinct.append(contentsOf: 0..<UInt32(ends.count))
            }
            distinct.append(distinct.last!)
        }

        /// The distinct text that text `place` is.
        fileprivate func distinctText(_ place: Int) -> Int { distinct.isEmpty ? place : Int(distinct[place]) }

        /// `body` given the bytes of text `place`.
        package func withText<Result>(_ place: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range(distinctText(place))])) }
        }

        /// Where distinct text `text` lies in `bytes`.
        fileprivate func range(_ text: Int) -> Range<Int> { (text == 0 ? 0 : Int(ends[text - 1]))..<Int(ends[text]) }
    }

    private let locale: UnsafeRawPointer
    /// Whether pairs are answered from bytes where `asciiRank` can.
    package let comparesASCIIInPlace: Bool
    /// The texts (when not `comparesASCIIInPlace`, only which distinct
    /// text each one is).
    private let texts: Texts
    /// Each distinct text's string; when `comparesASCIIInPlace`, only
    /// those of texts with a character that is not printable ASCII (none
    /// at all when every text is printable ASCII).
    private let strings: [UnsafeRawPointer?]
    private static let options = UInt(TickCFCompareCaseInsensitive | TickCFCompareNonliteral)

    /// The languages whose collation orders printable ASCII as the root
    /// collation does (checked against Core Foundation by a test, with the
    /// locales that do not: Danish `aa`, Lithuanian `y`, Czech `ch`,
    /// Turkish `i`, Welsh, Hungarian and Estonian all tailor them).
    private static let asciiAsRootLanguages: Set<String> = ["en", "de", "fr", "es", "it", "pt", "nl", "ja", "zh", "ru", "ko"]

    /// Whether `locale` orders printable ASCII as the root collation does.
    package static func ordersASCIIAsRoot(_ locale: Locale) -> Bool {
        let identifier = locale.identifier
        // A collation keyword (`@collation=phonebook`, `-u-co-trad`), or
        // POSIX's order (code points: `B` before `a`).
        guard !identifier.contains("@"), !identifier.contains("-u-"), !identifier.uppercased().contains("POSIX") else { return false }
        let language = identifier.prefix { $0 != "_" && $0 != "-" }.lowercased()
        return language.isEmpty || language == "root" || asciiAsRootLanguages.contains(language)
    }

    /// For each byte, its place in the root collation's order of the
    /// printable ASCII characters (space, punctuation and symbols, digits,
    /// then letters, each letter's two cases one place), counted from 1;
    /// 0 for every other byte (controls, DEL, and the bytes of every other
    /// character).
    private static let asciiRank: [UInt8] = {
        let order = Array(" _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz".utf8)
        var rank = [UInt8](repeating: 0, count: 256)
        for (place, byte) in order.enumerated() {
            rank[Int(byte)] = UInt8(place + 1)
            if byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") { rank[Int(byte - 0x20)] = UInt8(place + 1) }
        }
        return rank
    }()

    /// The column of `texts`, to compare in `locale`'s order. (Everything
    /// it holds is set here: comparisons on several threads at once read
    /// it without reference counting.)
    package init(_ texts: Texts, locale: Locale = .current) {
        let identifier = Self.string(locale.identifier)
        defer { CFRelease(identifier) }
        self.locale = CFLocaleCreate(nil, identifier)!
        comparesASCIIInPlace = Self.ordersASCIIAsRoot(locale)
        count = texts.count
        let inPlace = comparesASCIIInPlace
        strings = texts.bytes.withUnsafeBufferPointer { bytes in
            // In place, only a text with another character may reach Core
            // Foundation but for a text equal to another but for case: those
            // get their strings once (titles in Japanese or Russian would
            // otherwise get two strings made for every comparison).
            // (None at all while every text is printable ASCII.)
            var strings: [UnsafeRawPointer?]? = nil
            for text in texts.ends.indices {
                let utf8 = UnsafeBufferPointer(rebasing: bytes[texts.range(text)])
                let needsString = !inPlace || !Self.isPrintableASCII(utf8)
                if needsString, strings == nil { strings = Array(repeating: nil, count: text) }
                strings?.append(needsString ? Self.string(utf8: utf8) : nil)
            }
            return strings ?? []
        }
        if comparesASCIIInPlace {
            self.texts = texts
        } else {
            // Only which distinct text each one is, to compare their strings.
            var kept = texts
            (kept.bytes, kept.ends) = ([], [])
            self.texts = kept
        }
    }

    deinit {
        for case let string? in strings { CFRelease(string) }
        CFRelease(locale)
    }

    private static func isPrintableASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        asciiRank.withUnsafeBufferPointer { rank in text.allSatisfy { rank[Int($0)] != 0 } }
    }

    /// The number of texts.
    package let count: Int

    /// Negative, zero or positive as the text at `left` sorts before, with
    /// or after the one at `right`. (Reads only what the column holds, and
    /// makes strings of its own: it may run on several threads at once.)
    package func compare(_ left: Int, _ right: Int) -> Int {
        let (left, right) = (texts.distinctText(left), texts.distinctText(right))
        if left == right { return 0 }
        guard comparesASCIIInPlace else { return Self.compare(strings[left]!, strings[right]!, locale: locale) }
        return texts.bytes.withUnsafeBufferPointer { bytes in
            compare(
                UnsafeBufferPointer(rebasing: bytes[texts.range(left)]), UnsafeBufferPointer(rebasing: bytes[texts.range(right)]),
                strings: strings.isEmpty ? (nil, nil) : (strings[left], strings[right]))
        }
    }

    /// Negative, zero or positive as the text `left` sorts before, with or
    /// after the text `right`, as `compare(_:_:)` orders the column's own
    /// texts (for texts outside it: a sort in pieces merges its pieces
    /// with it).
    package func compare(utf8 left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        compare(left, right, strings: (nil, nil))
    }

    /// The order of `left` and `right`, whose strings are given when the
    /// column keeps them.
    private func compare(
        _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>, strings kept: (UnsafeRawPointer?, UnsafeRawPointer?)
    ) -> Int {
        if comparesASCIIInPlace {
            if let order = Self.asciiOrder(left, right) { return order }
            // The same bytes are the same text (two items of one title).
            if left.count == right.count, left.elementsEqual(right) { return 0 }
        }
        // A text with no string kept gets one for this comparison.
        let (leftString, rightString) = (kept.0 ?? Self.string(utf8: left), kept.1 ?? Self.string(utf8: right))
        defer {
            if kept.0 == nil { CFRelease(leftString) }
            if kept.1 == nil { CFRelease(rightString) }
        }
        return Self.compare(leftString, rightString, locale: locale)
    }

    /// The order of two texts told apart by printable ASCII (see the
    /// type's comment), nil when they are not.
    private static func asciiOrder(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int? {
        asciiRank.withUnsafeBufferPointer { rank in
            // Eight bytes at a time while they are the same printable ASCII
            // (titles often share a word or two), then byte by byte.
            var index = 0
            let shorter = min(left.count, right.count)
            if let leftBase = left.baseAddress, let rightBase = right.baseAddress {
                while index + 8 <= shorter {
                    let word = UnsafeRawPointer(leftBase + index).loadUnaligned(as: UInt64.self)
                    // Any byte below 0x20, or above 0x7E (high bit set too).
                    let unprintable = WordBytes.below(0x20, word) | WordBytes.above(0x7E, word)
                    guard word == UnsafeRawPointer(rightBase + index).loadUnaligned(as: UInt64.self), unprintable == 0 else { break }
                    index += 8
                }
            }
            while index < left.count, index < right.count {
                let (leftRank, rightRank) = (rank[Int(left[index])], rank[Int(right[index])])
                if leftRank == 0 || rightRank == 0 { return nil }
                if leftRank != rightRank { return leftRank < rightRank ? -1 : 1 }
                index += 1
            }
            if index == left.count, index < right.count, rank[Int(right[index])] != 0 { return -1 }
            if index == right.count, index < left.count, rank[Int(left[index])] != 0 { return 1 }
            return nil
        }
    }

    private static func compare(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer, locale: UnsafeRawPointer) -> Int {
        let range = TickCFRange(location: 0, length: CFStringGetLength(left))
        return CFStringCompareWithOptionsAndLocale(left, right, range, options, locale)
    }

    /// A new string of `utf8`, read as `String(decoding:as:)` reads it.
    private static func string(utf8: UnsafeBufferPointer<UInt8>) -> UnsafeRawPointer {
        CFStringCreateWithBytes(nil, utf8.baseAddress, utf8.count, UInt32(TickCFStringEncodingUTF8), 0)
            ?? string(String(decoding: utf8, as: UTF8.self))
    }

    /// A new string of `text` (UTF-8, which a `String` always is).
    private static func string(_ text: String) -> UnsafeRawPointer {
        var text = text
        return text.withUTF8 { CFStringCreateWithBytes(nil, $0.baseAddress, $0.count, UInt32(TickCFStringEncodingUTF8), 0)! }
    }
}
