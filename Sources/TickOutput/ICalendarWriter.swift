import Foundation
import TickModel
import TickRecords
import TickSyntax
import TickSystem

/// Items as an iCalendar (RFC 5545) VCALENDAR of VTODO components, or of
/// VEVENT components for calendar apps (`tick export --format ics --events`).
///
/// Guarantees: CRLF line endings; content lines folded at 75 octets without
/// splitting a UTF-8 sequence; TEXT values escaped (`\\`, `\;`, `\,`, `\n`);
/// a UID that stays the same while the item keeps its `^id`, else while it
/// keeps its list and its title (whatever else changes, and wherever in the
/// file it moves); DTSTAMP on every component.
public enum ICalendarWriter {
    /// The product identifier written in PRODID.
    public static let productID = "-//tick//tick to-do lists//EN"

    /// The calendar. `stamp` is the DTSTAMP, a UTC date-time such as
    /// `20261121T000000Z`.
    public static func write(_ items: [EncodedListedItem], stamp: String) -> String {
        var calendar: [UInt8] = []
        write(items, stamp: stamp) { calendar.append(contentsOf: $0) }
        return String(decoding: calendar, as: UTF8.self)
    }

    /// Writes the calendar piece by piece, a chunk of components at a time,
    /// so that the whole text is never in memory.
    public static func write(_ items: [EncodedListedItem], stamp: String, to emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        writeCalendar(to: emit) { deliver in
            writeComponents(items, to: deliver) { item, lists, lines in todo(item, stamp: stamp, lists: &lists, into: &lines) }
        }
    }

    /// Emits the calendar's header, the components `writeComponents`
    /// delivers (folded content lines), and its end.
    static func writeCalendar(
        to emit: (UnsafeBufferPointer<UInt8>) -> Void, components writeComponents: (_ deliver: (UnsafeBufferPointer<UInt8>) -> Void) -> Void
    ) {
        // Not escaping: `writeComponents` only calls the function it is
        // given while it runs; the compiler cannot tell.
        withoutActuallyEscaping(emit) { emit in
            emitLines(header, to: emit)
            writeComponents(emit)
            emitLines(["END:VCALENDAR"], to: emit)
        }
    }

    /// Emits `lines`, folded.
    private static func emitLines(_ lines: [String], to emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        var output = ByteOutput()
        for line in lines { appendFolded(line, to: &output) }
        let written = output.release()
        defer { written.deallocate() }
        emit(written.written)
    }

    /// Writes the component of each item (`component` writes its lines, or
    /// none to leave it out), folded, in order: runs of items are written
    /// on every core and emitted as soon as they and the runs before them
    /// are done (`ItemRuns`). Each call of the render makes its own list
    /// parts (`ListParts`), once for each list a run or a stretch holds.
    private static func writeComponents(
        _ items: [EncodedListedItem], to emit: (UnsafeBufferPointer<UInt8>) -> Void,
        component: (EncodedListedItem, inout ListParts, inout ContentLines) -> Void
    ) {
        ItemRuns.write(items, runsOfAtMost: 256, bytesPerItem: 512) { positions, output, itemEnded in
            var lists = ListParts()
            ContentLines.appending(to: &output) { lines in
                // Read in place: a copy of each item would retain and release its list.
                items.withUnsafeBufferPointer { items in
                    for position in positions {
                        component(items[position], &lists, &lines)
                        itemEnded(lines.output.count)
                    }
                }
            }
        } deliver: {
            emit($0)
        }
    }

    private static let header = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:\(productID)", "CALSCALE:GREGORIAN"]

    /// The DTSTAMP for a pinned day: its midnight in UTC.
    public static func stamp(for day: TaskDate) -> String {
        var bytes = ByteOutput(capacity: 16)
        appendBasicDay(day, to: &bytes)
        return String(decoding: bytes.bytes, as: UTF8.self) + "T000000Z"
    }

    /// The UID of an item: `ID@tick` for an item with a block id, else
    /// `HASH@tick`, HASH the FNV-1a hash (16 hex digits) of the list's path,
    /// the title and how many items above it in the file have the same title,
    /// joined by NUL: it survives edits of the item's other fields and lines
    /// added or removed around it. The hash is made when the list is parsed
    /// and kept in the cache (`EncodedListedItem.uidHash`).
    public static func uid(_ listed: EncodedListedItem) -> String {
        var bytes = ByteOutput(capacity: 64)
        appendUID(listed, to: &bytes)
        return String(decoding: bytes.bytes, as: UTF8.self)
    }

    /// Appends `uid(item)` as a content line holds it (an id's TEXT
    /// escaped; block ids have nothing to escape).
    static func appendUID(_ item: EncodedListedItem, to bytes: inout ByteOutput) {
        if let id = item.id {
            ContentLines.appendEscaped(id.bytes, to: &bytes)
        } else {
            bytes.appendHex(item.uidHash, digits: 16)
        }
        bytes.append("@tick")
    }

    /// What the components of one export take from each item's list, made
    /// once per list: the list's path and name as TEXT values hold them.
    struct ListParts {
        /// What one list's components take from it. A class: a value
        /// holding two arrays retained and released each of them on every
        /// look-up. It never leaves `ListParts`: handed to each component,
        /// it was retained and released for each item.
        private final class ListPart {
            private let escapedPath: [UInt8]
            private let escapedName: [UInt8]

            fileprivate init(_ document: EncodedDocument) {
                var escapedPath = ByteOutput()
                var escapedName = ByteOutput()
                document.path.withUTF8Bytes { ContentLines.appendEscaped($0, to: &escapedPath) }
                document.name.withUTF8Bytes { ContentLines.appendEscaped($0, to: &escapedName) }
                self.escapedPath = escapedPath.bytes
                self.escapedName = escapedName.bytes
            }

            /// Appends the list's name, escaped.
            func appendListName(to bytes: inout ByteOutput) {
                bytes.append(escapedName)
            }

            /// Appends the address of `item`, an item of this list
            /// (`path:line`), the path escaped.
            func appendAddress(_ item: EncodedListedItem, to bytes: inout ByteOutput) {
                bytes.append(escapedPath)
                bytes.append(UInt8(ascii: ":"))
                bytes.appendDecimal(item.line)
            }
        }
        /// Every list's part, kept for items that come back to a list
        /// (sorted by due date, say); nil when they never do.
        private var byList: [ObjectIdentifier: ListPart]?
        /// The list asked about last: an export's items come a list at a time.
        private var last: (list: ObjectIdentifier, part: ListPart)?

        /// `listsComeOnce`: the items come a whole list at a time (in
        /// manual order), so only the last list's part is kept.
        init(listsComeOnce: Bool = false) {
            byList = listsComeOnce ? nil : [:]
        }

        /// Appends `X-TICK-LIST:` and the name of the item's list, then
        /// `X-TICK-ADDRESS:` and its address (`path:line`), escaped once for
        /// each list.
        mutating func appendLines(of item: EncodedListedItem, to lines: inout ContentLines) {
            let list = ObjectIdentifier(item.document)
            if last?.list != list { select(item.document) }
            lines.start("X-TICK-LIST:")
            last!.part.appendListName(to: &lines.output)
            lines.end()
            lines.start("X-TICK-ADDRESS:")
            last!.part.appendAddress(item, to: &lines.output)
            lines.end()
        }

        /// Makes the part of `document` the last one, made the first time it is asked for.
        private mutating func select(_ document: EncodedDocument) {
            let list = ObjectIdentifier(document)
            let part: ListPart
            if let made = byList?[list] {
                part = made
            } else {
                part = ListPart(document)
                byList?[list] = part
            }
            last = (list, part)
        }
    }

    /// RFC 5545 priority: 1 (urgent) … 9 (lowest); nil when none was written.
    public static func priority(_ item: EncodedListedItem) -> Int? {
        guard item.hasPriority else { return nil }
        switch item.priority {
        case .urgent: return 1
        case .high: return 2
        case .medium: return 4
        case .normal: return 5
        case .low: return 7
        case .lowest: return 9
        }
    }

    static func todo(_ item: EncodedListedItem, stamp: String, lists: inout ListParts, into lines: inout ContentLines) {
        lines.line("BEGIN:VTODO")
        lines.start("UID:")
        appendUID(item, to: &lines.output)
        lines.end()
        lines.line("DTSTAMP:", stamp)
        lines.text("SUMMARY:", item.title)
        if let notes = item.notes { lines.text("DESCRIPTION:", notes.bytes) }
        // DTSTART only when it agrees with DUE (same value type, not later), as RFC 5545 requires.
        var hasStart = false
        let due = item.date(.due)
        if let start = item.date(.start), due.map({ start.compareDay($0) <= 0 && ($0.minuteOfDay == nil) == (start.minuteOfDay == nil) }) ?? true {
            lines.date("DTSTART", start)
            hasStart = true
        }
        if let due { lines.date("DUE", due) }
        if let priority = priority(item) { lines.number("PRIORITY:", priority) }
        switch item.status {
        case .open: lines.line("STATUS:NEEDS-ACTION")
        case .inProgress: lines.line("STATUS:IN-PROCESS")
        case .done:
            lines.line("STATUS:COMPLETED")
            if let done = item.date(.done) { lines.utcNoon("COMPLETED:", done) }
        case .cancelled: lines.line("STATUS:CANCELLED")
        }
        if let created = item.date(.created) { lines.utcNoon("CREATED:", created) }
        if item.hasTags { lines.categories(item) }
        if let parent = item.parentIndex {
            let parentItem = EncodedListedItem(document: item.document, index: parent, listRank: item.listRank)
            lines.start("RELATED-TO;RELTYPE=PARENT:")
            appendUID(parentItem, to: &lines.output)
            lines.end()
        }
        if let every = item.every {
            // A recurrence set is generated from DTSTART, so RRULE needs one.
            if hasStart, let rule = RecurrenceRule(every.string) { lines.line("RRULE:", rule.rrule) }
            lines.text("X-TICK-EVERY:", every.bytes)
        }
        lists.appendLines(of: item, to: &lines)
        reminder(item, into: &lines)
        lines.line("END:VTODO")
    }

    // MARK: Events

    /// The calendar of VEVENTs: one per open or in-progress item with a due
    /// date, on that day (all day) or at its time (for an hour); `alarm`,
    /// when given, the minutes before it that a VALARM reminds of it.
    /// `previous` holds the events of the calendar written before
    /// (`events(in:)`): an event keeps its SEQUENCE when its content is the
    /// same, gets the next one when it changed, and 0 when it is new.
    public static func writeEvents(
        _ items: [EncodedListedItem], stamp: String, previous: [String: (sequence: Int, content: [String])] = [:],
        alarm: Int? = nil
    ) -> String {
        var calendar: [UInt8] = []
        writeEvents(items, stamp: stamp, previous: previous, alarm: alarm) { calendar.append(contentsOf: $0) }
        return String(decoding: calendar, as: UTF8.self)
    }

    /// Writes the calendar of events piece by piece, as `write(_:stamp:to:)`.
    public static func writeEvents(
        _ items: [EncodedListedItem], stamp: String, previous: [String: (sequence: Int, content: [String])],
        alarm: Int?, to emit: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        emitLines(header, to: emit)
        writeComponents(items, to: emit) { listed, lists, lines in
            guard listed.status.isOpen, listed.date(.due) != nil else { return }
            var uidBytes = ByteOutput(capacity: 64)
            appendUID(listed, to: &uidBytes)
            let uid = uidBytes.bytes
            var sequence = 0
            if let written = previous[String(decoding: uid, as: UTF8.self)] {
                // The event's content, to compare with the one written before.
                var event = ContentLines()
                self.event(listed, uid: uid, stamp: stamp, sequence: nil, alarm: alarm, lists: &lists, into: &event)
                sequence = written.content == changeContent(event.strings) ? written.sequence : written.sequence + 1
            }
            event(listed, uid: uid, stamp: stamp, sequence: sequence, alarm: alarm, lists: &lists, into: &lines)
        }
        emitLines(["END:VCALENDAR"], to: emit)
    }

    /// An event's lines, with SEQUENCE after DTSTAMP when `sequence` is given.
    private static func event(
        _ item: EncodedListedItem, uid: [UInt8], stamp: String, sequence: Int?, alarm: Int?, lists: inout ListParts,
        into lines: inout ContentLines
    ) {
        guard let due = item.date(.due) else { return }
        let title = item.title
        lines.line("BEGIN:VEVENT")
        lines.start("UID:")
        lines.output.append(uid)
        lines.end()
        lines.line("DTSTAMP:", stamp)
        if let sequence { lines.number("SEQUENCE:", sequence) }
        lines.text("SUMMARY:", title)
        if let notes = item.notes { lines.text("DESCRIPTION:", notes.bytes) }
        lines.date("DTSTART", due)
        if due.minuteOfDay != nil {
            lines.line("DURATION:PT1H")
        } else {
            lines.date("DTEND", due.adding(1, .day))
            lines.line("TRANSP:TRANSPARENT") // an all-day reminder, not a busy day
        }
        if let priority = priority(item) { lines.number("PRIORITY:", priority) }
        if item.hasTags { lines.categories(item) }
        // A rule that counts from the completion date (`when done`) has no fixed dates to list.
        if let every = item.every?.string, let rule = RecurrenceRule(every), !rule.whenDone { lines.line("RRULE:", rule.rrule) }
        lists.appendLines(of: item, to: &lines)
        if let alarm {
            let trigger = alarm % 1440 == 0 ? "-P\(alarm / 1440)D" : alarm % 60 == 0 ? "-PT\(alarm / 60)H" : "-PT\(alarm)M"
            lines.line("BEGIN:VALARM")
            lines.line("ACTION:DISPLAY")
            lines.text("DESCRIPTION:", title)
            lines.line("TRIGGER:", trigger)
            lines.line("END:VALARM")
        }
        reminder(item, into: &lines)
        lines.line("END:VEVENT")
    }

    /// A VALARM at the item's reminder (`remind`, docs/FORMAT.md), when it
    /// has one. RFC 5545 wants an absolute trigger in UTC, so the
    /// reminder's time, which is local like every time in a list (09:00
    /// for a reminder without one), is converted with the time zone tick
    /// runs in (`TZ`).
    static func reminder(_ item: EncodedListedItem, into lines: inout ContentLines) {
        guard let remind = item.date(.remind) else { return }
        let minute = remind.minuteOfDay ?? 9 * 60
        let local = DateComponents(year: remind.year, month: remind.month, day: remind.day, hour: minute / 60, minute: minute % 60)
        guard let instant = localCalendar.date(from: local),
            case let parts = TaskDate.calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant),
            let year = parts.year, let month = parts.month, let day = parts.day, let hour = parts.hour, let minutes = parts.minute
        else { return }
        // `TaskDate.calendar` is UTC: the reminder's moment as a UTC date and time.
        let utc = TaskDate(year: year, month: month, day: day, minuteOfDay: hour * 60 + minutes)
        lines.line("BEGIN:VALARM")
        lines.line("ACTION:DISPLAY")
        lines.text("DESCRIPTION:", item.title)
        lines.start("TRIGGER;VALUE=DATE-TIME")
        appendDateValue(utc, to: &lines.output)
        lines.output.append(UInt8(ascii: "Z"))
        lines.end()
        lines.line("END:VALARM")
    }

    /// The calendar of the time zone tick runs in, for reminders' local times.
    private static let localCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar
    }()

    /// The VEVENTs of a calendar this writer wrote (`previous`), by UID:
    /// each one's SEQUENCE and its lines but DTSTAMP, SEQUENCE and
    /// X-TICK-ADDRESS (what says whether the item changed: lines added above
    /// it move its address, not it).
    public static func events(in previous: String) -> [String: (sequence: Int, content: [String])] {
        let lines = unfolded(previous)
        var result: [String: (sequence: Int, content: [String])] = [:]
        var current: [String]? = nil
        var uid = ""
        var sequence = 0
        for line in lines {
            if line == "BEGIN:VEVENT" {
                current = []
                uid = ""
                sequence = 0
                continue
            }
            guard current != nil else { continue }
            if line == "END:VEVENT" {
                result[uid] = (sequence, changeContent(current!))
                current = nil
                continue
            }
            if line.hasPrefix("UID:") { uid = String(line.dropFirst(4)) }
            if line.hasPrefix("SEQUENCE:") { sequence = Int(line.dropFirst(9)) ?? 0 }
            current!.append(line)
        }
        return result
    }

    /// The content lines of `text`, unfolded: a line that starts with a
    /// space continues the one before (the empty text after the last CRLF
    /// is no line).
    static func unfolded(_ text: String) -> [String] {
        var lines: [String] = []
        for line in text.components(separatedBy: "\r\n") {
            if line.hasPrefix(" "), !lines.isEmpty { lines[lines.count - 1] += line.dropFirst() } else { lines.append(line) }
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// What says whether an event changed: its lines but BEGIN, END,
    /// DTSTAMP, SEQUENCE and X-TICK-ADDRESS (lines added above an item move
    /// its address, not it).
    private static func changeContent(_ lines: [String]) -> [String] {
        lines.filter {
            !["BEGIN:VEVENT", "END:VEVENT"].contains($0) && !$0.hasPrefix("DTSTAMP:") && !$0.hasPrefix("SEQUENCE:")
                && !$0.hasPrefix("X-TICK-ADDRESS:")
        }
    }

    /// Appends `;VALUE=DATE:20261124`, or `:20261124T143000` (floating
    /// local time) with a time.
    fileprivate static func appendDateValue(_ date: TaskDate, to bytes: inout ByteOutput) {
        guard let minutes = date.minuteOfDay else {
            bytes.append(";VALUE=DATE:")
            appendBasicDay(date, to: &bytes)
            return
        }
        bytes.append(UInt8(ascii: ":"))
        appendBasicDay(date, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendTwoDigits(minutes / 60, to: &bytes)
        appendTwoDigits(minutes % 60, to: &bytes)
        bytes.append("00")
    }

    /// Appends the day in iCalendar's basic form, `20261124`: its ISO form
    /// (`TaskDate.isoString`) without the dashes and without a time.
    fileprivate static func appendBasicDay(_ date: TaskDate, to bytes: inout ByteOutput) {
        let year = date.year
        if year > 9999 { bytes.append(UInt8(0x30 + year / 10000 % 10)) }
        appendTwoDigits(year / 100, to: &bytes)
        appendTwoDigits(year % 100, to: &bytes)
        appendTwoDigits(date.month, to: &bytes)
        appendTwoDigits(date.day, to: &bytes)
    }

    private static func appendTwoDigits(_ value: Int, to bytes: inout ByteOutput) {
        bytes.append(UInt8(0x30 + value / 10 % 10))
        bytes.append(UInt8(0x30 + value % 10))
    }

    /// A TEXT value escaped as RFC 5545 §3.3.11 requires. Line breaks
    /// become `\\n`; control characters TEXT does not allow (every one but
    /// the tab: ESC, DEL, the other C0 controls, and the C1 controls) are
    /// dropped.
    public static func escaped(_ text: String) -> String {
        var bytes = ByteOutput(capacity: text.utf8.count + 8)
        text.withUTF8Bytes { ContentLines.appendEscaped($0, to: &bytes) }
        return String(decoding: bytes.bytes, as: UTF8.self)
    }

    /// One content line, folded so that no line exceeds 75 octets (the CRLF
    /// not counted); continuation lines start with a space.
    public static func fold(_ line: String) -> String {
        var output = ByteOutput(capacity: line.utf8.count + 8)
        appendFolded(line, to: &output)
        let folded = output.release()
        defer { folded.deallocate() }
        return String(decoding: folded.written, as: UTF8.self)
    }

    /// Appends `fold(line)`.
    static func appendFolded(_ line: String, to output: inout ByteOutput) {
        line.withUTF8Bytes { appendFolded($0, to: &output) }
    }

    /// Appends the content line `bytes` folded, and its CRLF.
    fileprivate static func appendFolded(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout ByteOutput) {
        if bytes.count <= 75 {
            output.append(bytes)
        } else {
            // Cut before the character that would pass 75 octets (a
            // continuation line's space counts as one): at the 75th octet's
            // end, moved back to the start of the character it is in (a
            // UTF-8 continuation byte, 10xxxxxx, never starts one; three at
            // most follow a lead byte).
            var lineStart = 0
            var limit = 75
            while bytes.count - lineStart > limit {
                var cut = lineStart + limit
                var backed = 0
                while backed < 3, bytes[cut] & 0xC0 == 0x80 {
                    cut -= 1
                    backed += 1
                }
                if bytes[cut] & 0xC0 == 0x80 { cut = lineStart + limit } // not UTF-8: cut at the limit
                output.append(UnsafeBufferPointer(rebasing: bytes[lineStart..<cut]))
                output.append(StaticString("\r\n "))
                lineStart = cut
                limit = 74
            }
            output.append(UnsafeBufferPointer(rebasing: bytes[lineStart...]))
        }
        output.append(StaticString("\r\n"))
    }
}

/// The content lines of components, written as bytes straight from the
/// item's bytes onto the end of a run's output (`appending`), TEXT values
/// escaped as they are written, each line folded and ended with its CRLF
/// as it ends (`end()`). (Building each line as a `String` was most of an
/// export's time; lines kept apart, then folded into the calendar, were
/// copied twice; each component written apart, then copied into its run,
/// was a twentieth of it.)
struct ContentLines: ~Copyable {
    /// The lines written so far, folded, each with its CRLF, and the line
    /// being written.
    fileprivate(set) var output = ByteOutput(capacity: 1024)
    /// Where the line being written starts in `output`.
    private var lineStart = 0

    /// Lines written by `body` straight onto the end of `output`: the
    /// buffer is lent to the lines and given back, so components are not
    /// written elsewhere first and copied.
    static func appending(to output: inout ByteOutput, _ body: (inout ContentLines) -> Void) {
        var lines = ContentLines(output: ByteOutput(capacity: 0))
        swap(&lines.output, &output)
        lines.lineStart = lines.output.count
        body(&lines)
        swap(&lines.output, &output)
    }

    /// Lines of their own: an event's, compared with the one written before (`strings`).
    init() {}

    private init(output: consuming ByteOutput) {
        self.output = output
    }

    /// Starts a line with `name` (up to its colon, or the parameters a
    /// value follows); the value is appended to `output`, then `end()`.
    /// (Inlined, as `end` and `line` are: the literal's length is then a
    /// constant and its copy a few moves, not a call to copy memory.)
    @inline(__always)
    mutating func start(_ name: StaticString) {
        output.append(name)
    }

    /// Ends the line being written: folded when it is longer than 75
    /// octets, then its CRLF.
    @inline(__always)
    mutating func end() {
        if output.count - lineStart > 75 {
            foldLine()
        } else {
            output.append(StaticString("\r\n"))
        }
        lineStart = output.count
    }

    /// Rare (long titles and notes): the line is taken out and written
    /// again folded, with its CRLF.
    @inline(never)
    private mutating func foldLine() {
        let line = output.withBytes { Array(UnsafeBufferPointer(rebasing: $0[lineStart...])) }
        output.removeAll(after: lineStart)
        line.withUnsafeBufferPointer { ICalendarWriter.appendFolded($0, to: &output) }
    }

    /// A line as it is: `BEGIN:VTODO`. (No overload takes a `String`: a
    /// literal would pick it, and each line would go through a `String`.)
    @inline(__always)
    mutating func line(_ text: StaticString) {
        start(text)
        end()
    }

    /// A line of a name and a value that needs no escaping (a date, a
    /// number, a rule).
    mutating func line(_ name: StaticString, _ value: String) {
        start(name)
        value.withUTF8Bytes { output.append($0) }
        end()
    }

    /// A line of a name and a number in decimal.
    mutating func number(_ name: StaticString, _ value: Int) {
        start(name)
        output.appendDecimal(value)
        end()
    }

    /// A line of a name and a TEXT value, escaped.
    mutating func text(_ name: StaticString, _ value: UnsafeBufferPointer<UInt8>) {
        start(name)
        Self.appendEscaped(value, to: &output)
        end()
    }

    /// A line of a name and an item's text as a TEXT value: as it is when
    /// the cache says it is plain ASCII (`EncodedText.isPlainASCII`: most
    /// titles), else escaped.
    mutating func text(_ name: StaticString, _ value: EncodedText) {
        guard value.isPlainASCII else { return text(name, value.bytes) }
        start(name)
        output.append(value.bytes)
        end()
    }

    mutating func text(_ name: StaticString, _ value: String) {
        start(name)
        value.withUTF8Bytes { Self.appendEscaped($0, to: &output) }
        end()
    }

    /// `DUE;VALUE=DATE:20261124` or `DUE:20261124T143000`.
    mutating func date(_ name: StaticString, _ date: TaskDate) {
        start(name)
        ICalendarWriter.appendDateValue(date, to: &output)
        end()
    }

    /// A day as a UTC date-time (COMPLETED and CREATED must be UTC): its
    /// noon, so that it shows as the same day in every time zone within
    /// ±12 hours.
    mutating func utcNoon(_ name: StaticString, _ date: TaskDate) {
        start(name)
        ICalendarWriter.appendBasicDay(date, to: &output)
        start("T120000Z")
        end()
    }

    /// `CATEGORIES:` and the item's tags, each escaped, joined by commas.
    mutating func categories(_ item: EncodedListedItem) {
        start("CATEGORIES:")
        var isFirst = true
        item.forEachTag { tag in
            if !isFirst { output.append(UInt8(ascii: ",")) }
            isFirst = false
            Self.appendEscaped(tag.bytes, to: &output)
        }
        end()
    }

    /// The lines as strings, unfolded (for comparing an event with the one
    /// written before, which `ICalendarWriter.events(in:)` unfolds).
    var strings: [String] { ICalendarWriter.unfolded(output.withBytes { String(decoding: $0, as: UTF8.self) }) }

    /// True for each byte `appendEscaped` may change: C0 controls, `\\`,
    /// `;`, `,`, DEL and 0xC2. A bit for each byte below 0x80, in two
    /// constant words (a table in a `static let` cost a `swift_once` call
    /// for every value written).
    @inline(__always) private static func mayEscape(_ byte: UInt8) -> Bool {
        // Bits 0x00–0x1F, 0x2C (`,`) and 0x3B (`;`); then 0x5C (`\\`) and 0x7F, less 0x40.
        let below40: UInt64 = 0x0800_1000_FFFF_FFFF
        let below80: UInt64 = 0x8000_0000_1000_0000
        switch byte {
        case 0..<0x40: return below40 >> UInt64(byte) & 1 != 0
        case 0x40..<0x80: return below80 >> UInt64(byte - 0x40) & 1 != 0
        default: return byte == 0xC2
        }
    }

    /// True when no byte of `text` is one `appendEscaped` may change
    /// (`mayEscape`), tested eight bytes at a time (`WordBytes`). An
    /// export scans every title and note with it.
    private static func isPlain(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if let base = text.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= text.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let escaped =
                    WordBytes.below(0x20, word) | WordBytes.equal(0x2C, word) | WordBytes.equal(0x3B, word)
                    | WordBytes.equal(0x5C, word) | WordBytes.equal(0x7F, word) | WordBytes.equal(0xC2, word)
                if escaped != 0 { return false }
                index += 8
            }
        }
        while index < text.count {
            if mayEscape(text[index]) { return false }
            index += 1
        }
        return true
    }

    /// Appends `text` escaped as a TEXT value (`ICalendarWriter.escaped`),
    /// byte by byte: `\\`, `\;`, `\,` escaped, a line break (CR, LF or CR LF)
    /// as `\\n`, the tab kept, other C0 controls, DEL and the C1 controls
    /// (U+0080–U+009F, `C2 80`–`C2 9F` in UTF-8) dropped.
    static func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout ByteOutput) {
        // Most text has nothing to escape: a scan says so, a bit test a
        // byte. (0xC2 leads every C1 control, and more.)
        if isPlain(text) { return bytes.append(text) }
        var index = 0
        while index < text.count {
            let byte = text[index]
            defer { index += 1 }
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x0D: bytes.append("\\n")
            case 0x0A: if index == 0 || text[index - 1] != 0x0D { bytes.append("\\n") }
            case 0x09: bytes.append(byte)
            case 0x00..<0x20, 0x7F: break
            case 0xC2 where index + 1 < text.count && (0x80...0x9F).contains(text[index + 1]):
                index += 1 // a C1 control: both of its bytes go
            default: bytes.append(byte)
            }
        }
    }
}
