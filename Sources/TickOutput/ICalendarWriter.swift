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
        var calendar = ""
        write(items, stamp: stamp) { calendar += $0 }
        return calendar
    }

    /// Writes the calendar piece by piece, a component at a time, so that
    /// the whole text is never in memory.
    public static func write(_ items: [EncodedListedItem], stamp: String, to emit: (String) -> Void) {
        emit(header.map(fold).joined())
        writeComponents(items, to: emit) { item, uids in todo(item, stamp: stamp, uids: &uids) }
        emit(fold("END:VCALENDAR"))
    }

    /// Writes the component of each item (`component` gives its lines, or
    /// none to leave it out), folded, in order: chunks of items are written
    /// on every core and emitted as soon as they and the chunks before them
    /// are done (`Parallel.orderedChunks`). Each chunk counts its own UIDs:
    /// a UID depends only on the item and its list.
    private static func writeComponents(
        _ items: [EncodedListedItem], to emit: (String) -> Void,
        component: (EncodedListedItem, inout UIDs) -> [String]
    ) {
        let chunkSize = 256
        Parallel.orderedChunks((items.count + chunkSize - 1) / chunkSize, inFlight: 8, capacity: chunkSize * 512) { chunk, output in
            var uids = UIDs()
            let chunkItems = items[chunk * chunkSize..<min(items.count, (chunk + 1) * chunkSize)]
            for item in chunkItems {
                for line in component(item, &uids) { appendFolded(line, to: &output) }
            }
            chunkItems.releaseCachePages()
        } deliver: {
            emit(String(decoding: $0, as: UTF8.self))
        }
    }

    private static let header = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:\(productID)", "CALSCALE:GREGORIAN"]

    /// The DTSTAMP for a pinned day: its midnight in UTC.
    public static func stamp(for day: TaskDate) -> String {
        basicDay(day) + "T000000Z"
    }

    /// The UID of an item: `ID@tick` for an item with a block id, else
    /// `HASH@tick`, HASH the FNV-1a hash (16 hex digits) of the list's path,
    /// the title and how many items above it in the file have the same title,
    /// joined by NUL: it survives edits of the item's other fields and lines
    /// added or removed around it.
    public static func uid(_ listed: EncodedListedItem) -> String {
        var uids = UIDs()
        return uids.uid(listed)
    }

    /// The UIDs of one export: how many items above each one share its
    /// title is counted once per list, in one pass, not per item.
    struct UIDs {
        private var earlierByList: [ObjectIdentifier: [Int]] = [:]

        mutating func uid(_ item: EncodedListedItem) -> String {
            if let id = item.id { return "\(id.string)@tick" }
            let earlier = earlierCounts(item.document)[item.index]
            let hex = String(FNV1a.hash("\(item.listPath)\u{0}\(item.title.string)\u{0}\(earlier)"), radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex + "@tick"
        }

        /// For each item of `document`, how many items above it have its title.
        private mutating func earlierCounts(_ document: EncodedDocument) -> [Int] {
            if let known = earlierByList[ObjectIdentifier(document)] { return known }
            var seen: [String: Int] = [:]
            let counts = document.items().map { item in
                let title = item.title.string
                defer { seen[title, default: 0] += 1 }
                return seen[title] ?? 0
            }
            earlierByList[ObjectIdentifier(document)] = counts
            return counts
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

    private static func todo(_ item: EncodedListedItem, stamp: String, uids: inout UIDs) -> [String] {
        var lines = ["BEGIN:VTODO", "UID:\(escaped(uids.uid(item)))", "DTSTAMP:\(stamp)"]
        lines.append("SUMMARY:\(escaped(item.title.string))")
        if let notes = item.notes?.string { lines.append("DESCRIPTION:\(escaped(notes))") }
        // DTSTART only when it agrees with DUE (same value type, not later), as RFC 5545 requires.
        var hasStart = false
        let due = item.date(.due)
        if let start = item.date(.start), due.map({ start.compareDay($0) <= 0 && ($0.minuteOfDay == nil) == (start.minuteOfDay == nil) }) ?? true {
            lines.append("DTSTART" + dateValue(start))
            hasStart = true
        }
        if let due { lines.append("DUE" + dateValue(due)) }
        if let priority = priority(item) { lines.append("PRIORITY:\(priority)") }
        switch item.status {
        case .open: lines.append("STATUS:NEEDS-ACTION")
        case .inProgress: lines.append("STATUS:IN-PROCESS")
        case .done:
            lines.append("STATUS:COMPLETED")
            if let done = item.date(.done) { lines.append("COMPLETED:\(utcNoon(done))") }
        case .cancelled: lines.append("STATUS:CANCELLED")
        }
        if let created = item.date(.created) { lines.append("CREATED:\(utcNoon(created))") }
        if item.hasTags { lines.append("CATEGORIES:" + item.tags.map { escaped($0.string) }.joined(separator: ",")) }
        if let parent = item.parentIndex {
            let parentItem = EncodedListedItem(document: item.document, index: parent, listRank: item.listRank)
            lines.append("RELATED-TO;RELTYPE=PARENT:\(escaped(uids.uid(parentItem)))")
        }
        if let every = item.every?.string {
            // A recurrence set is generated from DTSTART, so RRULE needs one.
            if hasStart, let rule = RecurrenceRule(every) { lines.append("RRULE:\(rule.rrule)") }
            lines.append("X-TICK-EVERY:\(escaped(every))")
        }
        lines.append("X-TICK-LIST:\(escaped(item.listName))")
        lines.append("X-TICK-ADDRESS:\(escaped(item.address))")
        lines += reminder(item)
        lines.append("END:VTODO")
        return lines
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
        var calendar = ""
        writeEvents(items, stamp: stamp, previous: previous, alarm: alarm) { calendar += $0 }
        return calendar
    }

    /// Writes the calendar of events piece by piece, as `write(_:stamp:to:)`.
    public static func writeEvents(
        _ items: [EncodedListedItem], stamp: String, previous: [String: (sequence: Int, content: [String])],
        alarm: Int?, to emit: (String) -> Void
    ) {
        emit(header.map(fold).joined())
        writeComponents(items, to: emit) { listed, uids in
            guard listed.status.isOpen, listed.date(.due) != nil else { return [] }
            let uid = uids.uid(listed)
            var component = event(listed, uid: uid, stamp: stamp, alarm: alarm)
            let sequence = previous[uid].map { $0.content == changeContent(component) ? $0.sequence : $0.sequence + 1 } ?? 0
            component.insert("SEQUENCE:\(sequence)", at: 3)
            return component
        }
        emit(fold("END:VCALENDAR"))
    }

    /// An event's lines without SEQUENCE, which `writeEvents` adds after DTSTAMP.
    private static func event(_ item: EncodedListedItem, uid: String, stamp: String, alarm: Int?) -> [String] {
        guard let due = item.date(.due) else { return [] }
        let title = item.title.string
        var lines = ["BEGIN:VEVENT", "UID:\(escaped(uid))", "DTSTAMP:\(stamp)"]
        lines.append("SUMMARY:\(escaped(title))")
        if let notes = item.notes?.string { lines.append("DESCRIPTION:\(escaped(notes))") }
        lines.append("DTSTART" + dateValue(due))
        if due.minuteOfDay != nil {
            lines.append("DURATION:PT1H")
        } else {
            lines.append("DTEND" + dateValue(due.adding(1, .day)))
            lines.append("TRANSP:TRANSPARENT") // an all-day reminder, not a busy day
        }
        if let priority = priority(item) { lines.append("PRIORITY:\(priority)") }
        if item.hasTags { lines.append("CATEGORIES:" + item.tags.map { escaped($0.string) }.joined(separator: ",")) }
        // A rule that counts from the completion date (`when done`) has no fixed dates to list.
        if let every = item.every?.string, let rule = RecurrenceRule(every), !rule.whenDone { lines.append("RRULE:\(rule.rrule)") }
        lines.append("X-TICK-LIST:\(escaped(item.listName))")
        lines.append("X-TICK-ADDRESS:\(escaped(item.address))")
        if let alarm {
            let trigger = alarm % 1440 == 0 ? "-P\(alarm / 1440)D" : alarm % 60 == 0 ? "-PT\(alarm / 60)H" : "-PT\(alarm)M"
            lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(escaped(title))", "TRIGGER:\(trigger)", "END:VALARM"]
        }
        lines += reminder(item)
        lines.append("END:VEVENT")
        return lines
    }

    /// A VALARM at the item's reminder (`remind`, docs/FORMAT.md), when it
    /// has one. RFC 5545 wants an absolute trigger in UTC, so the
    /// reminder's time, which is local like every time in a list (09:00
    /// for a reminder without one), is converted with the time zone tick
    /// runs in (`TZ`).
    static func reminder(_ item: EncodedListedItem) -> [String] {
        guard let remind = item.date(.remind) else { return [] }
        let minute = remind.minuteOfDay ?? 9 * 60
        let local = DateComponents(year: remind.year, month: remind.month, day: remind.day, hour: minute / 60, minute: minute % 60)
        guard let instant = localCalendar.date(from: local),
            case let parts = TaskDate.calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant),
            let year = parts.year, let month = parts.month, let day = parts.day, let hour = parts.hour, let minutes = parts.minute
        else { return [] }
        // `TaskDate.calendar` is UTC: the reminder's moment as a UTC date and time.
        let utc = TaskDate(year: year, month: month, day: day, minuteOfDay: hour * 60 + minutes)
        return [
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(escaped(item.title.string))", "TRIGGER;VALUE=DATE-TIME" + dateValue(utc) + "Z",
            "END:VALARM",
        ]
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
        // Unfold: a line that starts with a space continues the one before.
        var lines: [String] = []
        for line in previous.components(separatedBy: "\r\n") {
            if line.hasPrefix(" "), !lines.isEmpty { lines[lines.count - 1] += line.dropFirst() } else { lines.append(line) }
        }
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

    /// What says whether an event changed: its lines but BEGIN, END,
    /// DTSTAMP, SEQUENCE and X-TICK-ADDRESS (lines added above an item move
    /// its address, not it).
    private static func changeContent(_ lines: [String]) -> [String] {
        lines.filter {
            !["BEGIN:VEVENT", "END:VEVENT"].contains($0) && !$0.hasPrefix("DTSTAMP:") && !$0.hasPrefix("SEQUENCE:")
                && !$0.hasPrefix("X-TICK-ADDRESS:")
        }
    }

    /// `;VALUE=DATE:20261124`, or `:20261124T143000` (floating local time) with a time.
    private static func dateValue(_ date: TaskDate) -> String {
        guard let minutes = date.minuteOfDay else { return ";VALUE=DATE:" + basicDay(date) }
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return ":" + basicDay(date) + "T" + twoDigits(minutes / 60) + twoDigits(minutes % 60) + "00"
    }

    /// The day in iCalendar's basic form, `20261124`: its ISO form without
    /// the dashes (and without a time).
    private static func basicDay(_ date: TaskDate) -> String {
        String(decoding: date.isoString.utf8.prefix { $0 != UInt8(ascii: "T") }.filter { $0 != UInt8(ascii: "-") }, as: UTF8.self)
    }

    /// A day as a UTC date-time (COMPLETED and CREATED must be UTC): its noon,
    /// so that it shows as the same day in every time zone within ±12 hours.
    private static func utcNoon(_ date: TaskDate) -> String {
        basicDay(date) + "T120000Z"
    }

    /// A TEXT value escaped as RFC 5545 §3.3.11 requires. Line breaks
    /// become `\\n`; control characters TEXT does not allow (every one but
    /// the tab: ESC, DEL, the other C0 controls, and the C1 controls) are
    /// dropped.
    public static func escaped(_ text: String) -> String {
        // Most text has nothing to escape: a byte scan says so without
        // building a new string. (0xC2 leads every C1 control, and more.)
        let isPlain = text.withUTF8Bytes { bytes in
            bytes.allSatisfy { byte in
                byte >= 0x20 && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: ";") && byte != UInt8(ascii: ",") && byte != 0x7F && byte != 0xC2
            }
        }
        if isPlain { return text }
        var output = String.UnicodeScalarView()
        var previous: Unicode.Scalar? = nil
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            switch scalar {
            case "\\": output.append(contentsOf: "\\\\".unicodeScalars)
            case ";": output.append(contentsOf: "\\;".unicodeScalars)
            case ",": output.append(contentsOf: "\\,".unicodeScalars)
            case "\r": output.append(contentsOf: "\\n".unicodeScalars)
            case "\n": if previous != "\r" { output.append(contentsOf: "\\n".unicodeScalars) }
            case "\t": output.append(scalar)
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): break
            default: output.append(scalar)
            }
        }
        return String(output)
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
        line.withUTF8Bytes { bytes in
            guard bytes.count > 75 else { return output.append(bytes) }
            // Cut before the character that would pass 75 octets; a
            // continuation line's space counts as one.
            var lineStart = 0
            var count = 0
            var index = 0
            while index < bytes.count {
                let lead = bytes[index]
                let length = min(lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1, bytes.count - index)
                if count + length > 75 {
                    output.append(UnsafeBufferPointer(rebasing: bytes[lineStart..<index]))
                    output.append(StaticString("\r\n "))
                    lineStart = index
                    count = 1
                }
                count += length
                index += length
            }
            output.append(UnsafeBufferPointer(rebasing: bytes[lineStart...]))
        }
        output.append(StaticString("\r\n"))
    }
}
