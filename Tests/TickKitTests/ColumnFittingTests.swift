import Foundation
import Testing

@testable import tick

/// Listings fitted to the terminal width (issue 14.2): counts are never cut,
/// the title keeps the most room, long list names and paths give way before
/// titles, and no line is wider than the terminal.
@Suite struct ColumnFittingTests {
    static let widths = [60, 80, 100, 120, 200]
    static let longName = "A very long list name that goes on and on for testing purposes"
    static let longPath = "some/deeply/nested/folder/a-very-long-list-file-name-for-testing-widths.md"
    static let longTitle = "Call the plumber about the leaking kitchen sink and the bathroom tap before the weekend"

    static func fixture() throws -> NotesFixture {
        try NotesFixture([
            longPath: """
            ---
            title: \(longName)
            ---
            - [ ] \(longTitle) due:2026-11-21 #home #urgent-repairs #plumbing
            - [ ] Short one due:2026-11-20 #x

            """,
            "b.md": "- [ ] Buy milk due:2026-11-21\n- [x] Done thing\n",
        ])
    }

    static func run(_ notes: NotesFixture, _ command: [String], width: Int) throws -> [String] {
        let result = try TickProcess.run(
            command + ["--dir", notes.root.path, "--today", "2026-11-21"],
            environment: ["COLUMNS": String(width)])
        #expect(result.status == 0, "\(command): \(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        for line in lines {
            #expect(DisplayWidth.of(line) <= width, "tick \(command) at \(width) columns: \(line.debugDescription) is too wide")
        }
        return lines
    }

    /// A row's cells: the columns are separated by two spaces or more.
    static func cells(_ line: String) -> [String] {
        line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test("tick lists keeps both counts whole and shortens the name and the path, a path from its start")
    func listsKeepCounts() throws {
        let notes = try Self.fixture()
        for width in Self.widths {
            let lines = try Self.run(notes, ["lists"], width: width)
            let long = try #require(lines.first { $0.contains("2 open") }, "at \(width): \(lines)")
            #expect(long.contains("2 open  0 done  "), "at \(width): \(long)")
            #expect(lines.contains { $0.contains("1 open  1 done  b.md") }, "at \(width): \(lines)")
            let path = String(long[long.range(of: "0 done  ")!.upperBound...])
            #expect(path.hasSuffix("widths.md") && (path == Self.longPath || path.hasPrefix("…")), "at \(width): \(path)")
            if width >= 200 { #expect(long.contains(Self.longName) && path == Self.longPath) }
        }
    }

    @Test("the home screen keeps every list's open count, shortening long names")
    func homeKeepsCounts() throws {
        let notes = try Self.fixture()
        for width in [30, 40] + Self.widths {
            let lines = try Self.run(notes, [], width: width)
            #expect(lines.contains { $0.hasPrefix("•  A very") && $0.hasSuffix("  2") }, "at \(width): \(lines)")
            #expect(lines.contains { $0.hasPrefix("•  b") && $0.hasSuffix("  1") }, "at \(width): \(lines)")
        }
    }

    @Test("today keeps the most room for the title: the list name and the tags are shortened before it")
    func titleKeepsTheMostRoom() throws {
        let notes = try Self.fixture()
        for width in Self.widths {
            let lines = try Self.run(notes, ["today"], width: width)
            let row = try #require(lines.first { $0.contains("Call the plumber") }, "at \(width): \(lines)")
            let cells = Self.cells(row)
            let title = String(cells[0].dropFirst(2)) // after the box
            #expect(cells[1] == "today", "at \(width): \(row)")
            let others = cells.dropFirst(2)
            if title != Self.longTitle {
                // The title is cut: everything beside it is cut at least as far.
                #expect(title.hasSuffix("…"), "at \(width): \(row)")
                for cell in others {
                    #expect(DisplayWidth.of(cell) < DisplayWidth.of(title), "at \(width): \(cell) beside \(title)")
                }
                #expect(!others.contains(Self.longName), "at \(width): the list name is whole beside a cut title: \(row)")
            }
            if width >= 100 { #expect(DisplayWidth.of(title) > 50, "at \(width): \(row)") }
            if width >= 200 { #expect(title == Self.longTitle) }
        }
    }
}
