import TickModel

/// How many of a list's items count toward each of the home screen's
/// numbers on one day: open and done items, and the open items that have a
/// due date, are due on or before the day, and are due before it (dates
/// compared as days). The smart groups are defined by it
/// (`SmartGroup.count(in:)`), so an item's membership and a list's counts
/// cannot disagree.
public struct ListTally: Sendable, Equatable {
    public var open = 0
    public var done = 0
    public var openDue = 0
    public var openDueByToday = 0
    public var openOverdue = 0

    public init() {}

    /// The tally of one item with `status` and `due` on `today`.
    public init(status: TaskStatus, due: TaskDate?, today: TaskDate) {
        if status.isOpen {
            open = 1
            if let due {
                let order = due.compareDay(today)
                openDue = 1
                openDueByToday = order <= 0 ? 1 : 0
                openOverdue = order < 0 ? 1 : 0
            }
        } else if status == .done {
            done = 1
        }
    }

    public static func += (total: inout ListTally, other: ListTally) {
        total.open += other.open
        total.done += other.done
        total.openDue += other.openDue
        total.openDueByToday += other.openDueByToday
        total.openOverdue += other.openOverdue
    }
}

/// The due days of a list's open items, in order, as the parse cache's
/// index keeps them (`ListSummary`): each the difference from the one
/// before (`TaskDate.packed.day`, which orders as the days do), as
/// `ByteWriter.int` writes numbers (zigzag LEB128). A
/// list read from the cache is so tallied for any day without its payload.
package struct OpenDueDays: Sendable, Equatable {
    package let encoded: [UInt8]

    package init(encoded: [UInt8]) { self.encoded = encoded }

    /// The days (`TaskDate.packed.day`) of the open items' due dates, in any order.
    package init(days: [UInt32]) {
        var writer = ByteWriter()
        var previous: UInt32 = 0
        for day in days.sorted() {
            writer.int(Int(day - previous))
            previous = day
        }
        encoded = writer.bytes
    }

    /// The tally of open items with a due date on `today`, added to `tally`;
    /// false, and `tally` as it was, when the bytes do not decode.
    func add(to tally: inout ListTally, today: TaskDate) -> Bool {
        let todayDay = Int(today.packed.day)
        return encoded.withUnsafeBufferPointer { bytes in
            var reader = ByteReader(bytes, range: 0..<bytes.count)
            var added = ListTally()
            var day = 0
            while reader.position < bytes.count {
                guard let difference = try? reader.count(limit: Int(UInt32.max)) else { return false }
                day += difference
                added.openDue += 1
                if day <= todayDay { added.openDueByToday += 1 }
                if day < todayDay { added.openOverdue += 1 }
            }
            tally += added
            return true
        }
    }
}
