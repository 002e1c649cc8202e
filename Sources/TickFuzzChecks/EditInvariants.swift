import TickEdit
import TickModel
import TickSyntax

/// The rules of SPEC §5 that an edit must keep on any document: checked by
/// the editor fuzzer and, on the saved inputs, by the tests.
///
/// The input's first four bytes choose the edit (which command, which item,
/// which date); the rest is the document.
public enum EditInvariants {
    static let today = TaskDate(year: 2026, month: 11, day: 21)
    public static let editKinds = 13

    /// A name for each edit kind, for messages.
    static let kindNames = [
        "done", "cancel", "reopen", "edit --due", "edit --no-due", "edit --priority",
        "edit --tag/--untag", "edit --title", "rm", "add", "mv", "sort --write", "archive",
    ]

    /// Splits fuzzer input into the edit choice and the document's bytes.
    public static func violations(of input: [UInt8]) -> [String] {
        var choice: UInt64 = 0
        for byte in input.prefix(4) { choice = choice << 8 | UInt64(byte) }
        return violations(document: Array(input.dropFirst(4)), choice: choice)
    }

    /// Makes edit number `choice` on the document `bytes` and checks it.
    public static func violations(document bytes: [UInt8], choice: UInt64) -> [String] {
        let document = DocumentParser.parse(bytes, path: "list.md")
        var random = SplitMix(seed: choice)
        let kind = random.next(editKinds)
        guard !document.items.isEmpty || kind == 9 else { return [] }
        let target = document.items.isEmpty ? nil : document.items[random.next(document.items.count)]
        let date = TaskDate(year: 2026, month: 1 + random.next(12), day: 1 + random.next(28))
        var splices: [Splice] = []
        switch kind {
        case 0: splices = StatusEdit.splices(.done(date: today), item: target!, in: document, today: today)
        case 1: splices = StatusEdit.splices(.cancel(date: today), item: target!, in: document, today: today)
        case 2: splices = StatusEdit.splices(.reopen, item: target!, in: document, today: today)
        case 3: splices = TokenEdit.splices([.setDate(.due, date)], item: target!, in: document)
        case 4: splices = TokenEdit.splices([.remove(.due)], item: target!, in: document)
        case 5: splices = TokenEdit.splices([.setPriority([.low, .high, .urgent, .normal][random.next(4)])], item: target!, in: document)
        case 6: splices = TokenEdit.splices([.addTag("new\(random.next(3))"), .removeTag("tag\(random.next(3))")], item: target!, in: document)
        case 7: splices = TokenEdit.splices([.replaceText("Renamed title")], item: target!, in: document)
        case 8: splices = RemoveItem.splices([target!.index], in: document)
        case 9:
            let placements: [InsertItem.Placement] = [.endOfList, .section("Section 1")] + (target.map { [.under($0.index)] } ?? [])
            splices = [InsertItem.add("Added item", to: document, at: placements[random.next(placements.count)]).splice]
        case 10:
            splices = MoveItem.move(target!.index, in: document, to: random.next(2) == 0 ? .endOfList : .section("Section 2"))?.splices ?? []
        case 11: splices = SortList.splices(document, by: [[SortKey.title, .priority, .due, .urgency][random.next(4)]], today: today)
        default: splices = Archive.splices(in: document)?.splices ?? []
        }
        let what = "\(kindNames[kind])" + (target.map { " on the item at line \($0.line)" } ?? "")
        return check(document, splices: splices, kind: kind, target: target).map { what + ": " + $0 }
    }

    /// Checks `splices`, made by edit `kind` (an index into `kindNames`) on
    /// `target`, against the rules; public so that tests can show a bad edit is caught.
    public static func check(_ document: Document, splices: [Splice], kind: Int, target: TaskItem?) -> [String] {
        let before = document.source.bytes
        var problems: [String] = []
        let after: [UInt8]
        do {
            after = try Splice.apply(splices, to: before)
        } catch {
            return ["the edit's splices are invalid: \(error)"]
        }
        // §5.1: every byte outside the splices is where it was (checked
        // independently of Splice.apply).
        var cursorBefore = 0
        var cursorAfter = 0
        let sorted = splices.sorted { ($0.range.lowerBound, $0.range.isEmpty ? 0 : 1) < ($1.range.lowerBound, $1.range.isEmpty ? 0 : 1) }
        for splice in sorted {
            let gap = before[cursorBefore..<splice.range.lowerBound]
            if Array(after[min(cursorAfter, after.count)..<min(after.count, cursorAfter + gap.count)]) != Array(gap) {
                problems.append("bytes before \(splice.range) moved or changed")
            }
            cursorAfter += gap.count + splice.replacement.count
            cursorBefore = splice.range.upperBound
        }
        if Array(after[min(cursorAfter, after.count)...]) != Array(before[cursorBefore...]) {
            problems.append("bytes after the last splice changed")
        }
        // The byte-order mark is never moved, copied or removed.
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        if before.starts(with: bom) {
            if !after.starts(with: bom) { problems.append("the byte-order mark was moved or removed") }
            for splice in splices where splice.range.lowerBound < 3 { problems.append("a splice at \(splice.range) touches the byte-order mark") }
        }
        let edited = DocumentParser.parse(after, path: "list.md")
        if document.isValidUTF8 && !edited.isValidUTF8 { problems.append("the edit made the file invalid UTF-8") }
        problems += ParserInvariants.check(edited).map { "after the edit, " + $0 }
        // §5.2: new line endings look like the file's.
        switch (LineEndings(before), LineEndings(after)) {
        case (.none, let result) where result.hasCR: problems.append("CR written into a file without line endings")
        case (.lf, let result) where result != .lf && result != .none: problems.append("a file with LF line endings now has \(result)")
        case (.crlf, let result) where result != .crlf && result != .none: problems.append("a file with CRLF line endings now has \(result)")
        default: break
        }

        struct Snapshot: Equatable, CustomStringConvertible {
            var status: TaskStatus
            var text: String
            var description: String { "[\(status)] \(text)" }
        }
        // tick never writes a file that is not valid UTF-8 (SPEC §5.6): for
        // such input only the splices are checked, not what the result reads as.
        if !document.isValidUTF8 { return problems }
        // Known limit (docs/RELIABILITY.md): when the file ends inside a
        // block that swallows whatever follows (an unclosed code fence or
        // HTML block), an item that add, mv or archive put at the end is
        // not an item. Those edits are checked only up to that point.
        if kind >= 9 && swallowsAppendedText(document) {
            return problems
        }
        // Known limit (docs/RELIABILITY.md): mv and archive re-indent the
        // blocks they move, lazy continuation lines included (lines of the
        // item's paragraph not indented under it); indented, such a line may
        // read differently (`--` under the title becomes a heading underline).
        if kind == 10 || kind == 12 {
            let moved = kind == 10 ? [target!.index] : Archive.candidates(in: document)
            if moved.contains(where: { hasLazyLines(document.items[$0], in: document) }) { return problems }
        }
        let old = document.items.map { Snapshot(status: $0.status, text: $0.text) }
        let new = edited.items.map { Snapshot(status: $0.status, text: $0.text) }
        switch kind {
        case 0...7:
            let item = target!
            // A next occurrence is inserted only when one can be made (a readable rule, a date before 10000).
            let recurring = kind == 0 && item.status != .done && NextOccurrence.line(for: item, in: document, today: today) != nil
            let lineStart = document.source.lineStarts[document.source.line(containing: item.markerRange.lowerBound) - 1]
            let bomEnd = lineStart == 0 && before.starts(with: bom) ? 3 : lineStart
            for splice in splices
            where !(recurring && splice.range.isEmpty && (splice.range.lowerBound == lineStart || splice.range.lowerBound == bomEnd)) {
                if splice.range.lowerBound < item.boxRange.lowerBound || splice.range.upperBound > item.titleRange.upperBound {
                    problems.append(
                        "splice \(splice.range) outside the item's box and title \(item.boxRange.lowerBound)..<\(item.titleRange.upperBound)")
                }
            }
            let edits = recurring ? 1 : 0
            guard new.count == old.count + edits else {
                problems.append("\(old.count) items became \(new.count): \(old) -> \(new)")
                break
            }
            var others = new
            let result = edited.items[item.index + edits]
            others.remove(at: item.index + edits)
            if recurring { others.remove(at: item.index) }
            var expected = old
            expected.remove(at: item.index)
            if others != expected { problems.append("other items changed: \(expected) -> \(others)") }
            switch kind {
            case 0: if result.status != .done { problems.append("status is \(result.status), not done") }
            case 1: if result.status != .cancelled { problems.append("status is \(result.status), not cancelled") }
            case 2: if !result.status.isOpen { problems.append("status is \(result.status), not open") }
            case 4: if result.metadata.due != nil { problems.append("a due date is left") }
            case 7: if result.title != "Renamed title" { problems.append("title is \(result.title.debugDescription)") }
            default: break
            }
            if kind != 7 && result.title != item.title {
                problems.append("title \(item.title.debugDescription) became \(result.title.debugDescription)")
            }
            if kind != 6 && result.metadata.tags != item.metadata.tags {
                problems.append("tags \(item.metadata.tags) became \(result.metadata.tags)")
            }
            if result.metadata.id != item.metadata.id { problems.append("block id changed") }
        case 8:
            var removed = Set([target!.index])
            for index in document.items.indices where document.items[index].parent.map({ removed.contains($0) }) ?? false {
                removed.insert(index)
            }
            let expected = old.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
            if new != expected { problems.append("items left are \(new), expected \(expected)") }
        case 9:
            var withoutNew = new
            if let index = withoutNew.firstIndex(where: { $0.text == "Added item" && !old.contains($0) })
                ?? withoutNew.lastIndex(where: { $0.text == "Added item" })
            {
                withoutNew.remove(at: index)
            }
            if new.count != old.count + 1 || withoutNew != old { problems.append("adding changed the items: \(old) -> \(new)") }
        default:
            if new.map(\.description).sorted() != old.map(\.description).sorted() {
                problems.append("the items are not the same set: \(old) -> \(new)")
            }
        }
        return problems
    }

    /// True when an item appended to the file, after a blank line and a
    /// level-2 heading, would not be an item.
    static func swallowsAppendedText(_ document: Document) -> Bool {
        let probe = document.source.bytes + Array("\n\n## Probe\n\n- [ ] probe\n".utf8)
        return DocumentParser.parse(probe, path: "probe.md").items.count != document.items.count + 1
    }

    /// True when a line of `item`'s block after its title line is a lazy
    /// continuation line: not blank, yet without the containers the item sits
    /// in (CommonMark's container matching), so it belongs to the block only
    /// as paragraph text that continues lazily. Such a line is either
    /// indented less than the item's content, or, in a block quote, has fewer
    /// `>` markers than the title line (`> - [ ] a` then `    - [ ] b`).
    ///
    /// The containers are read from the marker line's prefix: each `>` is a
    /// block quote (up to 3 columns of indentation before it, one optional
    /// space after it), each list marker a list item whose content starts
    /// where its text does; white space before a `>` may belong to a list
    /// item on an earlier line, so a line matches the quote with as little as
    /// 3 columns less of it. Tabs count to the next multiple of 4 columns.
    static func hasLazyLines(_ item: TaskItem, in document: Document) -> Bool {
        guard item.lastLine > item.line else { return false }
        let source = document.source
        let bytes = source.bytes
        enum Container {
            case quote(indent: Int)
            case list(width: Int)
        }
        /// The line's bytes with tabs expanded to spaces, up to and
        /// including the first byte that is not white space or `>`, or up to `end`.
        func expanded(_ range: Range<Int>, upTo end: Int? = nil) -> [UInt8] {
            var result: [UInt8] = []
            for index in range {
                if let end, index >= end { break }
                let byte = bytes[index]
                if byte == 0x09 {
                    result += [UInt8](repeating: 0x20, count: 4 - result.count % 4)
                } else {
                    result.append(byte)
                    if end == nil && byte != 0x20 && byte != UInt8(ascii: ">") { break }
                }
            }
            return result
        }
        func spaces(_ line: [UInt8], from start: Int) -> Int {
            var count = 0
            while start + count < line.count, line[start + count] == 0x20 { count += 1 }
            return count
        }
        // The containers, from the marker line's prefix up to the box (or,
        // when the box is on a later line, up to the marker's end).
        let markerLine = source.line(containing: item.markerRange.lowerBound)
        var lineStart = source.range(ofLine: markerLine).lowerBound
        if lineStart == 0 && source.hasByteOrderMark { lineStart = 3 } // not content: cmark-gfm skips it
        let boxOnMarkerLine = markerLine == item.line
        let prefix = expanded(lineStart..<item.boxRange.lowerBound, upTo: boxOnMarkerLine ? item.boxRange.lowerBound : item.markerRange.upperBound)
        let markerColumn = expanded(lineStart..<item.markerRange.lowerBound, upTo: item.markerRange.lowerBound).count
        var containers: [Container] = []
        var content = 0 // where the innermost container's content starts
        var position = 0
        while position < markerColumn {
            let indent = spaces(prefix, from: position)
            position += indent
            guard position < markerColumn else { break }
            if prefix[position] == UInt8(ascii: ">") {
                containers.append(.quote(indent: position - content))
                position += 1
                if position < prefix.count, prefix[position] == 0x20 { position += 1 }
            } else {
                // An enclosing list item's marker on the same line: bullet or number.
                while position < markerColumn, prefix[position] >= 0x30, prefix[position] <= 0x39 { position += 1 }
                guard position < markerColumn, [UInt8]("-+*.)".utf8).contains(prefix[position]) else { return true }
                position += 1
                position += spaces(prefix, from: position)
                containers.append(.list(width: position - content))
            }
            content = position
        }
        // The item itself: its content starts at the box, or one column after
        // the marker when the marker line holds nothing else.
        let itemContent = boxOnMarkerLine ? prefix.count : prefix.count + 1
        containers.append(.list(width: itemContent - content))

        for lineNumber in item.line + 1...item.lastLine {
            let range = source.range(ofLine: lineNumber)
            guard range.contains(where: { bytes[$0] != 0x20 && bytes[$0] != 0x09 && bytes[$0] != UInt8(ascii: ">") }) else { continue }
            let line = expanded(range)
            var position = 0
            for container in containers {
                let indent = spaces(line, from: position)
                switch container {
                case .quote(let written):
                    guard indent >= max(0, written - 3), indent <= max(3, written),
                        position + indent < line.count, line[position + indent] == UInt8(ascii: ">")
                    else { return true }
                    position += indent + 1
                    if position < line.count, line[position] == 0x20 { position += 1 }
                case .list(let width):
                    guard indent >= width else { return true }
                    position += width
                }
            }
        }
        return false
    }

    /// Which line endings a file uses.
    enum LineEndings: Equatable, CustomStringConvertible {
        case none, lf, crlf, mixed
        init(_ bytes: [UInt8]) {
            var lf = false
            var crlf = false
            var other = false
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0x0D {
                    if index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                        crlf = true
                        index += 1
                    } else {
                        other = true
                    }
                } else if bytes[index] == 0x0A {
                    lf = true
                }
                index += 1
            }
            self = other || (lf && crlf) ? .mixed : crlf ? .crlf : lf ? .lf : .none
        }
        var hasCR: Bool { self == .crlf || self == .mixed }
        var description: String { "\(self == .none ? "no" : self == .lf ? "LF" : self == .crlf ? "CRLF" : "mixed") line endings" }
    }

    /// A small deterministic random source (SplitMix64).
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
}
