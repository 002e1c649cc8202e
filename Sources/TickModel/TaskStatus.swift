/// The state of an item's box: `[ ]`, `[x]`/`[X]`, `[-]` or `[/]`.
public enum TaskStatus: String, Sendable, CaseIterable, Codable {
    case open
    case done
    case cancelled
    case inProgress = "in-progress"

    /// Open and in-progress items are still to do.
    public var isOpen: Bool { self == .open || self == .inProgress }

    /// The status a box's middle byte stands for, if it is one tick knows.
    public init?(boxByte: UInt8) {
        switch boxByte {
        case UInt8(ascii: " "): self = .open
        case UInt8(ascii: "x"), UInt8(ascii: "X"): self = .done
        case UInt8(ascii: "-"): self = .cancelled
        case UInt8(ascii: "/"): self = .inProgress
        default: return nil
        }
    }

    /// `rawValue` as a literal, for JSON output.
    package var jsonWord: StaticString {
        switch self {
        case .open: "open"
        case .done: "done"
        case .cancelled: "cancelled"
        case .inProgress: "in-progress"
        }
    }

    /// The byte written between the brackets for this status.
    public var boxByte: UInt8 {
        switch self {
        case .open: UInt8(ascii: " ")
        case .done: UInt8(ascii: "x")
        case .cancelled: UInt8(ascii: "-")
        case .inProgress: UInt8(ascii: "/")
        }
    }
}

/// An item's priority, ordered lowest < low < normal < medium < high < urgent.
///
/// The book's four levels (low, normal, high, urgent) keep their order, and
/// Obsidian Tasks' six levels map one to one.
public enum Priority: Int, Sendable, CaseIterable, Comparable, Codable {
    case lowest, low, normal, medium, high, urgent

    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The word used in JSON and in the tick dialect (`!high`).
    public var name: String { jsonWord.description }

    /// `name` as a literal, for JSON output.
    package var jsonWord: StaticString {
        switch self {
        case .lowest: "lowest"
        case .low: "low"
        case .normal: "normal"
        case .medium: "medium"
        case .high: "high"
        case .urgent: "urgent"
        }
    }

    /// Parses a priority word, case-insensitively; `highest` means urgent.
    public init?(word: String) {
        switch word.lowercased() {
        case "lowest": self = .lowest
        case "low": self = .low
        case "normal", "none": self = .normal
        case "medium": self = .medium
        case "high": self = .high
        case "urgent", "highest": self = .urgent
        default: return nil
        }
    }

    /// Obsidian Tasks' signifier for this priority (`normal` has none).
    public var emoji: String? {
        switch self {
        case .lowest: "⏬"
        case .low: "🔽"
        case .normal: nil
        case .medium: "🔼"
        case .high: "⏫"
        case .urgent: "🔺"
        }
    }
}
