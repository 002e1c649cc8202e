/// Which items of a list repeat the title of an item above them, and how
/// many times: what an item's iCalendar UID counts, so that two items of one
/// title in one list get two UIDs that survive lines added around them.
///
/// Guarantees: titles are compared as `String`s compare (canonical
/// equivalence: `Café` written with `é` or with `e` and a combining accent
/// is one title); when every title of the list is ASCII, bytes compare the
/// same, and are compared in place.
package enum RepeatedTitles {
    /// For each title, how many titles before it are equal to it.
    package static func earlierCounts(_ titles: [UnsafeBufferPointer<UInt8>]) -> [Int] {
        titles.allSatisfy({ ByteText.isASCII($0) })
            ? earlierCounts(ofBytes: titles) : earlierCounts(ofStrings: titles.map { String(decoding: $0, as: UTF8.self) })
    }

    private static func earlierCounts(ofStrings titles: [String]) -> [Int] {
        var seen: [String: Int] = [:]
        return titles.map { title in
            defer { seen[title, default: 0] += 1 }
            return seen[title] ?? 0
        }
    }

    /// A short list (nearly every list) compares its titles with the ones
    /// before, lengths first: no hashing and no table for a few dozen
    /// titles. A longer one finds titles by their FNV-1a hash and compares
    /// them byte for byte with the first title of each distinct text of that
    /// hash. (A dictionary of the titles themselves, hashed with SipHash,
    /// was a fifth of an export's time.)
    private static func earlierCounts(ofBytes titles: [UnsafeBufferPointer<UInt8>]) -> [Int] {
        guard titles.count > 64 else {
            return titles.indices.map { index in
                let title = titles[index]
                return titles[..<index].count { $0.count == title.count && $0.elementsEqual(title) }
            }
        }
        // Each distinct title, how often it was seen, and the next distinct title of its hash (-1: none).
        var distinct: [(title: UnsafeBufferPointer<UInt8>, seen: Int, sameHash: Int)] = []
        var firstOfHash: [UInt64: Int] = [:]
        firstOfHash.reserveCapacity(titles.count)
        return titles.map { title in
            var hasher = FNV1a.Hasher()
            hasher.combine(title)
            var candidate = firstOfHash[hasher.value] ?? -1
            while candidate >= 0 {
                if distinct[candidate].title.elementsEqual(title) {
                    defer { distinct[candidate].seen += 1 }
                    return distinct[candidate].seen
                }
                candidate = distinct[candidate].sameHash
            }
            distinct.append((title, 1, firstOfHash[hasher.value] ?? -1))
            firstOfHash[hasher.value] = distinct.count - 1
            return 0
        }
    }
}
