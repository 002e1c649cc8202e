import Testing
import TickRecords

@testable import TickEngine

/// `ItemSet` counts an item's listed ancestors, whatever order the items
/// come in (a listing in manual order is searched as it is, any other
/// order sorted first), repeated or not.
@Suite struct ItemSetTests {
    let folder = workspace([
        "a.md": """
        - [ ] a1
          - [ ] a1.1
            - [ ] a1.1.1
          - [ ] a1.2
        - [ ] a2
          - [ ] a2.1

        """,
        "b.md": "- [ ] b1\n  - [ ] b1.1\n    - [ ] b1.1.1\n",
    ])

    /// The reference: each ancestor looked for among the items, one by one.
    func naiveCounts(_ listed: [EncodedListedItem], of items: [EncodedListedItem]) -> [Int] {
        items.map { item in
            var count = 0
            var parent = item.parentIndex
            while let index = parent {
                if listed.contains(where: { $0.document === item.document && $0.index == index }) { count += 1 }
                parent = item.document.parentIndex(of: index)
            }
            return count
        }
    }

    @Test func ancestorsAreCountedInManualOrderAndInAnyOther() {
        let items = folder.items
        #expect(items.count == 9)
        let withoutA1 = items.filter { $0.title.string != "a1" }
        let interleaved = zip(items.prefix(3), items.suffix(3)).flatMap { [$0, $1] }
        for listed in [items, withoutA1, Array(items.reversed()), interleaved, Array(items.prefix(4)) + Array(items.prefix(2))] {
            let set = ItemSet(listed)
            #expect(items.map { set.ancestorCount(of: $0) } == naiveCounts(listed, of: items), "\(listed.map(\.title.string))")
        }
        #expect(items.map { ItemSet(items).ancestorCount(of: $0) } == [0, 1, 2, 1, 0, 1, 0, 1, 2])
    }

    @Test("the sets of many groups, read in one pass, each count only the ancestors listed in their own group")
    func setsOfGroupsCountTheirOwnGroupsAncestors() {
        let items = folder.items
        let groups = [items[0..<3], [], items[2..<6], [items[1]], items[6...], Array(items.reversed())[...]]
        let starts = groups.indices.map { index in groups[..<index].reduce(0) { $0 + $1.count } }
        let sets = ItemSet.sets(of: ItemGroups(items: groups.flatMap { $0 }, names: groups.map { _ in "" }, starts: starts))
        #expect(sets.count == groups.count)
        for (group, set) in zip(groups, sets) {
            #expect(items.map { set.ancestorCount(of: $0) } == naiveCounts(Array(group), of: items), "\(group.map(\.title.string))")
        }
        #expect(ItemSet.sets(of: ItemGroups(items: [], names: [], starts: [])).isEmpty)
    }
}
