import Testing
import TickEngine
import TickModel

/// Every group-by key on the `groups` fixture.
@Suite struct GroupingTests {
    let items = Fixture.groups.items

    func groups(_ key: GroupKey, today: TaskDate = Fixture.today) -> [(String, [String])] {
        Grouping.group(items, by: key, today: today).map { ($0.name, titles($0.items)) }
    }

    func names(_ key: GroupKey, today: TaskDate = Fixture.today) -> [String] { groups(key, today: today).map(\.0) }

    @Test func listGroupsFollowListOrder() {
        #expect(names(.list) == ["Zeta", "Alpha", "Beta"])
        #expect(groups(.list)[0].1 == ["z1"])
    }

    @Test func sectionGroupsAreSectionsOfEachList() {
        #expect(names(.section) == ["Zeta", "Alpha", "Beta › First", "Beta › Second"])
        #expect(groups(.section)[3].1 == ["b3", "b4", "b5", "B6"])
    }

    @Test func priorityGroupsAreUrgentFirst() {
        #expect(names(.priority) == ["urgent", "high", "medium", "normal", "low", "lowest"])
    }

    @Test func dueBucketsOnAThursday() {
        // Thursday 2026-11-19: the week ends on Sunday 2026-11-22.
        let result = groups(.due, today: date("2026-11-19"))
        #expect(result.map(\.0) == ["Overdue", "Earlier", "Today", "Tomorrow", "This week", "Later", "No date"])
        #expect(result.first { $0.0 == "Overdue" }!.1 == ["b1"])
        #expect(result.first { $0.0 == "Earlier" }!.1 == ["a3", "a5"])
        #expect(result.first { $0.0 == "Today" }!.1 == ["a2"])
        #expect(result.first { $0.0 == "Tomorrow" }!.1 == ["a4"])
        #expect(result.first { $0.0 == "This week" }!.1 == ["a1", "b2", "b5"])
        #expect(result.first { $0.0 == "Later" }!.1 == ["a6.1", "a7", "B6"])
        #expect(result.first { $0.0 == "No date" }!.1 == ["z1", "a6", "b3", "b4"])
    }

    @Test func tagGroupsPutAnItemUnderEachTagAndMergeCase() {
        let result = groups(.tag)
        #expect(result.map(\.0) == ["#errand", "#home", "#work", "#work/finance", "No tag"])
        #expect(result[1].1 == ["z1", "a1", "b5"])
        #expect(result[2].1 == ["a6", "b1"]) // #work and #Work
    }

    @Test func statusGroupsAreOpenInProgressDoneCancelled() {
        #expect(names(.status) == ["open", "in-progress", "done", "cancelled"])
        #expect(groups(.status)[1].1 == ["a4"])
    }

    @Test func folderGroupsPutTheRootFirst() {
        #expect(names(.folder) == [".", "projects"])
    }

    @Test func groupsKeepTheOrderItemsCameIn() {
        let byDue = SortKey.sort(items, by: [.due], today: Fixture.today)
        let result = Grouping.group(byDue, by: .list, today: Fixture.today)
        #expect(titles(result[1].items) == ["a5", "a3", "a2", "a4", "a1", "a6.1", "a7", "a6"])
    }

    @Test("items in another order than their lists' keep that order in each group, in every group they belong to")
    func groupsOfItemsInAnyOrderKeepThatOrder() {
        let reversed = Array(items.reversed())
        for key in [GroupKey.tag, .list, .due, .priority, .day] {
            let forward = Grouping.group(items, by: key, today: Fixture.today)
            let backward = Grouping.group(reversed, by: key, today: Fixture.today)
            #expect(backward.map { $0.name.lowercased() } == forward.map { $0.name.lowercased() }, "\(key)")
            #expect(backward.map { titles($0.items) } == forward.map { titles($0.items).reversed() }, "\(key)")
        }
        // A tag group is named as its first item in the given order writes the tag.
        #expect(Grouping.group(items, by: .tag, today: Fixture.today).map(\.name).contains("#work"))
        #expect(Grouping.group(reversed, by: .tag, today: Fixture.today).map(\.name).contains("#Work"))
    }

    @Test func twoListsWithTheSameNameAreTwoGroups() {
        let items = workspace(["a/x.md": "# Same\n- [ ] one\n", "b/x.md": "# Same\n- [ ] two\n"]).items
        #expect(Grouping.group(items, by: .list, today: Fixture.today).count == 2)
    }

    @Test("day groups run in date order across months and years, items with a time join their day, undated items come last")
    func dayGroupsAreInDateOrder() {
        let text = """
            # Days
            - [ ] late due:2027-01-01
            - [ ] undated
            - [ ] october due:2026-10-02
            - [ ] new year's eve due:2026-12-31
            - [ ] february due:2026-02-10
            - [ ] october again due:2026-10-02T09:30
            - [ ] november due:2026-11-09

            """
        let groups = Grouping.group(workspace(["days.md": text]).items, by: .day, today: Fixture.today)
        #expect(groups.map(\.name) == ["2026-02-10", "2026-10-02", "2026-11-09", "2026-12-31", "2027-01-01", "No date"])
        #expect(titles(groups[1].items) == ["october", "october again"])
    }
}
