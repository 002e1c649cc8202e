import Foundation
import TickModel
import TickRecords

/// A parsed query: a tree of `and`, `or`, `not` over predicates.
///
/// Every relative date in it is already resolved to a calendar day, so the
/// tree means the same thing whenever it is evaluated.
public indirect enum QueryExpression: Sendable, Equatable {
    /// All of the operands (two or more).
    case and([QueryExpression])
    /// Any of the operands (two or more).
    case or([QueryExpression])
    case not(QueryExpression)
    case predicate(QueryPredicate)
}

/// The date fields a query can compare.
public enum QueryDateField: String, Sendable, CaseIterable {
    case due, scheduled, start, created, done, cancelled
    /// The earliest of due, scheduled and start (Obsidian Tasks' `happens`).
    case happens

    /// The item's date for this field.
    public func date(of record: EncodedListedItem) -> TaskDate? {
        switch self {
        case .due: record.date(.due)
        case .scheduled: record.date(.scheduled)
        case .start: record.date(.start)
        case .created: record.date(.created)
        case .done: record.date(.done)
        case .cancelled: record.date(.cancelled)
        case .happens: record.happens
        }
    }
}

/// What `has X` / `no X` can ask about.
public enum QueryPresenceField: String, Sendable, CaseIterable {
    case due, scheduled, start, created, done, cancelled
    case priority, tags, tag, id, notes, every, section, subtasks, parent
}

/// The text fields a query can match.
public enum QueryTextField: String, Sendable, CaseIterable {
    /// The list's name; `=` also accepts its path, path without extension or file name.
    case list
    /// The list's path relative to the notes folder.
    case path
    /// The text of the item's section heading.
    case section
    /// The display title.
    case title
    /// The display title and the notes.
    case text
    /// The block id, without `^`.
    case id
    /// A tag, without `#`; `=` also matches its sub-tags (`work` matches `work/finance`).
    case tag
}

/// A value to match text against: a plain string (case- and
/// diacritic-insensitive) or a regular expression written `/pattern/flags`.
///
/// Guarantees: a plain value of printable ASCII is matched against a text
/// of ASCII bytes byte by byte, its letters folded, with the answer
/// Foundation's case- and diacritic-insensitive search gives (ASCII has no
/// combining marks, and no letters with another case but A–Z), and no
/// `String` is made of the text; any other value or text is Foundation's.
public struct TextPattern: @unchecked Sendable, Equatable {
    /// The value as the user wrote it (without quotes).
    public let written: String
    /// Set when `written` is `/pattern/flags`.
    public let regex: NSRegularExpression?
    /// `written`'s bytes with A–Z lowercased, when it is plain, not empty
    /// and printable ASCII (so that no match can begin or end inside a
    /// `\r\n`, one character to Foundation).
    private let foldedASCII: [UInt8]?

    public static func == (lhs: TextPattern, rhs: TextPattern) -> Bool { lhs.written == rhs.written }

    /// Reads `value`; a `/pattern/flags` value becomes a regular expression
    /// (flags `i` ignore case, `m` multi-line, `s` dot matches newlines).
    /// Throws a message when the pattern or its flags are invalid.
    public init(_ value: String) throws(PatternError) {
        written = value
        guard value.count >= 2, value.hasPrefix("/"), let close = value.lastIndex(of: "/"), close != value.startIndex else {
            regex = nil
            let bytes = Array(value.utf8)
            foldedASCII = !bytes.isEmpty && bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? bytes.map(ByteText.foldedASCII) : nil
            return
        }
        foldedASCII = nil
        let pattern = String(value[value.index(after: value.startIndex)..<close])
        let flags = value[value.index(after: close)...]
        var options: NSRegularExpression.Options = []
        for flag in flags {
            switch flag {
            case "i": options.insert(.caseInsensitive)
            case "m": options.insert(.anchorsMatchLines)
            case "s": options.insert(.dotMatchesLineSeparators)
            default: throw PatternError(message: "unknown regular expression flag '\(flag)'; use i, m or s")
            }
        }
        do {
            regex = try NSRegularExpression(pattern: pattern, options: options)
        } catch {
            throw PatternError(message: "'\(pattern)' is not a valid regular expression")
        }
        if let problem = RegexSafety.problem(in: pattern) {
            throw PatternError(message: "'\(pattern)' is refused: \(problem); write a simpler pattern (e.g. '(a+)+' as 'a+')")
        }
    }

    /// A `/pattern/flags` value that is not a valid regular expression.
    public struct PatternError: Error { public var message: String }

    /// True when `text` contains the value (any case) or the regex matches.
    public func isFound(in text: String) -> Bool {
        text.withUTF8Bytes { asciiFound(in: $0) } ?? foundationFinds(in: text)
    }

    /// `isFound(in:)` of the text whose UTF-8 is `bytes`, read in place
    /// when the value and the text are ASCII.
    public func isFound(inUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        asciiFound(in: bytes) ?? foundationFinds(in: String(decoding: bytes, as: UTF8.self))
    }

    /// True when `text` equals the value, ignoring case (or the regex matches).
    public func isEqual(to text: String) -> Bool {
        text.withUTF8Bytes { asciiEqual(to: $0) } ?? foundationEquals(text)
    }

    /// `isEqual(to:)` of the text whose UTF-8 is `bytes`, read in place
    /// when the value and the text are ASCII.
    public func isEqual(toUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        asciiEqual(to: bytes) ?? foundationEquals(String(decoding: bytes, as: UTF8.self))
    }

    /// `isFound(in:)` as the regex or Foundation answers it.
    private func foundationFinds(in text: String) -> Bool {
        if let regex {
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        return text.range(of: written, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }

    /// `isEqual(to:)` as the regex or Foundation answers it.
    private func foundationEquals(_ text: String) -> Bool {
        if regex != nil { return foundationFinds(in: text) }
        return text.compare(written, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame
    }

    /// True when `bytes` (a tag) is the value followed by `/` and more,
    /// ignoring case: a sub-tag of the tag the value names. Never for a regex.
    public func isParentTag(ofUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard regex == nil else { return false }
        if let foldedASCII, ByteText.isASCII(bytes) {
            guard bytes.count > foldedASCII.count, bytes[foldedASCII.count] == UInt8(ascii: "/") else { return false }
            return foldedASCII.withUnsafeBufferPointer { ByteText.equalASCIICaseFolded(UnsafeBufferPointer(rebasing: bytes[..<$0.count]), $0) }
        }
        return String(decoding: bytes, as: UTF8.self).lowercased().hasPrefix(written.lowercased() + "/")
    }

    /// The answer for an ASCII value and text; nil when either is not.
    private func asciiFound(in bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let foldedASCII, ByteText.isASCII(bytes) else { return nil }
        return foldedASCII.withUnsafeBufferPointer { ByteText.containsASCIICaseFolded(bytes, $0) }
    }

    private func asciiEqual(to bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let foldedASCII, ByteText.isASCII(bytes) else { return nil }
        return foldedASCII.withUnsafeBufferPointer { ByteText.equalASCIICaseFolded(bytes, $0) }
    }
}

/// A date operand: what was written and the day it means.
public struct QueryDate: Sendable, Equatable {
    public var written: String
    public var date: TaskDate
}

/// One test an item passes or fails.
public enum QueryPredicate: Sendable, Equatable {
    /// `open` (open or in progress), `done`, `cancelled`, `in-progress`.
    case status(QueryStatus)
    /// `due <= +7d`: compares days (times are ignored); an item without the
    /// date never matches.
    case date(QueryDateField, QueryComparison, QueryDate)
    /// `has due` (true) or `no due` (false).
    case has(QueryPresenceField, Bool)
    /// `priority >= high`.
    case priority(QueryComparison, Priority)
    /// `list = groceries`, `title ~ "/regex/i"`, `#work`, `"milk"`.
    case text(QueryTextField, QueryComparison, TextPattern)
    /// `every`: the item has a recurrence rule.
    case recurring
    /// `blocked` or `blocking`, answered by the folder's dependencies (set
    /// by `resolvingDependencies` before the query runs).
    case dependency(QueryDependency, DependencyIndex)
}

/// The statuses a query can name.
/// Obsidian Tasks' dependency words (see `DependencyIndex`).
public enum QueryDependency: String, Sendable, CaseIterable {
    case blocked, blocking
}

extension QueryExpression {
    /// True when the query says `blocked` or `blocking`.
    public var usesDependencies: Bool {
        switch self {
        case .and(let operands), .or(let operands): operands.contains { $0.usesDependencies }
        case .not(let operand): operand.usesDependencies
        case .predicate(.dependency): true
        case .predicate: false
        }
    }

    /// The query with `blocked` and `blocking` answered by `index` (built
    /// only when the query uses them).
    public func resolvingDependencies(_ index: @autoclosure () -> DependencyIndex) -> QueryExpression {
        guard usesDependencies else { return self }
        let built = index()
        func resolve(_ expression: QueryExpression) -> QueryExpression {
            switch expression {
            case .and(let operands): .and(operands.map(resolve))
            case .or(let operands): .or(operands.map(resolve))
            case .not(let operand): .not(resolve(operand))
            case .predicate(.dependency(let relation, _)): .predicate(.dependency(relation, built))
            case .predicate: expression
            }
        }
        return resolve(self)
    }
}

public enum QueryStatus: String, Sendable, CaseIterable {
    /// Open or in progress: still to do.
    case open
    case done
    case cancelled
    case inProgress = "in-progress"

    public func includes(_ status: TaskStatus) -> Bool {
        switch self {
        case .open: status.isOpen
        case .done: status == .done
        case .cancelled: status == .cancelled
        case .inProgress: status == .inProgress
        }
    }
}
