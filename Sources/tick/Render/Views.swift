import TickEngine
import TickModel
import TickRecords
import TickSystem

/// Item listings: smart groups, queries, exports for people.
enum ItemsView {
    /// The lines for arranged results, each built when asked for (by
    /// `ItemTable`, in blocks on every core): a flat listing, or a heading
    /// per group. Nothing per item is held but the results themselves.
    /// With `plain`, titles are shown without their inline styles (what a
    /// display without color prints anyway), and their runs are not parsed.
    static func source(
        _ arranged: Arranged, context: ItemContext, showList: Bool = true, showNotes: Bool = false,
        plain: Bool = false
    ) -> ListingSource {
        let today = context.today
        // One marker width for all groups, so that titles line up across them.
        let prefixes = ItemStyle.RowPrefixes(for: arranged.items)
        let isGrouped = arranged.groups != nil
        let groups = arranged.groups ?? ItemGroups(ungrouped: arranged.items)
        // An item is indented once for each of its ancestors listed in its group.
        let present = arranged.isManualOrder ? ItemSet.sets(of: groups) : nil
        let showsList = showList && !(isGrouped && (arranged.groupKey == .list || arranged.groupKey == .section))
        // Where each group's lines start: a blank line between groups, then
        // its heading, then its rows. (Constants: a closure that captures a
        // variable checks each access to it for exclusivity, on every line.)
        let (starts, count) = groups.indices.reduce(into: ([Int](), 0)) { lines, index in
            lines.0.append(lines.1)
            lines.1 += groups.range(of: index).count + (isGrouped ? (index > 0 ? 2 : 1) : 0)
        }
        // With many groups (a section each: 199,000 at 50,000 notes), each
        // line's group is read from a table (4 bytes a line) made once, not
        // searched for in `starts` on each of the several calls a line gets
        // (a fifth of such a listing's time).
        let groupOfLine: [Int32]? = {
            guard groups.count > 256 else { return nil }
            var table: [Int32] = []
            table.reserveCapacity(count)
            for group in starts.indices {
                let end = group + 1 < starts.count ? starts[group + 1] : count
                table.append(contentsOf: repeatElement(Int32(group), count: end - starts[group]))
            }
            return table
        }()
        /// What line `line` is: a group's blank line, its heading, or the
        /// row of one of its items.
        func locate(_ line: Int) -> (group: Int, part: GroupLine) {
            let low = groupOfLine.map { Int($0[line]) } ?? starts.run(containing: line)
            var offset = line - starts[low]
            if isGrouped {
                if low > 0 {
                    if offset == 0 { return (low, .blank) }
                    offset -= 1
                }
                if offset == 0 { return (low, .heading) }
                offset -= 1
            }
            return (low, .item(offset))
        }
        /// Where the item at `offset` in the group at `group` lies in the
        /// groups' one array (making the group would retain its name and its slice).
        func place(_ offset: Int, of group: Int) -> Int { groups.range(of: group).lowerBound + offset }
        func item(_ offset: Int, of group: Int) -> EncodedListedItem { groups.items[place(offset, of: group)] }
        /// The row of `item`, of the group at `group`.
        func build<Cells: RowCells>(_ item: EncodedListedItem, of group: Int, into cells: inout Cells) {
            row(
                item, context: context, depth: present?[group].ancestorCount(of: item) ?? 0, prefixes: prefixes,
                showList: showsList, showNotes: showNotes, plain: plain, into: &cells)
        }
        return ListingSource(
            count: count, items: groups.items,
            itemPlace: { line in
                guard case (let group, .item(let offset)) = locate(line) else { return nil }
                return place(offset, of: group)
            },
            line: { line in
                switch locate(line) {
                case (_, .blank): return .blank
                case (let group, .heading): return .heading(heading(groups[group], key: arranged.groupKey, today: today))
                case (let group, .item(let offset)):
                    var row = ItemRow()
                    build(item(offset, of: group), of: group, into: &row)
                    return .row(row)
                }
            },
            writeRow: { line, cells in
                guard case (let group, .item(let offset)) = locate(line) else { return false }
                build(item(offset, of: group), of: group, into: &cells)
                return true
            })
    }

    /// A line of a group in a listing.
    private enum GroupLine {
        case blank, heading
        case item(Int)
    }

    static func heading(_ group: ItemGroup, key: GroupKey?, today: TaskDate) -> StyledText {
        var text: StyledText
        switch key {
        case .list?:
            text = ItemStyle.listHeading(group.items.first!.document)
        case .section?:
            let document = group.items.first!.document
            text = StyledText(group.name, TextStyle(bold: true, color: RGB(listColor: document.color)))
        case .day?:
            if let day = TaskDate(iso: group.name) {
                let isPast = day.compareDay(today) < 0
                text = StyledText(RelativeDate.heading(day, today: today), TextStyle(bold: true, color: isPast ? .red : nil))
            } else {
                text = StyledText(group.name, .strong)
            }
        case .due?:
            text = StyledText(group.name, TextStyle(bold: true, color: group.name == "Overdue" ? .red : nil))
        case .priority?:
            let marker = Priority(word: group.name).map { ItemStyle.priorityMarker($0) } ?? StyledText()
            text = StyledText(group.name.prefix(1).uppercased() + group.name.dropFirst(), .strong)
            if !marker.isEmpty { text = text + StyledText(" ") + marker }
        default:
            text = StyledText(group.name, .strong)
        }
        return text + StyledText("  \(group.items.count)", .dimmed)
    }

    /// One item's row. The date column shows when an item is due while it
    /// is open or in progress, and when it was finished once it is done
    /// (`done yesterday`) or cancelled (`cancelled 3 days ago`): a finished
    /// item's due date is not shown.
    static func row(
        _ item: EncodedListedItem, context: ItemContext, depth: Int, prefixes: ItemStyle.RowPrefixes, showList: Bool, showNotes: Bool,
        plain: Bool = false
    ) -> ItemRow {
        var row = ItemRow()
        self.row(item, context: context, depth: depth, prefixes: prefixes, showList: showList, showNotes: showNotes, plain: plain, into: &row)
        return row
    }

    /// Builds one item's row into `cells` (see `row(_:context:depth:prefixes:showList:showNotes:plain:)`);
    /// `due`, when given, is shown in the due column instead of the item's date.
    static func row<Cells: RowCells>(
        _ item: EncodedListedItem, context: ItemContext, depth: Int, prefixes: ItemStyle.RowPrefixes, showList: Bool, showNotes: Bool,
        plain: Bool, due: (text: String, style: TextStyle)? = nil, into cells: inout Cells
    ) {
        let today = context.today
        let prefixWidth = cells.appendPrefix(prefixes, status: item.status, priority: item.priority, depth: depth)
        // A title without markup is written from the cache's bytes, as
        // `ItemStyle.plainTitle` shows it, with no string made: its runs are
        // not parsed (with colors on, that parse was most of a listing).
        if plain || item.hasPlainTitle {
            cells.append(item.title, ItemStyle.titleStyle(item.status), to: .title)
        } else {
            cells.append(ItemStyle.styledTitle(item), to: .title)
        }
        // An open item that waits for an open item (Obsidian Tasks' "blocked").
        if context.isBlocked(item) { cells.append(" (blocked)", .dimmed, to: .title) }
        if let due {
            cells.append(due.text, due.style, to: .due)
        } else {
            dueCell(of: item, today: today, into: &cells)
        }
        if item.hasTags { cells.appendTags(of: item, .dimmed) }
        // Without colors the name's style is not written: its color is not looked up.
        if showList { cells.append(item.document.name, plain ? .plain : ItemStyle.listNameStyle(item.document), to: .list) }
        if showNotes, let notes = item.notes?.string {
            for note in notes.split(separator: "\n", omittingEmptySubsequences: false) {
                cells.appendNote(StyledText(String(note), .dimmed), indent: prefixWidth)
            }
        }
    }

    /// The due column of an item: when an open item is due, when a finished one was finished.
    /// A finished one's is dimmed: `done yesterday`, `cancelled 3 days ago`.
    private static func dueCell<Cells: RowCells>(of item: EncodedListedItem, today: TaskDate, into cells: inout Cells) {
        switch item.status {
        case .open, .inProgress:
            if let due = item.date(.due) {
                RelativeDate.withWords(due, today: today) { cells.append(ascii: $0, RelativeDate.style(of: $1), to: .due) }
            }
        case .done, .cancelled:
            let isDone = item.status == .done
            if let finished = item.date(isDone ? .done : .cancelled) {
                RelativeDate.withWords(finished, today: today, isOpen: false, after: isDone ? "done" : "cancelled") { words, _ in
                    cells.append(ascii: words, .dimmed, to: .due)
                }
            }
        }
    }
}

/// `tick show LIST`: one list in file order, sections as headings,
/// subtasks indented.
enum ListView {
    static func lines(_ document: EncodedDocument, items: [EncodedListedItem], context: ItemContext, showNotes: Bool) -> [ListingLine] {
        let source = self.source(document, items: items, context: context, showNotes: showNotes)
        return (0..<source.count).map(source.line)
    }

    /// What each line of the listing is, cheap to hold for any number of items.
    private enum Plan {
        case listHeading, blank, empty
        case section(Int)
        case item(Int)
    }

    /// The listing's lines, each built when asked for.
    static func source(
        _ document: EncodedDocument, items: [EncodedListedItem], context: ItemContext, showNotes: Bool,
        plain: Bool = false
    ) -> ListingSource {
        var planned: [Plan] = [.listHeading]
        planned.reserveCapacity(items.count + 2 * document.sectionCount + 2)
        let prefixes = ItemStyle.RowPrefixes(for: items)
        var currentSection: Int? = nil
        for (position, item) in items.enumerated() {
            let section = item.sectionIndex
            if section != currentSection, let sectionIndex = section {
                planned.append(.blank)
                planned.append(.section(sectionIndex))
            }
            currentSection = section
            planned.append(.item(position))
        }
        if items.isEmpty { planned.append(.empty) }
        // A constant for the closures below (a captured variable is checked
        // for exclusive access on every line).
        let plan = planned
        /// The row of `item`.
        func build<Cells: RowCells>(_ item: EncodedListedItem, into cells: inout Cells) {
            ItemsView.row(
                item, context: context, depth: item.depth, prefixes: prefixes, showList: false, showNotes: showNotes, plain: plain,
                into: &cells)
        }
        return ListingSource(
            count: plan.count, items: items,
            itemPlace: { index in
                guard case .item(let position) = plan[index] else { return nil }
                return position
            },
            line: { index in
                switch plan[index] {
                case .listHeading: return .heading(ItemStyle.listHeading(document))
                case .blank: return .blank
                case .empty: return .heading(StyledText("No items in this list.", .dimmed))
                case .section(let sectionIndex):
                    let section = document.section(sectionIndex)
                    var heading = StyledText()
                    if let icon = section.icon { heading.append(Icons.emoji(for: icon) + " ") }
                    heading.append(section.title, TextStyle(bold: true, color: section.color.flatMap { RGB(listColor: $0) }))
                    return .heading(heading)
                case .item(let position):
                    var row = ItemRow()
                    build(items[position], into: &row)
                    return .row(row)
                }
            },
            writeRow: { index, cells in
                guard case .item(let position) = plan[index] else { return false }
                build(items[position], into: &cells)
                return true
            })
    }
}

/// The lists with their icons, colors and counts, and the home screen.
enum ListsView {
    /// One line per list: icon, name in its color, open count; with
    /// `details`, also the done count and the path. To fit `width`, the
    /// counts are never cut: long names and paths are shortened (a name at
    /// its end, a path at its start), the longer of the two first.
    /// `counts`, when given, are the lists' open and done counts in list
    /// order (counted with the home screen's smart groups).
    static func lines(
        _ workspace: EncodedWorkspace, details: Bool, width: Int? = nil, counts: [(open: Int, done: Int)]? = nil
    ) -> [StyledText] {
        let counts = counts ?? workspace.listCounts()
        let lists = workspace.listHeadersInOrder
        // A folder holds tens of thousands of lists: their lines are built
        // in chunks on every core.
        func inChunks<T>(_ body: (Range<Int>) -> T) -> [T] { Parallel.map(chunksOf: 1024, in: lists.count, body) }
        let openWidth = counts.map { String($0.open).count }.max() ?? 1
        let doneWidth = counts.map { String($0.done).count }.max() ?? 1
        // Each name and path made visible and measured once, for the
        // columns' widths and then for the lines.
        let shown = Array(
            inChunks { range in
                range.map { index in
                    (name: Visible(lists[index].name), path: details ? Visible(lists[index].path) : Visible(""))
                }
            }.joined())
        var nameWidth = shown.map(\.name.width).max() ?? 0
        var pathWidth = shown.map(\.path.width).max() ?? 0
        if let width {
            // Icon and space, the gap after the name, the counts and their words.
            let fixed = 3 + 2 + openWidth + (details ? " open  ".count + doneWidth + " done  ".count : 0)
            (nameWidth, pathWidth) = shared(max(0, width - fixed), between: nameWidth, and: pathWidth)
        }
        var lines: [StyledText] = Array(
            inChunks { range in
                // Lists share a few icons and colors: each is looked up once per chunk.
                var iconCells: [String: StyledText] = [:]
                var nameStyles: [String: TextStyle] = [:]
                return range.map { index in
                    let (document, count, shown) = (lists[index], counts[index], shown[index])
                    var line: StyledText
                    if let cell = iconCells[document.icon] {
                        line = cell
                    } else {
                        line = StyledText(Icons.emoji(for: document.icon)).padded(to: 2) + StyledText(" ")
                        iconCells[document.icon] = line
                    }
                    let nameStyle: TextStyle
                    if let style = nameStyles[document.color] {
                        nameStyle = style
                    } else {
                        nameStyle = ItemStyle.listNameStyle(document)
                        nameStyles[document.color] = nameStyle
                    }
                    let name = shown.name.styled(nameStyle).truncated(to: nameWidth)
                    line.append(name)
                    line.append(String(repeating: " ", count: max(0, nameWidth + 2 - name.width)))
                    let open = String(count.open)
                    line.append(String(repeating: " ", count: openWidth - open.count) + open, count.open > 0 ? .strong : .dimmed)
                    if details {
                        line.append(" open  ", .dimmed)
                        let done = String(count.done)
                        line.append(String(repeating: " ", count: doneWidth - done.count) + done + " done  ", .dimmed)
                        line.append(shown.path.styled(.dimmed).truncatedAtStart(to: pathWidth))
                    }
                    return line
                }
            }.joined())
        if lists.isEmpty { lines.append(StyledText("No lists here: every *.md file below the notes folder is a list.", .dimmed)) }
        return lines
    }

    /// Text made visible (`TerminalText.safe`) and measured.
    private struct Visible {
        let text: String
        let width: Int

        init(_ text: String) {
            self.text = TerminalText.safe(text)
            width = DisplayWidth.of(self.text)
        }

        func styled(_ style: TextStyle) -> StyledText {
            var styled = StyledText()
            styled.append(visible: text, style, width: width)
            return styled
        }
    }

    /// Widths for two columns that share `room`: both whole when they fit;
    /// else the shorter keeps its width up to half of the room and the
    /// longer takes the rest. Neither goes below 4 columns (the line is then
    /// cut at the terminal's edge).
    private static func shared(_ room: Int, between first: Int, and second: Int) -> (Int, Int) {
        guard first + second > room else { return (first, second) }
        let half = room / 2
        if first <= second {
            let kept = min(first, max(half, 4))
            return (kept, max(min(second, room - kept), min(second, 4)))
        }
        let kept = min(second, max(room - half, 4))
        return (max(min(first, room - kept), min(first, 4)), kept)
    }

    /// The home screen: the four smart-group counts as a 2×2 block, then the lists.
    static func home(_ workspace: EncodedWorkspace, today: TaskDate, width: Int? = nil) -> [StyledText] {
        let colors: [SmartGroup: RGB] = [.today: .blue, .scheduled: .red, .all: .gray, .overdue: .orange]
        let (groupCounts, listCounts) = workspace.homeCounts(of: SmartGroup.homeGroups, today: today)
        let counts = Array(zip(SmartGroup.homeGroups, groupCounts))
        let countWidth = counts.map { String($0.1).count }.max() ?? 1
        func cell(_ entry: (SmartGroup, Int)) -> StyledText {
            let (group, count) = entry
            let number = String(count)
            return StyledText(group.title, TextStyle(bold: true, color: colors[group]!)).padded(to: 11)
                + StyledText(String(repeating: " ", count: countWidth - number.count) + number, count > 0 ? .strong : .dimmed)
        }
        var lines = [
            cell(counts[0]) + StyledText("    ") + cell(counts[1]),
            cell(counts[2]) + StyledText("    ") + cell(counts[3]),
            StyledText(),
        ]
        lines += self.lines(workspace, details: false, width: width, counts: listCounts)
        return lines
    }
}

/// `tick agenda`: each day's heading, then its entries' rows, the due
/// column saying why each item is on its day.
enum AgendaView {
    /// What each line of the listing is, cheap to hold for any number of entries.
    private enum Plan {
        case blank
        case heading(day: Int)
        /// "nothing", under a day without entries.
        case nothing
        /// The entry at this place among all the days' entries.
        case entry(Int)
    }

    /// The listing's lines, each built when asked for; `names` names the days.
    static func source(_ days: [Agenda.Day], names: [String], context: ItemContext, plain: Bool) -> ListingSource {
        var planned: [Plan] = []
        var items: [EncodedListedItem] = []
        var entryReasons: [Agenda.Reasons] = []
        for (index, day) in days.enumerated() {
            if index > 0 { planned.append(.blank) }
            planned.append(.heading(day: index))
            if day.entries.isEmpty { planned.append(.nothing) }
            for entry in day.entries {
                planned.append(.entry(items.count))
                items.append(entry.record)
                entryReasons.append(entry.reasons)
            }
        }
        // Constants for the closures below (a captured variable is checked
        // for exclusive access on every line).
        let (plan, reasons) = (planned, entryReasons)
        let prefixes = ItemStyle.RowPrefixes(for: items)
        /// The row of the entry at `position`; its reasons' words (which
        /// read the item's dates) are made as the row is built, when the
        /// listing reads the item's record where its pages are mapped.
        func build<Cells: RowCells>(_ position: Int, into cells: inout Cells) {
            let item = items[position]
            let why = reasons[position]
            ItemsView.row(
                item, context: context, depth: 0, prefixes: prefixes, showList: true, showNotes: false, plain: plain,
                due: (
                    why.map { describe($0, item, today: context.today) }.joined(separator: ", "),
                    why.contains(.overdue) ? TextStyle(color: .red) : .plain
                ),
                into: &cells)
        }
        return ListingSource(
            count: plan.count, items: items,
            itemPlace: { line in
                guard case .entry(let position) = plan[line] else { return nil }
                return position
            },
            line: { line in
                switch plan[line] {
                case .blank: return .blank
                case .heading(let day):
                    return .heading(StyledText(names[day], TextStyle(bold: true, color: days[day].date == nil ? .red : nil)))
                case .nothing: return .heading(StyledText("  nothing", .dimmed))
                case .entry(let position):
                    var row = ItemRow()
                    build(position, into: &row)
                    return .row(row)
                }
            },
            writeRow: { line, cells in
                guard case .entry(let position) = plan[line] else { return false }
                build(position, into: &cells)
                return true
            })
    }

    /// `Overdue`, or the day's heading (`Sat 2026-11-21 · today`).
    static func name(of day: Agenda.Day, today: TaskDate) -> String {
        day.date.map { RelativeDate.heading($0, today: today) } ?? "Overdue"
    }

    /// Why an item is on its day, in words.
    private static func describe(_ reason: Agenda.Reason, _ item: EncodedListedItem, today: TaskDate) -> String {
        switch reason {
        case .overdue: return item.date(.due).map { RelativeDate.describe($0, today: today).text } ?? "overdue"
        case .due: return "due"
        case .scheduled: return "scheduled"
        case .start: return "starts"
        case .scheduledEarlier:
            let days = item.date(.scheduled).map { $0.dayOnly.days(until: today) } ?? 0
            return "scheduled \(days) day\(days == 1 ? "" : "s") ago"
        case .dueSoon: return item.date(.due).map { "due " + RelativeDate.describe($0, today: today).text } ?? "due soon"
        }
    }
}
