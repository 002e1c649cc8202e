import TickModel

/// A recurrence rule, read from the English grammar Obsidian Tasks uses (its
/// `rrule` library's) or from the tick dialect's one-word spelling of it.
///
/// The grammar (docs/FORMAT.md, "Recurrence rules"): `every [N] day(s) |
/// week(s) | month(s) | year(s)`, `every weekday`, `every MONDAY[, DAY...]`,
/// `every MONTH[ and MONTH...]`, each optionally followed by `on ...` with
/// weekdays, ordinal weekdays (`the 2nd Wednesday`, `the last Friday`,
/// `the 2nd last Friday`), days of the month (`the 1st and 15th`, `the
/// last`) and month names, and by `when done`. The tick dialect writes the
/// words joined by hyphens (`every:month-on-the-2nd-wednesday`) and keeps its
/// short forms (`every:2w`, `every:daily`).
///
/// Next dates follow Obsidian Tasks (src/Task/Recurrence.ts with rrule's
/// RFC 5545 semantics): the first matching day after the reference day, the
/// rule's periods counted from it; a plain `every N months` or `every N
/// years` adds to the date and clamps a missing day to the month's end.
public struct RecurrenceRule: Sendable, Hashable {
    /// How long one period of the rule is.
    public enum Frequency: Sendable, Hashable { case daily, weekly, monthly, yearly }

    /// A weekday in a rule, with an ordinal within the month (or year) when
    /// one was written: `2nd Wednesday` is (3, 2), `last Friday` (5, -1).
    public struct Weekday: Sendable, Hashable {
        /// 1 = Monday ... 7 = Sunday.
        public var day: Int
        /// 1...5 or -5...-1 in a month; up to ±53 in a year; nil for every such weekday.
        public var ordinal: Int?

        public init(_ day: Int, ordinal: Int? = nil) {
            self.day = day
            self.ordinal = ordinal
        }
    }

    public var frequency: Frequency
    /// Every how many periods (1...`maximumInterval`).
    public var interval: Int
    public var weekdays: [Weekday]
    /// Days of the month; negative counts from the end (-1 is the last).
    public var monthDays: [Int]
    /// 1 = January ... 12 = December.
    public var months: [Int]
    /// `when done`: the next date counts from the completion date.
    public var whenDone: Bool

    /// The largest interval read from a file.
    public static let maximumInterval = 1000
    /// No next occurrence is made after this day.
    public static let lastDate = TaskDate.lastWritable.dayOnly

    public init(
        frequency: Frequency, interval: Int = 1, weekdays: [Weekday] = [], monthDays: [Int] = [], months: [Int] = [],
        whenDone: Bool = false
    ) {
        self.frequency = frequency
        self.interval = interval
        self.weekdays = weekdays
        self.monthDays = monthDays
        self.months = months
        self.whenDone = whenDone
    }

    /// The rule of `text`, in any dialect; nil when it cannot be read.
    public init?(_ text: String) {
        guard case .success(let rule) = Self.parse(text) else { return nil }
        self = rule
    }

    /// Why a rule cannot be read: a short phrase for a diagnostic.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// The start of every diagnostic about an unreadable rule (`tick done`
    /// finds them by it).
    public static let diagnosticPrefix = "cannot read the recurrence rule"

    /// The diagnostic's message for `text` that failed with `error`.
    /// `hint` is a suggestion for a likely typo (` (did you mean every:2w?)`), or empty.
    static func diagnostic(_ text: String, _ error: ParseError, hint: String = "") -> String {
        "\(diagnosticPrefix) '\(text)': \(error)\(hint); write e.g. every week on Monday, every month on the last, every 2 weeks when done"
    }

    // MARK: Reading

    /// The words of the grammar, as the parser sees them.
    private enum Word: Equatable {
        case every
        case number(Int)
        case ordinal(Int)
        case last, day, weekday, week, month, year
        case dayName(Int)
        case monthName(Int)
        case on, the, and, when, done
        case unsupported(String)
    }

    private static let dayNames: [(Int, [String])] = [
        (1, ["mo", "mon", "monday"]), (2, ["tu", "tue", "tues", "tuesday"]),
        (3, ["we", "wed", "wedn", "wednesday"]), (4, ["th", "thu", "thur", "thurs", "thursday"]),
        (5, ["fr", "fri", "friday"]), (6, ["sa", "sat", "saturday"]), (7, ["su", "sun", "sunday"]),
    ]
    private static let monthNames: [(Int, [String])] = [
        (1, ["jan", "january"]), (2, ["feb", "february"]), (3, ["mar", "march"]), (4, ["apr", "april"]),
        (5, ["may"]), (6, ["jun", "june"]), (7, ["jul", "july"]), (8, ["aug", "august"]),
        (9, ["sep", "sept", "september"]), (10, ["oct", "october"]), (11, ["nov", "november"]), (12, ["dec", "december"]),
    ]

    /// The grammar word `text` (lowercased, no commas) is, or nil.
    private static func word(_ text: String) -> Word? {
        switch text {
        case "every": return .every
        case "last": return .last
        case "day", "days": return .day
        case "weekday", "weekdays": return .weekday
        case "week", "weeks": return .week
        case "month", "months": return .month
        case "year", "years": return .year
        case "on", "in": return .on
        case "the": return .the
        case "and", "or": return .and
        case "when": return .when
        case "done": return .done
        case "first": return .ordinal(1)
        case "second": return .ordinal(2)
        case "third": return .ordinal(3)
        case "fourth": return .ordinal(4)
        case "fifth": return .ordinal(5)
        case "at", "for", "until", "til", "hour", "hours", "minute", "minutes", "time", "times": return .unsupported(text)
        default: break
        }
        let bytes = Array(text.utf8)
        let digits = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }
        if !digits.isEmpty, digits.first != 0x30, digits.count <= 4 {
            let number = Int(String(decoding: digits, as: UTF8.self))!
            let suffix = String(decoding: bytes.dropFirst(digits.count), as: UTF8.self)
            switch suffix {
            case "": return .number(number)
            case "st", "nd", "rd", "th", ".": return .ordinal(number)
            default: return nil
            }
        }
        var name = text
        if name.count > 3, name.hasSuffix("s"), !name.hasSuffix("ss") { name.removeLast() } // `mondays`
        if let day = dayNames.first(where: { $0.1.contains(name) || $0.1.contains(text) }) { return .dayName(day.0) }
        if let month = monthNames.first(where: { $0.1.contains(text) }) { return .monthName(month.0) }
        return nil
    }

    /// True when `text`, a word of a title, can be part of a rule: the
    /// scanner of `🔁 RULE` ends the rule before the first word that is not.
    static func isRuleWord(_ text: Substring) -> Bool {
        let parts = text.lowercased().split(separator: ",", omittingEmptySubsequences: true)
        if parts.isEmpty { return text.allSatisfy { $0 == "," } && !text.isEmpty }
        return parts.allSatisfy { word(String($0)) != nil }
    }

    /// Reads `text` in any dialect: English words separated by spaces (or,
    /// in the tick dialect, by hyphens), commas or `and`.
    public static func parse(_ text: String) -> Result<RecurrenceRule, ParseError> {
        guard text.utf8.count <= 200 else { return .failure(ParseError(description: "it is longer than 200 characters")) }
        var lowered = text.lowercased()
        if !lowered.contains(" ") { lowered = lowered.replacingOccurrences(of: "-", with: " ") }
        let pieces = lowered.replacingOccurrences(of: ",", with: " , ")
            .split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard !pieces.isEmpty else { return .failure(ParseError(description: "it is empty")) }
        // The tick dialect's short forms: `2w`, `daily`, `every weekly`.
        let bare = pieces.first == "every" ? Array(pieces.dropFirst()) : pieces
        if let short = shortForm(bare) { return .success(short) }
        var words: [Word] = []
        for piece in pieces {
            if piece == "," {
                if words.last != .and { words.append(.and) }
                continue
            }
            guard let word = word(piece) else { return .failure(ParseError(description: "'\(piece)' is not a word of the grammar")) }
            if case .unsupported(let name) = word {
                return .failure(ParseError(description: "'\(name)' is not supported: rules have no times of day, counts or end dates"))
            }
            if word == .and && words.last == .and { continue }
            words.append(word)
        }
        var parser = Parser(words: words)
        do {
            var rule = try parser.rule()
            try rule.normalize()
            return .success(rule)
        } catch let error as ParseError {
            return .failure(error)
        } catch {
            return .failure(ParseError(description: "\(error)"))
        }
    }

    /// `2w`, `3d`, `daily`, `weekly`, `monthly`, `yearly`, `annually`, each
    /// with an optional `when done`.
    private static func shortForm(_ words: [String]) -> RecurrenceRule? {
        var words = words
        var whenDone = false
        if words.suffix(2) == ["when", "done"] {
            words.removeLast(2)
            whenDone = true
        }
        guard words.count == 1, let word = words.first else { return nil }
        let frequencies: [String: Frequency] = [
            "daily": .daily, "weekly": .weekly, "monthly": .monthly,
            "yearly": .yearly, "annually": .yearly,
        ]
        if let frequency = frequencies[word] { return RecurrenceRule(frequency: frequency, whenDone: whenDone) }
        guard let unit = word.last, let frequency = ["d": Frequency.daily, "w": .weekly, "m": .monthly, "y": .yearly][unit],
            let number = Int(word.dropLast()), word.first != "0", word.first != "+",
            (1...maximumInterval).contains(number)
        else { return nil }
        return RecurrenceRule(frequency: frequency, interval: number, whenDone: whenDone)
    }

    /// A recursive-descent reader of the words, after rrule's English grammar.
    private struct Parser {
        let words: [Word]
        var position = 0

        var current: Word? { position < words.count ? words[position] : nil }

        mutating func accept(_ word: Word) -> Bool {
            guard current == word else { return false }
            position += 1
            return true
        }

        func fail(_ text: String) -> ParseError { ParseError(description: text) }

        func describe(_ word: Word?) -> String {
            switch word {
            case nil: "the end"
            case .every: "'every'"
            case .number(let n): "'\(n)'"
            case .ordinal(let n): "'\(n)th'"
            case .last: "'last'"
            case .day: "'day'"
            case .weekday: "'weekday'"
            case .week: "'week'"
            case .month: "'month'"
            case .year: "'year'"
            case .dayName(let d): "'\(RecurrenceRule.weekdayName(d))'"
            case .monthName(let m): "'\(RecurrenceRule.monthName(m))'"
            case .on: "'on'"
            case .the: "'the'"
            case .and: "'and'"
            case .when: "'when'"
            case .done: "'done'"
            case .unsupported(let text): "'\(text)'"
            }
        }

        mutating func rule() throws -> RecurrenceRule {
            _ = accept(.every)
            var rule = RecurrenceRule(frequency: .daily)
            if case .number(let count) = current {
                guard (1...RecurrenceRule.maximumInterval).contains(count) else {
                    throw fail("the interval \(count) is not between 1 and \(RecurrenceRule.maximumInterval)")
                }
                rule.interval = count
                position += 1
            }
            switch current {
            case .day:
                position += 1
                rule.frequency = .daily
            case .weekday:
                position += 1
                rule.frequency = .weekly
                rule.weekdays = (1...5).map { Weekday($0) }
            case .week:
                position += 1
                rule.frequency = .weekly
                try on(&rule)
            case .month:
                position += 1
                rule.frequency = .monthly
                try on(&rule)
            case .year:
                position += 1
                rule.frequency = .yearly
                try on(&rule)
            case .dayName(let day):
                position += 1
                rule.frequency = .weekly
                rule.weekdays = [Weekday(day)]
                while accept(.and) {
                    guard case .dayName(let next) = current else { throw fail("expected a weekday, found \(describe(current))") }
                    rule.weekdays.append(Weekday(next))
                    position += 1
                }
                try monthDays(&rule)
            case .monthName(let month):
                position += 1
                rule.frequency = .yearly
                rule.months = [month]
                while accept(.and) {
                    guard case .monthName(let next) = current else { throw fail("expected a month, found \(describe(current))") }
                    rule.months.append(next)
                    position += 1
                }
                try on(&rule)
            default:
                throw fail("expected day, week, month, year, weekday, a weekday or a month after 'every', found \(describe(current))")
            }
            if accept(.when) {
                guard accept(.done) else { throw fail("'when' must be followed by 'done'") }
                rule.whenDone = true
            }
            guard current == nil else { throw fail("unexpected \(describe(current))") }
            return rule
        }

        /// An ordinal: `2nd`, `second`, `last`, `2nd last`.
        mutating func ordinal() -> Int? {
            switch current {
            case .last:
                position += 1
                return -1
            case .ordinal(let n):
                position += 1
                return accept(.last) ? -n : n
            default:
                return nil
            }
        }

        /// `on the 1st and 15th`, `on the 2nd Wednesday`, `on Monday, Friday`,
        /// `in February the 29th`: none, or a list.
        mutating func on(_ rule: inout RecurrenceRule) throws {
            let sawOn = accept(.on)
            let sawThe = accept(.the)
            guard sawOn || sawThe else { return }
            var items = 0
            repeat {
                if let nth = ordinal() {
                    if case .dayName(let day) = current {
                        position += 1
                        rule.weekdays.append(Weekday(day, ordinal: nth))
                    } else {
                        rule.monthDays.append(nth)
                        _ = accept(.day)
                    }
                } else if case .dayName(let day) = current {
                    position += 1
                    rule.weekdays.append(Weekday(day))
                } else if current == .weekday {
                    position += 1
                    if rule.weekdays.isEmpty { rule.weekdays = (1...5).map { Weekday($0) } }
                } else if case .monthName(let month) = current {
                    position += 1
                    rule.months.append(month)
                } else if current == .the || current == .on {
                    // `on the` again after `and`
                } else {
                    throw fail("expected a day, weekday or month, found \(describe(current))")
                }
                items += 1
            } while accept(.and) || accept(.the) || accept(.on)
            _ = items
        }

        /// After weekday names: `the 13th`, `on the 1st, 15th`.
        mutating func monthDays(_ rule: inout RecurrenceRule) throws {
            _ = accept(.on)
            _ = accept(.the)
            guard let first = ordinal() else {
                if current == .when || current == nil { return }
                throw fail("expected a day of the month, found \(describe(current))")
            }
            rule.monthDays.append(first)
            while accept(.and) {
                guard let next = ordinal() else { throw fail("expected a day of the month, found \(describe(current))") }
                rule.monthDays.append(next)
            }
        }
    }

    /// Checks the numbers and drops what rrule ignores: an ordinal on a
    /// weekday of a daily or weekly rule.
    private mutating func normalize() throws {
        for day in monthDays where day == 0 || abs(day) > 31 {
            throw ParseError(description: "a month has no \(Self.ordinalText(day)) day")
        }
        let inMonth = frequency == .monthly || !months.isEmpty
        for index in weekdays.indices {
            guard let ordinal = weekdays[index].ordinal else { continue }
            if frequency == .daily || frequency == .weekly {
                weekdays[index].ordinal = nil
            } else if ordinal == 0 || abs(ordinal) > (inMonth ? 5 : 53) {
                throw ParseError(
                    description: "a \(inMonth ? "month" : "year") has no \(Self.ordinalText(ordinal)) \(Self.weekdayName(weekdays[index].day))")
            }
        }
        if frequency == .daily, !weekdays.isEmpty || !monthDays.isEmpty || !months.isEmpty {
            throw ParseError(description: "a daily rule takes no days or months")
        }
        weekdays = weekdays.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        monthDays = monthDays.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        months = months.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    // MARK: Next dates

    /// Why there is no next date.
    public enum NextDateFailure: Error, Sendable, Hashable {
        /// The next date would be after 9999-12-31 (or the rule never matches before it).
        case pastLastDate
        /// The date is before 1583, where tick's calendar is not Gregorian.
        case tooEarly
    }

    /// The first day of the rule after `reference` (its periods counted from
    /// `reference`); nil when there is none up to 9999-12-31.
    public func next(after reference: TaskDate) -> TaskDate? {
        try? nextDate(after: reference).get()
    }

    /// `next(after:)` with the reason when there is no next date.
    public func nextDate(after reference: TaskDate) -> Result<TaskDate, NextDateFailure> {
        let start = reference.dayOnly
        guard let startNumber = start.dayNumber else { return .failure(.tooEarly) }
        let limit = Self.lastDate.dayNumber!
        let found: Int?
        if weekdays.isEmpty, monthDays.isEmpty, months.isEmpty, frequency == .monthly || frequency == .yearly {
            // Obsidian Tasks: a plain `every N months/years` moves the date
            // and clamps a day the month lacks (Jan 31 + 1 month = Feb 28/29).
            let monthIndex = start.year * 12 + start.month - 1 + (frequency == .monthly ? interval : 12 * interval)
            let year = monthIndex / 12
            let month = monthIndex % 12 + 1
            guard year <= 9999 else { return .failure(.pastLastDate) }
            let day = min(start.day, TaskDate.daysIn(month: month, year: year))
            found = TaskDate(year: year, month: month, day: day).dayNumber
        } else {
            found = search(after: start, startNumber: startNumber, limit: limit)
        }
        guard let found, found <= limit, let date = TaskDate(dayNumber: found) else { return .failure(.pastLastDate) }
        return .success(TaskDate(year: date.year, month: date.month, day: date.day, minuteOfDay: reference.minuteOfDay))
    }

    /// The rule's filters with rrule's defaults from the start date.
    private struct Filters {
        var weekdays: Set<Int> = []
        var ordinals: [Weekday] = []
        var monthDays: [Int] = []
        var months: Set<Int> = []
        var ordinalsInYear = false

        func matches(_ number: Int, _ date: TaskDate) -> Bool {
            let year = date.year
            let month = date.month
            let day = date.day
            if !months.isEmpty, !months.contains(month) { return false }
            let length = TaskDate.daysIn(month: month, year: year)
            if !monthDays.isEmpty, !monthDays.contains(where: { $0 > 0 ? $0 == day : length + 1 + $0 == day }) { return false }
            let weekday = date.isoWeekday
            if !weekdays.isEmpty, !weekdays.contains(weekday) { return false }
            if !ordinals.isEmpty {
                var index = day
                var span = length
                if ordinalsInYear {
                    let first = TaskDate(year: year, month: 1, day: 1).dayNumber!
                    index = number - first + 1
                    span = TaskDate(year: year + 1, month: 1, day: 1).dayNumber! - first
                }
                let fromStart = (index - 1) / 7 + 1
                let fromEnd = -((span - index) / 7 + 1)
                if !ordinals.contains(where: { $0.day == weekday && ($0.ordinal == fromStart || $0.ordinal == fromEnd) }) {
                    return false
                }
            }
            return true
        }
    }

    /// The first matching day number after `startNumber`, period by period.
    private func search(after start: TaskDate, startNumber: Int, limit: Int) -> Int? {
        var filters = Filters()
        filters.weekdays = Set(weekdays.filter { $0.ordinal == nil }.map(\.day))
        filters.ordinals = weekdays.filter { $0.ordinal != nil }
        filters.monthDays = monthDays
        filters.months = Set(months)
        filters.ordinalsInYear = frequency == .yearly && months.isEmpty
        if weekdays.isEmpty && monthDays.isEmpty {
            // rrule: a rule without days takes them from its start date.
            switch frequency {
            case .daily: break
            case .weekly: filters.weekdays = [start.isoWeekday]
            case .monthly: filters.monthDays = [start.day]
            case .yearly:
                if months.isEmpty { filters.months = [start.month] }
                filters.monthDays = [start.day]
            }
        }
        func check(_ number: Int) -> Int?? {
            if number > limit { return .some(nil) }
            guard number > startNumber, let date = TaskDate(dayNumber: number) else { return nil }
            return filters.matches(number, date) ? .some(number) : nil
        }
        switch frequency {
        case .daily:
            var number = startNumber
            while true {
                number += interval
                if let result = check(number) { return result }
            }
        case .weekly:
            // 400 Gregorian years are exactly 20871 weeks.
            var weekStart = startNumber - (start.isoWeekday - 1)
            for _ in 0...20871 {
                for number in weekStart..<weekStart + 7 { if let result = check(number) { return result } }
                weekStart += 7 * interval
            }
            return nil
        case .monthly, .yearly:
            // The Gregorian calendar repeats every 400 years (4800 months):
            // a rule that matches nothing in that many periods never will.
            var monthIndex = start.year * 12 + start.month - 1
            for _ in 0...(frequency == .monthly ? 4800 : 400) {
                let year = monthIndex / 12
                if year > 9999 { return nil }
                let months = frequency == .monthly ? [monthIndex % 12 + 1] : Array(1...12)
                for month in months where filters.months.isEmpty || filters.months.contains(month) {
                    let length = TaskDate.daysIn(month: month, year: year)
                    if !filters.monthDays.isEmpty, !filters.monthDays.contains(where: { abs($0) <= length }) { continue }
                    let first = TaskDate(year: year, month: month, day: 1).dayNumber!
                    for number in first..<first + length {
                        if let result = check(number) { return result }
                    }
                }
                monthIndex = frequency == .monthly ? monthIndex + interval : (year + interval) * 12
            }
            return nil
        }
    }

    // MARK: Writing

    static func weekdayName(_ day: Int) -> String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][(day - 1) % 7]
    }

    static func monthName(_ month: Int) -> String {
        [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ][(month - 1) % 12]
    }

    static func ordinalText(_ n: Int) -> String {
        if n == -1 { return "last" }
        let value = abs(n)
        let suffix = (value % 100 >= 11 && value % 100 <= 13) ? "th" : [1: "st", 2: "nd", 3: "rd"][value % 10] ?? "th"
        return "\(value)\(suffix)" + (n < 0 ? " last" : "")
    }

    private static func list(_ words: [String]) -> String {
        words.count <= 1 ? words.joined() : words.dropLast().joined(separator: ", ") + " and " + words.last!
    }

    /// The rule in Obsidian Tasks' English, without the leading `every`
    /// (`2 weeks on Monday and Friday`); `parse` reads it back as the same rule.
    public var english: String {
        func unit(_ word: String) -> String { interval == 1 ? word : "\(interval) \(word)s" }
        var parts: [String] = []
        let plainDays = weekdays.filter { $0.ordinal == nil }.map(\.day)
        let nthDays = weekdays.filter { $0.ordinal != nil }
        switch frequency {
        case .daily: parts.append(unit("day"))
        case .weekly:
            if interval == 1, plainDays == [1, 2, 3, 4, 5], monthDays.isEmpty, months.isEmpty {
                parts.append("weekday")
            } else {
                parts.append(unit("week"))
            }
        case .monthly: parts.append(unit("month"))
        case .yearly:
            if months.isEmpty || interval > 1 { parts.append(unit("year")) }
        }
        var on: [String] = []
        if !(frequency == .weekly && parts == ["weekday"]) {
            if !plainDays.isEmpty { on.append(Self.list(plainDays.map(Self.weekdayName))) }
        }
        if !nthDays.isEmpty { on.append("the " + Self.list(nthDays.map { Self.ordinalText($0.ordinal!) + " " + Self.weekdayName($0.day) })) }
        if !monthDays.isEmpty { on.append("the " + Self.list(monthDays.map(Self.ordinalText))) }
        if frequency == .yearly && !months.isEmpty && interval == 1 {
            parts.append(Self.list(months.map(Self.monthName)))
            if !on.isEmpty { parts.append("on " + on.joined(separator: " and ")) }
        } else {
            if !on.isEmpty { parts.append("on " + on.joined(separator: " and ")) }
            if !months.isEmpty { parts.append("in " + Self.list(months.map(Self.monthName))) }
        }
        if whenDone { parts.append("when done") }
        return parts.joined(separator: " ")
    }

    /// The English of a rule written in any dialect (`2w` is `2 weeks`), for
    /// the emoji and Dataview dialects; `text` itself when it cannot be read.
    package static func english(_ text: String) -> String {
        RecurrenceRule(text)?.english ?? text
    }

    /// The iCalendar RRULE value (RFC 5545 §3.3.10): FREQ, INTERVAL, BYDAY
    /// (with ordinals), BYMONTHDAY and BYMONTH.
    public var rrule: String {
        var text = "FREQ=" + ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"][[Frequency.daily, .weekly, .monthly, .yearly].firstIndex(of: frequency)!]
        if interval > 1 { text += ";INTERVAL=\(interval)" }
        let codes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        if !weekdays.isEmpty {
            text += ";BYDAY=" + weekdays.map { ($0.ordinal.map(String.init) ?? "") + codes[$0.day - 1] }.joined(separator: ",")
        }
        if !monthDays.isEmpty { text += ";BYMONTHDAY=" + monthDays.map(String.init).joined(separator: ",") }
        if !months.isEmpty { text += ";BYMONTH=" + months.map(String.init).joined(separator: ",") }
        return text
    }
}
