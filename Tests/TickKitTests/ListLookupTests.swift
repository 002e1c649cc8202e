import Testing
import TickEngine
import TickModel

/// `ListLookup`: a list named by path, path without extension, file name or
/// name, case-insensitively; the bytes it compares in place give the
/// answers the `String` comparisons give.
@Suite struct ListLookupTests {
    /// A list as the lookup reads it: a path and a name, no items.
    struct NamedList: LookupList, CustomStringConvertible {
        var path: String
        var name: String
        var itemCount: Int { 0 }
        func line(of item: Int) -> Int { 0 }
        func title(of item: Int) -> String { "" }
        func id(of item: Int) -> String? { nil }
        func isOpen(_ item: Int) -> Bool { false }
        var description: String { "\(path) (\(name))" }
    }

    /// The lookup as `String`s make it, form by form (what `ListLookup`
    /// promises): the reference the fast one is checked against.
    static func reference(_ name: String, in lists: [NamedList]) -> Result<Int, ListLookup.Failure> {
        let wanted = name.lowercased()
        func stripped(_ path: String) -> String {
            if path.hasSuffix(".markdown") { return String(path.dropLast(9)) }
            if path.hasSuffix(".md") { return String(path.dropLast(3)) }
            return path
        }
        let tests: [(NamedList) -> Bool] = [
            { $0.path.lowercased() == wanted },
            { stripped($0.path).lowercased() == wanted },
            { stripped($0.path.split(separator: "/").last.map(String.init) ?? "").lowercased() == wanted },
            { $0.name.lowercased() == wanted },
        ]
        for test in tests {
            let matches = lists.indices.filter { test(lists[$0]) }
            if matches.count == 1 { return .success(matches[0]) }
            if matches.count > 1 { return .failure(.ambiguous(name, candidates: matches.map { lists[$0].path })) }
        }
        let near = lists.filter { $0.path.lowercased().contains(wanted) || $0.name.lowercased().contains(wanted) }
        return .failure(.unknown(name, candidates: (near.isEmpty ? lists : near).map(\.path)))
    }

    static func resolved(_ name: String, in lists: [NamedList]) -> Result<Int, ListLookup.Failure> {
        do throws(ListLookup.Failure) {
            return .success(try ListLookup.resolve(name, in: lists))
        } catch {
            return .failure(error)
        }
    }

    static let lists = [
        NamedList(path: "groceries.md", name: "Groceries"),
        NamedList(path: "work/Projects.markdown", name: "Projects"),
        NamedList(path: "work/projects.md", name: "Work projects"),
        NamedList(path: "home/Café.md", name: "Café list"),
        NamedList(path: "home/cafe\u{301}s.md", name: "Cafés"),
        NamedList(path: "archive/2025/groceries.md", name: "Old groceries"),
        NamedList(path: "notes/README", name: "Read me"),
        NamedList(path: "ΣΟΦΙΑ.md", name: "Σοφία"),
        NamedList(path: "kelvin/\u{212A}elvin.md", name: "\u{212A}elvin"),
        NamedList(path: "md.md", name: ".md"),
        NamedList(path: "deep/a/b/c/Inbox.md", name: "INBOX"),
        NamedList(path: "marks/;.md", name: "semicolon"),
    ]

    @Test(
        "each form finds a list as the String comparisons do",
        arguments: [
            "groceries", "GROCERIES.MD", "groceries.md", "archive/2025/groceries", "Old Groceries",
            "projects", "work/projects", "work/projects.markdown", "WORK/PROJECTS.MD", "Work Projects",
            "café", "CAFÉ", "cafe\u{301}s", "Cafés", "home/café", "σοφια", "ΣΟΦΊΑ", "σοφία", "kelvin", "KELVIN",
            "\u{212A}elvin", "readme", "notes/readme", "read me", "md", ".md", "inbox", "deep/a/b/c/inbox",
            "", "/", "nothing here", "oc", "ROCER", "é", "\u{037E}", "marks/\u{037E}", ";",
        ])
    func formsAgreeWithStringComparisons(name: String) {
        #expect(Self.resolved(name, in: Self.lists) == Self.reference(name, in: Self.lists))
    }

    @Test("a name two lists share is ambiguous; a path still names one")
    func sharedNamesAreAmbiguous() {
        #expect(Self.resolved("groceries", in: Self.lists) == .success(0))
        #expect(
            Self.resolved("projects", in: Self.lists) == .failure(.ambiguous("projects", candidates: ["work/Projects.markdown", "work/projects.md"])))
        #expect(Self.resolved("work/projects.md", in: Self.lists) == .success(2))
        // U+037E, the Greek question mark, is canonically `;`: as String compares.
        #expect(Self.resolved("\u{037E}", in: Self.lists) == .success(11))
    }

    @Test("random paths and names resolve as the String comparisons do")
    func randomListsAgreeWithStringComparisons() {
        // Parts that make paths and names collide in every form, with cases,
        // extensions, slashes and non-ASCII letters that lowercase to ASCII.
        let parts = ["a", "A", "b", "/", "//", ".md", ".MD", ".markdown", "é", "e\u{301}", "\u{212A}", "k", "Σ", " ", ";", "\u{037E}"]
        var generator = SystemRandomNumberGenerator()
        func text() -> String { (0..<Int.random(in: 0...4, using: &generator)).map { _ in parts.randomElement(using: &generator)! }.joined() }
        for _ in 0..<300 {
            let lists = (0..<Int.random(in: 0...6, using: &generator)).map { _ in NamedList(path: text(), name: text()) }
            let name = Bool.random(using: &generator) ? text() : (lists.randomElement(using: &generator)?.path ?? text()).uppercased()
            #expect(Self.resolved(name, in: lists) == Self.reference(name, in: lists), "\(name) in \(lists)")
        }
    }
}
