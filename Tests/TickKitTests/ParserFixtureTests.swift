import Foundation
import Testing

@testable import TickEngine
@testable import TickOutput
@testable import TickStore
@testable import TickSyntax

/// Each fixture in Fixtures/parser is a small file for one rule of SPEC §2–§3,
/// with its expected list properties, items and diagnostics beside it.
@Suite("Parser fixtures")
struct ParserFixtureTests {
    static let names = TestPaths.fixtureNames(in: "parser")

    @Test("there are parser fixtures to check")
    func fixturesExist() {
        #expect(Self.names.count >= 20)
    }

    @Test("every fixture parses to its expected list, items and diagnostics", arguments: names)
    func fixtureMatchesExpectation(name: String) throws {
        let folder = TestPaths.fixtures.appendingPathComponent("parser")
        let bytes = try FileIO.read(folder.appendingPathComponent(name + ".md").path)
        let expectationData = try Data(contentsOf: folder.appendingPathComponent(name + ".expected.json"))
        let expected = try #require(try JSONSerialization.jsonObject(with: expectationData) as? [String: Any])
        let document = DocumentParser.parse(bytes, path: name + ".md")

        if let listName = expected["name"] as? String { #expect(document.name == listName, "list name") }
        if let color = expected["color"] as? String { #expect(document.color == color, "list color") }
        if let icon = expected["icon"] as? String { #expect(document.icon == icon, "list icon") }

        let expectedItems = try #require(expected["items"] as? [[String: Any]])
        let actualItems = readModel(document).items().map {
            foundationObject(ItemJSON.item($0, context: ItemContext(today: Fixture.today, dependencies: .none))) as! [String: Any]
        }
        #expect(
            actualItems.count == expectedItems.count,
            "item count: got lines \(document.items.map(\.line)), expected \(expectedItems.compactMap { $0["line"] })")
        for (expectedItem, actualItem) in zip(expectedItems, actualItems) {
            for (key, value) in expectedItem {
                let actual = actualItem[key] ?? NSNull()
                #expect(jsonEqual(actual, value), "line \(expectedItem["line"] ?? "?") key \(key): got \(actual), expected \(value)")
            }
        }

        if let expectedDiagnostics = expected["diagnostics"] as? [[String: Any]] {
            #expect(
                document.diagnostics.count == expectedDiagnostics.count,
                "diagnostics: \(document.diagnostics.map { "\($0.line): \($0.message)" })")
            for (want, got) in zip(expectedDiagnostics, document.diagnostics) {
                if let line = want["line"] as? Int { #expect(got.line == line, "diagnostic line") }
                if let fragment = want["message_contains"] as? String {
                    #expect(got.message.lowercased().contains(fragment), "diagnostic '\(got.message)' lacks '\(fragment)'")
                }
            }
        }
    }
}
