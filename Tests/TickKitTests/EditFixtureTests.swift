import Foundation
import Testing

@testable import TickEdit
@testable import TickModel
@testable import TickSyntax

/// Before/after fixtures for every change command and every preservation
/// rule of SPEC §5: each `NAME.before.md` under Fixtures/edit, edited as the
/// table below says, must give `NAME.after.md` byte for byte.
@Suite struct EditFixtureTests {
    static let today = TaskDate(year: 2026, month: 11, day: 21)

    enum Intent: Sendable {
        case status(line: Int, StatusEdit.Intent)
        case edit([(line: Int, changes: [TokenEdit.Change])])
        case add(String, InsertItem.Placement, due: TaskDate? = nil, priority: Priority? = nil)
        case addUnder(line: Int, String)
        case move(line: Int, InsertItem.Placement)
        case remove(lines: [Int])
        case sort([SortKey])
        case archive
    }

    static func day(_ month: Int, _ day: Int) -> TaskDate { TaskDate(year: 2026, month: month, day: day) }

    static let cases: [(String, Intent)] = [
        ("done-tick", .status(line: 3, .done(date: today))),
        ("done-emoji", .status(line: 1, .done(date: today))),
        ("done-dataview", .status(line: 1, .done(date: today))),
        ("done-block-id", .status(line: 1, .done(date: today))),
        ("done-crlf", .status(line: 4, .done(date: today))),
        ("done-bom", .status(line: 1, .done(date: today))),
        ("done-no-final-newline", .status(line: 2, .done(date: today))),
        ("done-trailing-spaces", .status(line: 1, .done(date: today))),
        ("done-in-progress-plus", .status(line: 1, .done(date: today))),
        ("done-no-date", .status(line: 1, .done(date: nil))),
        ("done-recurring-month-end", .status(line: 1, .done(date: today))),
        ("done-recurring-leap-year", .status(line: 1, .done(date: today))),
        ("done-recurring-emoji-quote", .status(line: 3, .done(date: today))),
        ("done-recurring-dataview", .status(line: 1, .done(date: today))),
        ("reopen-done", .status(line: 1, .reopen)),
        ("reopen-cancelled", .status(line: 1, .reopen)),
        ("cancel-removes-done", .status(line: 1, .cancel(date: today))),
        ("edit-due-replace-value", .edit([(1, [.setDate(.due, day(11, 27))])])),
        ("edit-due-add-before-id", .edit([(1, [.setDate(.due, day(11, 27))])])),
        ("edit-no-due-takes-one-space", .edit([(1, [.remove(.due)])])),
        ("edit-no-due-leading-token", .edit([(1, [.remove(.due)])])),
        ("edit-priority-emoji", .edit([(1, [.setPriority(.urgent)]), (2, [.setPriority(.lowest)])])),
        ("edit-priority-dataview", .edit([(1, [.setPriority(.urgent)])])),
        ("edit-tags-and-color", .edit([(1, [.removeTag("later"), .addTag("team"), .setText(.color, "red")])])),
        ("edit-title-keeps-tokens", .edit([(1, [.replaceText("Buy oat milk")])])),
        ("edit-emoji-due-in-quote", .edit([(1, [.setDate(.due, day(12, 1))])])),
        ("add-star-bullet", .add("Three", .endOfList, due: day(11, 22))),
        ("add-ordered-paren", .add("Clean up", .section("next up"))),
        ("add-under-tabs", .addUnder(line: 1, "Child two")),
        ("add-under-no-children", .addUnder(line: 1, "First child")),
        ("add-empty-section", .add("New one", .section("Empty"))),
        ("add-new-section-no-final-newline", .add("New one", .section("Later"))),
        ("add-crlf-no-final-newline", .add("Three", .endOfList)),
        ("add-empty-list-after-heading", .add("First", .endOfList)),
        ("add-empty-file-bom", .add("First", .endOfList)),
        ("add-dialect-emoji", .add("Call the plumber", .endOfList, due: day(11, 23), priority: .high)),
        ("add-skips-quoted-items", .add("New", .endOfList)),
        ("add-only-quoted-items", .add("New", .endOfList)),
        ("mv-reindents-block", .move(line: 4, .section("Next up"))),
        ("mv-out-of-quote", .move(line: 5, .section("A"))),
        ("mv-crlf-tabs", .move(line: 2, .endOfList)),
        ("rm-with-subtasks", .remove(lines: [2])),
        ("rm-loose-item-takes-one-blank", .remove(lines: [4])),
        ("rm-last-no-final-newline", .remove(lines: [2])),
        ("rm-under-heading", .remove(lines: [2])),
        ("sort-priority-keeps-numbers", .sort([.priority])),
        ("sort-title-nested-crlf", .sort([.title])),
        ("sort-due-no-final-newline", .sort([.due])),
        ("sort-separate-lists", .sort([.title])),
        ("archive-creates-done", .archive),
        ("archive-existing-done-crlf", .archive),
    ]

    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "md", subdirectory: "Fixtures/edit"))
        return Array(try Data(contentsOf: url))
    }

    static func item(atLine line: Int, _ document: Document) throws -> TaskItem {
        try #require(document.items.first { $0.line == line }, "no item on line \(line)")
    }

    /// The splices an intent makes, all against the before file's bytes.
    static func splices(_ intent: Intent, _ document: Document) throws -> [Splice] {
        switch intent {
        case .status(let line, let status):
            return StatusEdit.splices(status, item: try item(atLine: line, document), in: document, today: today)
        case .edit(let edits):
            return try edits.flatMap { TokenEdit.splices($0.changes, item: try item(atLine: $0.line, document), in: document) }
        case .add(let text, let placement, let due, let priority):
            let title = InsertItem.title(text, due: due, priority: priority, dialect: EditStyle.dialect(of: document))
            return [InsertItem.add(title, to: document, at: placement).splice]
        case .addUnder(let line, let text):
            return [InsertItem.add(text, to: document, at: .under(try item(atLine: line, document).index)).splice]
        case .move(let line, let placement):
            return try #require(MoveItem.move(try item(atLine: line, document).index, in: document, to: placement)).splices
        case .remove(let lines):
            return RemoveItem.splices(try lines.map { try item(atLine: $0, document).index }, in: document)
        case .sort(let keys):
            return SortList.splices(document, by: keys, today: Fixture.today)
        case .archive:
            return try #require(Archive.splices(in: document)).splices
        }
    }

    @Test(arguments: cases.map(\.0))
    func fixtureGivesExactlyTheExpectedBytes(_ name: String) throws {
        let intent = try #require(Self.cases.first { $0.0 == name }?.1)
        let before = try Self.fixture(name + ".before")
        let expected = try Self.fixture(name + ".after")
        let document = DocumentParser.parse(before, path: name + ".md")
        let splices = try Self.splices(intent, document)
        let after = try Splice.apply(splices, to: before)
        #expect(String(decoding: after, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(after == expected)
        // The edit is a change: the fixture is not trivially equal.
        #expect(before != expected)
        // A second parse of the result still reads as a valid list.
        let reparsed = DocumentParser.parse(after, path: name + ".md")
        #expect(reparsed.isValidUTF8)
    }

    @Test func everyFixtureIsInTheTable() throws {
        let folder = try #require(Bundle.module.url(forResource: "edit", withExtension: nil, subdirectory: "Fixtures"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".before.md") }.map { String($0.dropLast(".before.md".count)) }
        #expect(Set(names) == Set(Self.cases.map(\.0)))
        #expect(names.count == Self.cases.count)
    }
}
