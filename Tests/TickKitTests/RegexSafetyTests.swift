import Foundation
import Testing

@testable import TickEngine

/// Regular expressions that could backtrack exponentially are refused with a
/// usage error; ordinary ones are accepted and match as before (issue 13.11).
@Suite struct RegexSafetyTests {
    @Test("the nested-quantifier query on 20 titles of a's ends quickly with a usage error")
    func pathologicalQueryFinishes() throws {
        let titles = (1...20).map { _ in "- [ ] " + String(repeating: "a", count: 34) + "b" }.joined(separator: "\n")
        let notes = try NotesFixture(["list.md": titles + "\n"])
        // Killed after 20 s, so a regression fails instead of hanging.
        let result = try TickProcess.run(
            ["query", "title ~ \"/(a+)+$/\"", "--dir", notes.root.path],
            wrapper: ["/usr/bin/timeout", "-s", "KILL", "20"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("tick: "))
        #expect(result.stderr.contains("exponential time"))
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "patterns with nested or ambiguous repetition, backreferences or lookarounds are refused",
        arguments: [
            "(a+)+", "(a*)*", "(a|aa)+", "(a|a)*", "(a|ab)*", "(.*a){20}", "(a?){25}a{25}", "((a+)b)+",
            "(?:a+)+", "(?<n>a+)*", "(\\w+\\s?)+$", "([a-z]+)*x", "(a+){2,}", "(a)\\1", "foo(?=bar)", "(?<!x)y",
            "(?x)(a+) +", "[]a](a+)+", "[\\Q[\\E](a+)+]",
        ])
    func dangerousPatternIsRefused(_ pattern: String) {
        #expect(throws: TextPattern.PatternError.self) { try TextPattern("/" + pattern + "/") }
        #expect(RegexSafety.problem(in: pattern) != nil)
    }

    @Test(
        "ordinary patterns are accepted and match as before",
        arguments: [
            ("/milk/i", "Buy MILK", true), ("/^buy\\s+\\w+/", "buy  bread", true), ("/^buy\\s+\\w+/", "to buy", false),
            ("/(ab)+c/", "xababc", true), ("/(ab)+c/", "xac", false), ("/[a-z]+@example/", "ana@example.org", true),
            ("/colou?r/", "colour", true), ("/colou?r/", "color", true), ("/colou?r/", "colr", false),
            ("/[(a+)+]x/", "+x", true), ("/\\Q(a+)+\\E/", "(a+)+", true), ("/(?i:ab)c/", "ABc", true),
        ])
    func ordinaryPatternMatches(_ value: String, _ text: String, _ found: Bool) throws {
        let pattern = try TextPattern(value)
        #expect(pattern.isFound(in: text) == found)
    }

    @Test("a refused pattern is reported with a caret under its column")
    func refusalPointsAtTheValue() {
        do {
            _ = try QueryParser.parse("open and title ~ \"/(a+)+$/\"", today: Fixture.today)
            Issue.record("expected a syntax error")
        } catch {
            // `parse` throws only QuerySyntaxError.
            #expect(error.message.contains("exponential time"))
            #expect(error.column == 18)
        }
    }
}
