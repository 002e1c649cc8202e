import Foundation
import PropertyBased
import Testing

@testable import TickEdit
@testable import TickModel
@testable import TickSyntax

/// Random edits on random documents: every byte outside the splices stays
/// as it was, and parsing the result shows exactly the intended change.
@Suite struct EditPropertyTests {
    static let today = TaskDate(year: 2026, month: 11, day: 21)

    // MARK: Documents

    /// Builds a document from numbers: the first chooses line endings, a
    /// byte-order mark, a final line ending and the dialect; each other one
    /// chooses a line (an item at some depth, a heading, a note, a paragraph,
    /// a blank line, a quoted item) and its details.
    struct Plan: CustomStringConvertible {
        var bytes: [UInt8]
        var description: String { String(decoding: bytes, as: UTF8.self).debugDescription }

        init(_ numbers: [Int]) {
            var random = SplitMix(seed: UInt64(truncatingIfNeeded: numbers.first ?? 0))
            let ending = random.next(3) == 0 ? "\r\n" : "\n"
            let bom = random.next(5) == 0
            let finalEnding = random.next(4) != 0
            let dialect = [MetadataDialect.tick, .emoji, .dataview][random.next(3)]
            var lines: [String] = []
            // Content columns of the open items, innermost last, with their marker kinds.
            var stack: [(column: Int, marker: String)] = []
            var counter = 0
            for number in numbers.dropFirst() {
                var r = SplitMix(seed: UInt64(truncatingIfNeeded: number) &+ 0x9E37)
                counter += 1
                switch r.next(12) {
                case 0...5:
                    let depth = min(r.next(3), stack.count)
                    stack.removeLast(stack.count - depth)
                    let indent = stack.last?.column ?? 0
                    let markers = ["-", "*", "+", "1.", "1)"]
                    // Siblings mostly share a marker kind.
                    let marker = r.next(4) == 0 ? markers[r.next(markers.count)] : (stack.count == depth ? markers[depth % 3] : markers[0])
                    let box = ["[ ]", "[ ]", "[x]", "[X]", "[-]", "[/]"][r.next(6)]
                    let title = Self.title(&r, dialect: dialect, number: counter)
                    let trailing = r.next(6) == 0 ? "  " : ""
                    lines.append(String(repeating: " ", count: indent) + marker + " " + box + " " + title + trailing)
                    stack.append((indent + marker.count + 1, marker))
                case 6:
                    stack.removeAll()
                    lines.append("## Section \(r.next(4))")
                case 7:
                    lines.append(r.next(3) == 0 ? "  " : "")
                case 8:
                    if let top = stack.last {
                        lines.append(String(repeating: " ", count: top.column) + "Note \(counter) with *style*")
                    } else {
                        lines.append("Plain paragraph \(counter).")
                    }
                case 9:
                    stack.removeAll()
                    lines.append("")
                    lines.append("Paragraph \(counter) about `code`.")
                    lines.append("")
                case 10:
                    stack.removeAll()
                    lines.append("")
                    lines.append("> - [ ] Quoted \(counter) " + Self.token(&r, dialect: dialect))
                    lines.append("")
                default:
                    if let top = stack.last {
                        lines.append(String(repeating: " ", count: top.column) + "- plain bullet \(counter)")
                    } else {
                        lines.append("# Title \(counter)")
                    }
                }
            }
            var text = lines.joined(separator: ending)
            if finalEnding && !lines.isEmpty { text += ending }
            bytes = (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
        }

        static func title(_ r: inout SplitMix, dialect: MetadataDialect, number: Int) -> String {
            let words = ["Buy", "**milk**", "call", "*Ana*", "the", "`code`", "[link](https://x.y)", "café", "🛒", "plan", "~~old~~"]
            var parts = (0..<(1 + r.next(4))).map { _ in words[r.next(words.count)] }
            parts.append("n\(number)")
            for _ in 0..<r.next(4) {
                let token = token(&r, dialect: dialect)
                // An emoji rule runs over the plain words after it (🔁 every day n5),
                // so, as Obsidian Tasks writes it, it goes after the text.
                parts.insert(token, at: token.hasPrefix("🔁") ? parts.count : r.next(parts.count + 1))
            }
            if r.next(5) == 0 { parts.append("^id\(number)") }
            return parts.joined(separator: r.next(8) == 0 ? "  " : " ")
        }

        static func token(_ r: inout SplitMix, dialect: MetadataDialect) -> String {
            let date = TaskDate(year: 2026, month: 1 + r.next(12), day: 1 + r.next(28))
            switch r.next(5) {
            case 0: return TokenFormat.date(.due, date, dialect: dialect)
            case 1: return TokenFormat.priority([.low, .high, .urgent, .lowest, .medium][r.next(5)], dialect: dialect) ?? "#x"
            case 2: return "#tag\(r.next(3))"
            case 3: return TokenFormat.date(.done, date, dialect: dialect)
            default: return TokenFormat.text(.recurrence, ["week", "month", "2w", "day"][r.next(4)], dialect: dialect)
            }
        }
    }

    /// A small deterministic random source.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Int(z % UInt64(max(bound, 1)))
        }
    }

    // MARK: Checks

    /// Applies the splices by hand (independently of `Splice.apply`) and
    /// checks that every byte outside them is where it was.
    static func checkOutsideBytesUnchanged(_ before: [UInt8], _ splices: [Splice], _ after: [UInt8]) {
        let sorted = splices.sorted { ($0.range.lowerBound, $0.range.isEmpty ? 0 : 1) < ($1.range.lowerBound, $1.range.isEmpty ? 0 : 1) }
        var cursorBefore = 0
        var cursorAfter = 0
        for splice in sorted {
            let gap = before[cursorBefore..<splice.range.lowerBound]
            #expect(Array(after[cursorAfter..<min(after.count, cursorAfter + gap.count)]) == Array(gap))
            cursorAfter += gap.count
            #expect(Array(after[cursorAfter..<min(after.count, cursorAfter + splice.replacement.count)]) == splice.replacement)
            cursorAfter += splice.replacement.count
            cursorBefore = splice.range.upperBound
        }
        #expect(Array(after[min(cursorAfter, after.count)...]) == Array(before[cursorBefore...]))
    }

    struct Snapshot: Equatable, CustomStringConvertible {
        var status: TaskStatus
        var text: String
        var depth: Int
        var notes: String?
        var description: String { "\(status) \(text) d\(depth)" }
        init(_ item: TaskItem) {
            status = item.status
            text = item.text
            depth = item.depth
            notes = item.notes
        }
    }

    static let editKinds = 13

    @Test func randomEditsChangeOnlyTheirBytesAndExactlyTheirItem() async {
        await propertyCheck(count: 1000, input: Gen.int(in: 0...Int(Int32.max)).array(of: 1...24), Gen.int(in: 0...Int(Int32.max))) {
            numbers, choice in
            let before = Plan(numbers).bytes
            let document = DocumentParser.parse(before, path: "list.md")
            Self.check(document, choice: choice)
        }
    }

    static func check(_ document: Document, choice: Int) {
        let before = document.source.bytes
        var r = SplitMix(seed: UInt64(choice))
        let kind = r.next(editKinds)
        guard !document.items.isEmpty || kind == 9 else { return }
        let target = document.items.isEmpty ? nil : document.items[r.next(document.items.count)]
        let date = TaskDate(year: 2026, month: 1 + r.next(12), day: 1 + r.next(28))
        var splices: [Splice] = []
        switch kind {
        case 0: splices = StatusEdit.splices(.done(date: today), item: target!, in: document, today: today)
        case 1: splices = StatusEdit.splices(.cancel(date: today), item: target!, in: document, today: today)
        case 2: splices = StatusEdit.splices(.reopen, item: target!, in: document, today: today)
        case 3: splices = TokenEdit.splices([.setDate(.due, date)], item: target!, in: document)
        case 4: splices = TokenEdit.splices([.remove(.due)], item: target!, in: document)
        case 5: splices = TokenEdit.splices([.setPriority([.low, .high, .urgent, .normal][r.next(4)])], item: target!, in: document)
        case 6: splices = TokenEdit.splices([.addTag("new\(r.next(3))"), .removeTag("tag\(r.next(3))")], item: target!, in: document)
        case 7: splices = TokenEdit.splices([.replaceText("Renamed title")], item: target!, in: document)
        case 8: splices = RemoveItem.splices([target!.index], in: document)
        case 9:
            let placement: InsertItem.Placement = [.endOfList, .section("Section 1"), .under(target?.index ?? 0)][r.next(target == nil ? 2 : 3)]
            splices = [InsertItem.add("Added item", to: document, at: placement).splice]
        case 10:
            splices = MoveItem.move(target!.index, in: document, to: r.next(2) == 0 ? .endOfList : .section("Section 2"))?.splices ?? []
        case 11: splices = SortList.splices(document, by: [[SortKey.title, .priority, .due, .urgency][r.next(4)]], today: Fixture.today)
        default: splices = Archive.splices(in: document)?.splices ?? []
        }
        let after: [UInt8]
        do {
            after = try Splice.apply(splices, to: before)
        } catch {
            Issue.record("edit \(kind) made overlapping splices: \(error) in \(String(decoding: before, as: UTF8.self).debugDescription)")
            return
        }
        checkOutsideBytesUnchanged(before, splices, after)
        let edited = DocumentParser.parse(after, path: "list.md")
        #expect(edited.isValidUTF8)
        let context =
            "edit \(kind) on \(target.map { document.address(of: $0) } ?? "-") in \(String(decoding: before, as: UTF8.self).debugDescription)\nafter: \(String(decoding: after, as: UTF8.self).debugDescription)"
        let old = document.items.map(Snapshot.init)
        let new = edited.items.map(Snapshot.init)

        switch kind {
        case 0...7:
            let item = target!
            // Every splice is on the item's title line, from the box on (a next
            // occurrence is the one insertion at the line's start).
            let lineStart = EditStyle.blockStart(item, in: document.source)
            let recurring =
                kind == 0 && item.metadata.every != nil && item.status != .done
                && NextOccurrence.line(for: item, in: document, today: Self.today) != nil
            for splice in splices where !(recurring && splice.range == lineStart..<lineStart) {
                #expect(splice.range.lowerBound >= item.boxRange.lowerBound && splice.range.upperBound <= item.titleRange.upperBound, "\(context)")
            }
            var expectedOthers = old
            expectedOthers.remove(at: item.index)
            var others = new
            let editedIndex = recurring ? item.index + 1 : item.index
            guard new.count == old.count + (recurring ? 1 : 0), editedIndex < edited.items.count else {
                Issue.record("item count changed: \(context)")
                return
            }
            let result = edited.items[editedIndex]
            others.remove(at: editedIndex)
            if recurring {
                let next = edited.items[item.index]
                #expect(next.status == .open && next.metadata.done == nil && next.metadata.every == item.metadata.every, "\(context)")
                if let due = item.metadata.due {
                    #expect(next.metadata.due == RecurrenceRule(item.metadata.every!)!.next(after: due), "\(context)")
                }
                others.remove(at: item.index)
            }
            #expect(others == expectedOthers, "\(context)")
            if kind != 7 { #expect(result.title == item.title, "\(context)") }
            #expect(result.metadata.id == item.metadata.id, "\(context)")
            switch kind {
            case 0:
                #expect(result.status == .done, "\(context)")
                if item.status != .done { #expect(result.metadata.done == today && result.metadata.cancelled == nil, "\(context)") }
            case 1:
                #expect(result.status == .cancelled, "\(context)")
                if item.status != .cancelled { #expect(result.metadata.cancelled == today && result.metadata.done == nil, "\(context)") }
            case 2:
                #expect(result.status.isOpen, "\(context)")
                if !item.status.isOpen { #expect(result.metadata.done == nil && result.metadata.cancelled == nil, "\(context)") }
            case 3: #expect(result.metadata.due == date, "\(context)")
            case 4: #expect(result.metadata.due == nil, "\(context)")
            case 5: break
            case 6: #expect(result.metadata.tags.contains { $0.hasPrefix("new") }, "\(context)")
            default: #expect(result.title == "Renamed title", "\(context)")
            }
            if kind != 6 { #expect(result.metadata.tags == item.metadata.tags, "\(context)") }
            if kind != 3 && kind != 4 && !recurring { #expect(result.metadata.due == item.metadata.due, "\(context)") }
        case 8:
            var removed = Set([target!.index])
            for index in document.items.indices where document.items[index].parent.map({ removed.contains($0) }) ?? false {
                removed.insert(index)
            }
            let expected = old.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
            #expect(new.map(\.text) == expected.map(\.text), "\(context)")
            #expect(new.map(\.status) == expected.map(\.status), "\(context)")
            for splice in splices {
                let first = document.source.line(containing: target!.blockRange.lowerBound)
                let low = first > 2 ? document.source.range(ofLine: first - 2).upperBound : 0
                let high = document.source.rangeWithEnding(ofLine: min(target!.lastLine + 1, document.source.lineCount)).upperBound
                #expect(splice.replacement.isEmpty && splice.range.lowerBound >= low && splice.range.upperBound <= high, "\(context)")
            }
        case 9:
            #expect(splices.count == 1 && splices[0].range.isEmpty, "\(context)")
            #expect(new.count == old.count + 1, "\(context)")
            #expect(new.filter { $0.text == "Added item" }.count == old.filter { $0.text == "Added item" }.count + 1, "\(context)")
            var withoutNew = new
            if let index = withoutNew.firstIndex(where: { $0.text == "Added item" }) { withoutNew.remove(at: index) }
            #expect(withoutNew.map(\.text) == old.map(\.text), "\(context)")
            #expect(withoutNew.map(\.status) == old.map(\.status), "\(context)")
        case 10:
            #expect(new.count == old.count, "\(context)")
            #expect(new.map(\.text).sorted() == old.map(\.text).sorted(), "\(context)")
            if !splices.isEmpty, let moved = edited.items.first(where: { $0.text == target!.text && $0.depth == 0 }) {
                #expect(moved.children.count == target!.children.count, "\(context)")
            } else if !splices.isEmpty {
                Issue.record("moved item not at depth 0: \(context)")
            }
        case 11:
            #expect(new.count == old.count, "\(context)")
            #expect(new.map(\.text).sorted() == old.map(\.text).sorted(), "\(context)")
            #expect(new.map(\.depth).sorted() == old.map(\.depth).sorted(), "\(context)")
            // Parents keep their children.
            for item in edited.items {
                let original = document.items.first { $0.text == item.text && $0.depth == item.depth }
                if let original {
                    #expect(Set(item.children.map { edited.items[$0].text }) == Set(original.children.map { document.items[$0].text }), "\(context)")
                }
            }
        default:
            #expect(new.count == old.count, "\(context)")
            #expect(new.map(\.text).sorted() == old.map(\.text).sorted(), "\(context)")
            for item in edited.items where item.depth == 0 && (item.status == .done || item.status == .cancelled) {
                #expect(item.section.map { edited.sections[$0].title } == "Done", "\(context)")
            }
        }
    }
}
