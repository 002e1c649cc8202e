import Foundation
import Testing

@testable import TickEngine

/// `TextPattern` reads ASCII text in place, and answers as Foundation's
/// case- and diacritic-insensitive search and comparison do.
@Suite struct TextPatternTests {
    /// Texts and values of a few letters in both cases, digits, spaces and
    /// punctuation (so that matches are frequent), pseudo-randomly drawn.
    static func randomTexts(count: Int, seed: UInt64, length: ClosedRange<Int>) -> [String] {
        let alphabet = Array("aAbBzZ09 -/_[]`^~@\\")
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        return (0..<count).map { _ in
            let size = length.lowerBound + next() % (length.count)
            return String((0..<size).map { _ in alphabet[next() % alphabet.count] })
        }
    }

    static func foundationFinds(_ value: String, in text: String) -> Bool {
        text.range(of: value, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }

    static func foundationEquals(_ value: String, _ text: String) -> Bool {
        text.compare(value, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame
    }

    static func bytes<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        Array(text.utf8).withUnsafeBufferPointer(body)
    }

    @Test func asciiValuesInAsciiTextsAnswerAsFoundationDoes() throws {
        let values = Self.randomTexts(count: 60, seed: 7, length: 1...3)
        let texts = Self.randomTexts(count: 300, seed: 11, length: 0...12)
        var found = 0
        var equal = 0
        for value in values {
            let pattern = try TextPattern(value)
            for text in texts + [value, value.uppercased(), value.lowercased()] {
                let finds = Self.foundationFinds(value, in: text)
                let equals = Self.foundationEquals(value, text)
                found += finds ? 1 : 0
                equal += equals ? 1 : 0
                #expect(Self.bytes(text) { pattern.isFound(inUTF8: $0) } == finds, "'\(value)' in '\(text)'")
                #expect(pattern.isFound(in: text) == finds, "'\(value)' in '\(text)'")
                #expect(Self.bytes(text) { pattern.isEqual(toUTF8: $0) } == equals, "'\(value)' = '\(text)'")
                #expect(pattern.isEqual(to: text) == equals, "'\(value)' = '\(text)'")
            }
        }
        // The draw is dense enough to test both answers many times.
        #expect(found > 1_000)
        #expect(equal > 100)
    }

    @Test func textsOrValuesBeyondAsciiAnswerAsFoundationDoes() throws {
        let pairs: [(value: String, text: String)] = [
            ("cafe", "Café au lait"), ("CAFÉ", "cafe"), ("café", "CAFE"), ("uber", "Über"), ("strasse", "Straße"),
            ("e", "ÉÈÊ"), ("milk", "Buy milk 🥛"), ("milk", "Buy mi\u{301}lk"), ("ik", "mi\u{301}k"), ("k", "mi\u{301}k"),
            ("a", "\u{301}a"), ("milk", "\r\nmilk\r\n"), ("ß", "SS"), ("ﬁ", "fi"),
        ]
        for (value, text) in pairs {
            let pattern = try TextPattern(value)
            let finds = Self.foundationFinds(value, in: text)
            let equals = Self.foundationEquals(value, text)
            #expect(Self.bytes(text) { pattern.isFound(inUTF8: $0) } == finds, "'\(value)' in '\(text)'")
            #expect(Self.bytes(text) { pattern.isEqual(toUTF8: $0) } == equals, "'\(value)' = '\(text)'")
        }
        // What the search is for: a value without accents finds the word with them.
        #expect(Self.bytes("Café au lait") { try! TextPattern("CAFE").isFound(inUTF8: $0) })
        #expect(Self.bytes("Über") { try! TextPattern("uber").isEqual(toUTF8: $0) })
    }

    @Test func anEmptyValueIsFoundNowhereAndEqualsOnlyEmptyText() throws {
        let pattern = try TextPattern("")
        for text in ["", "a", "milk"] {
            #expect(Self.bytes(text) { pattern.isFound(inUTF8: $0) } == Self.foundationFinds("", in: text))
            #expect(Self.bytes(text) { pattern.isEqual(toUTF8: $0) } == Self.foundationEquals("", text))
        }
    }

    @Test func aSubTagIsTheValueThenASlashInAnyCase() throws {
        let work = try TextPattern("Work")
        let answers: [(tag: String, isChild: Bool)] = [
            ("work/finance", true), ("WORK/x", true), ("work/", true), ("work", false),
            ("workshop/x", false), ("wor/k", false), ("Wörk/x", false), ("work/fïnance", true),
        ]
        for (tag, isChild) in answers {
            #expect(Self.bytes(tag) { work.isParentTag(ofUTF8: $0) } == isChild, "\(tag)")
        }
        let regex = try TextPattern("/work/")
        #expect(!Self.bytes("work/finance") { regex.isParentTag(ofUTF8: $0) })
    }
}
