import Foundation

@testable import TickModel
@testable import TickSyntax

/// Where the test fixtures live (beside this file's folder).
enum TestPaths {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = testsFolder.appendingPathComponent("Fixtures")
    static let packageRoot = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
    static let examples = packageRoot.appendingPathComponent("examples")

    /// The names (without `.md`) of the fixtures in `Fixtures/<folder>`.
    static func fixtureNames(in folder: String) -> [String] {
        let url = fixtures.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.map { String($0.dropLast(3)) }.sorted()
    }

    /// Every Markdown file the tests know: parser fixtures and examples.
    static func allMarkdownFiles() -> [URL] {
        var urls: [URL] = []
        for base in [fixtures, examples] {
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where url.pathExtension == "md" { urls.append(url) }
        }
        return urls.sorted { $0.path < $1.path }
    }
}

extension Document {
    /// The file's text in `range`.
    func slice(_ range: Range<Int>) -> String { source.string(range) }
}

/// Parses Markdown text written in a test.
func parse(_ text: String, path: String = "test.md") -> Document {
    DocumentParser.parse(Array(text.utf8), path: path)
}

/// Parses raw bytes written in a test.
func parse(bytes: [UInt8], path: String = "test.md") -> Document {
    DocumentParser.parse(bytes, path: path)
}

/// A JSON value as Foundation objects, for comparison with expectation files.
func foundationObject(_ value: JSONValue) -> Any {
    let data = Data(value.serialized().utf8)
    return try! JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
}

/// True when two Foundation JSON objects are equal.
func jsonEqual(_ lhs: Any, _ rhs: Any) -> Bool {
    NSDictionary(dictionary: ["value": lhs]).isEqual(to: ["value": rhs])
}
