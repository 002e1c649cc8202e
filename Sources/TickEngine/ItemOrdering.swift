import Foundation
import TickModel
import TickRecords

// How items compare under each sort key: the engine's half of `SortKey`.
extension SortKey {
    /// Negative, zero or positive as `lhs` sorts before, with or after `rhs`
    /// for this key alone (`today` counts only for urgency).
    public func compare(_ lhs: EncodedListedItem, _ rhs: EncodedListedItem, today: TaskDate) -> Int {
        Self.compare(value(of: lhs, today: today), value(of: rhs, today: today), for: self)
    }

    /// What this key compares of `item`, read once: numbers where the
    /// order is numeric (smaller first), the strings where it is not.
    private func value(of item: EncodedListedItem, today: TaskDate) -> SortValue {
        switch self {
        case .urgency: return SortValue(real: Urgency(item, today: today).total)
        case .manual: return SortValue(number: Int64(item.listRank), second: Int64(item.fileOffset))
        case .title: return SortValue(text: item.title.string)
        // Higher priority first.
        case .priority: return SortValue(number: -Int64(item.priority.rawValue))
        case .due: return SortValue(date: item.date(.due))
        case .created: return SortValue(date: item.date(.created))
        case .done: return SortValue(date: item.date(.done))
        case .list: return SortValue(text: item.listName, path: item.listPath)
        }
    }

    /// Negative, zero or positive as `lhs` sorts before, with or after `rhs` for `key`.
    private static func compare(_ lhs: SortValue, _ rhs: SortValue, for key: SortKey) -> Int {
        switch key {
        case .urgency:
            // Most urgent first.
            return lhs.real > rhs.real ? -1 : (lhs.real == rhs.real ? 0 : 1)
        case .manual, .priority, .due, .created, .done:
            if lhs.number != rhs.number { return lhs.number < rhs.number ? -1 : 1 }
            return lhs.second < rhs.second ? -1 : (lhs.second == rhs.second ? 0 : 1)
        case .title, .list:
            switch lhs.text.compare(rhs.text, options: [.caseInsensitive], range: nil, locale: Locale.current) {
            case .orderedAscending: return -1
            case .orderedDescending: return 1
            case .orderedSame: return lhs.path < rhs.path ? -1 : (lhs.path == rhs.path ? 0 : 1)
            }
        }
    }

    /// Sorts by `keys` in turn, then manual order; `reverse` flips the whole
    /// order. Each item's value for each key is read once, before sorting
    /// (comparing read the items' records, and made their strings, at
    /// every step of the sort).
    public static func sort(_ items: [EncodedListedItem], by keys: [SortKey], reverse: Bool = false, today: TaskDate) -> [EncodedListedItem] {
        let keys = keys + [.manual]
        var values: [SortValue] = []
        values.reserveCapacity(items.count * keys.count)
        items.forEachReleasingCachePages { item in
            for key in keys { values.append(key.value(of: item, today: today)) }
        }
        var order = Array(items.indices)
        order.sort { lhs, rhs in
            for (place, key) in keys.enumerated() {
                let result = compare(values[lhs * keys.count + place], values[rhs * keys.count + place], for: key)
                if result != 0 { return result < 0 }
            }
            return false
        }
        if reverse { order.reverse() }
        return order.map { items[$0] }
    }
}

/// One item's value for one sort key (`SortKey.value(of:today:)`): two
/// numbers compared in turn, a real number, or a text compared as people
/// read it and a path compared as bytes.
private struct SortValue {
    var number: Int64 = 0
    var second: Int64 = 0
    var real: Double = 0
    var text = ""
    var path = ""

    init(number: Int64 = 0, second: Int64 = 0) {
        self.number = number
        self.second = second
    }

    init(real: Double) { self.real = real }

    init(text: String, path: String = "") {
        self.text = text
        self.path = path
    }

    /// A date in `SortKey.orderKey(of:)`'s order (none last).
    init(date: TaskDate?) { number = Int64(clamping: SortKey.orderKey(of: date)) }
}
