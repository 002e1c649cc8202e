import Foundation
import TickModel
import TickRecords

// How items compare under each sort key: the engine's half of `SortKey`.
extension SortKey {
    /// Negative, zero or positive as `lhs` sorts before, with or after `rhs`
    /// for this key alone (`today` counts only for urgency).
    public func compare(_ lhs: EncodedListedItem, _ rhs: EncodedListedItem, today: TaskDate) -> Int {
        switch self {
        case .urgency:
            let left = Urgency(lhs, today: today).total
            let right = Urgency(rhs, today: today).total
            return left > right ? -1 : (left == right ? 0 : 1)
        case .manual:
            if lhs.listRank != rhs.listRank { return lhs.listRank < rhs.listRank ? -1 : 1 }
            return lhs.fileOffset < rhs.fileOffset ? -1 : (lhs.fileOffset == rhs.fileOffset ? 0 : 1)
        case .title:
            switch lhs.title.string.compare(rhs.title.string, options: [.caseInsensitive], range: nil, locale: Locale.current) {
            case .orderedAscending: return -1
            case .orderedDescending: return 1
            case .orderedSame: return 0
            }
        case .priority:
            return rhs.priority.rawValue - lhs.priority.rawValue
        case .due: return Self.compareDates(lhs.date(.due), rhs.date(.due))
        case .created: return Self.compareDates(lhs.date(.created), rhs.date(.created))
        case .done: return Self.compareDates(lhs.date(.done), rhs.date(.done))
        case .list:
            switch lhs.listName.compare(rhs.listName, options: [.caseInsensitive], range: nil, locale: Locale.current) {
            case .orderedAscending: return -1
            case .orderedDescending: return 1
            case .orderedSame:
                let left = lhs.listPath
                let right = rhs.listPath
                return left < right ? -1 : (left == right ? 0 : 1)
            }
        }
    }

    /// Sorts by `keys` in turn, then manual order; `reverse` flips the whole order.
    public static func sort(_ items: [EncodedListedItem], by keys: [SortKey], reverse: Bool = false, today: TaskDate) -> [EncodedListedItem] {
        let sorted = items.sorted { lhs, rhs in
            for key in keys + [.manual] {
                let result = key.compare(lhs, rhs, today: today)
                if result != 0 { return result < 0 }
            }
            return false
        }
        return reverse ? sorted.reversed() : sorted
    }
}
