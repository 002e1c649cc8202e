import Testing
import TickEngine
import TickOutput

/// Each smart group's membership and order on the `groups` fixture, today
/// pinned to Saturday 2026-11-21.
@Suite struct SmartGroupTests {
    let items = Fixture.groups.items
    let today = Fixture.today

    @Test("the home screen's counts, from each list's tally, are what the groups' and the lists' own counts count")
    func homeCountsAreTheGroupsAndListsCounts() {
        // Many lists in more than one run, with open, done and cancelled items.
        var files: [String: String] = [:]
        for number in 0..<300 {
            files["l\(number).md"] =
                "# List \(number)\n"
                + (0..<(number % 7 + 20)).map { item in
                    "- [\(["x", " ", "-", " "][item % 4])] item \(item) due:2026-11-\(10 + item % 20)\n"
                }.joined()
        }
        for folder in [workspace(files), Fixture.groups] {
            let home = folder.homeCounts(of: SmartGroup.homeGroups, today: today)
            #expect(home.groups == SmartGroup.homeGroups.map { group in folder.items.count { group.contains($0, today: today) } })
            #expect(home.lists.map { [$0.open, $0.done] } == folder.listCounts().map { [$0.open, $0.done] })
        }
        #expect(workspace(files).listRuns(minimumSize: 4096).count > 1)
    }

    @Test func fixtureLoadsInManualOrder() {
        #expect(titles(items) == ["z1", "a1", "a2", "a3", "a4", "a5", "a6", "a6.1", "a7", "b1", "b2", "b3", "b4", "b5", "B6"])
    }

    @Test func todayIsOpenDueOnOrBeforeTodayOverdueFirst() {
        #expect(titles(SmartGroup.today.members(of: items, today: today)) == ["a2", "a4", "b1", "a1", "b2"])
    }

    @Test func overdueIsOpenDueBeforeTodayInManualOrder() {
        #expect(titles(SmartGroup.overdue.members(of: items, today: today)) == ["a2", "a4", "b1"])
    }

    @Test func scheduledIsOpenWithDueDateByDueThenManual() {
        #expect(
            titles(SmartGroup.scheduled.members(of: items, today: today))
                == ["b1", "a2", "a4", "a1", "b2", "b5", "a6.1", "a7", "B6"])
    }

    @Test func scheduledIsGroupedByDay() {
        let members = SmartGroup.scheduled.members(of: items, today: today)
        let groups = Grouping.group(members, by: SmartGroup.scheduled.defaultGrouping!, today: today)
        #expect(
            groups.map(\.name) == [
                "2026-11-10", "2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22",
                "2026-11-23", "2026-11-25", "2026-12-15",
            ])
        #expect(titles(groups[3].items) == ["a1", "b2"])
    }

    @Test func allIsEveryOpenItemInManualOrder() {
        #expect(
            titles(SmartGroup.all.members(of: items, today: today))
                == ["z1", "a1", "a2", "a4", "a6", "a6.1", "a7", "b1", "b2", "b5", "B6"])
    }

    @Test func completedIsDoneNewestFirstUndatedLast() {
        #expect(titles(SmartGroup.completed.members(of: items, today: today)) == ["b4", "a3", "b3"])
    }

    @Test func cancelledItemsBelongToNoSmartGroup() {
        for group in SmartGroup.allCases {
            #expect(!titles(group.members(of: items, today: today)).contains("a5"), "\(group) holds the cancelled a5")
        }
    }

    @Test func inProgressCountsAsOpen() {
        let a4 = items.first { $0.title.string == "a4" }!
        #expect(SmartGroup.all.contains(a4, today: today))
        #expect(SmartGroup.overdue.contains(a4, today: today))
    }

    @Test func aTimeOnTodaysDueDateIsTodayNotOverdue() {
        let items = workspace(["t.md": "- [ ] meeting due:2026-11-21T09:00\n- [ ] late due:2026-11-20T23:00\n"]).items
        #expect(titles(SmartGroup.overdue.members(of: items, today: today)) == ["late"])
        #expect(titles(SmartGroup.today.members(of: items, today: today)) == ["late", "meeting"])
    }

    /// The folder's pass (test and order key taken on every core) and the
    /// items' pass order alike, down to times on one day and done days.
    @Test func aFoldersMembersAreItsItemsMembersInTheSameOrder() {
        let timed = workspace([
            "a.md": """
            - [ ] at ten due:2026-11-24T10:00
            - [ ] no time due:2026-11-24
            - [ ] at nine due:2026-11-24T09:00
            - [x] done early that day done:2026-11-20T06:00
            - [x] done undated
            - [x] done late in the day done:2026-11-20T22:00
            - [ ] overdue due:2026-11-19

            """,
            "b.md": "- [ ] also no time due:2026-11-24\n- [x] done the day after done:2026-11-21\n",
        ])
        #expect(
            titles(SmartGroup.scheduled.members(of: timed, matching: nil, today: today)) == [
                "overdue", "no time", "also no time", "at nine", "at ten",
            ])
        #expect(
            titles(SmartGroup.completed.members(of: timed, matching: nil, today: today)) == [
                "done the day after", "done early that day", "done late in the day", "done undated",
            ])
        for folder in [timed, Fixture.groups] {
            for group in SmartGroup.allCases {
                #expect(
                    titles(group.members(of: folder, matching: nil, today: today)) == titles(group.members(of: folder.items, today: today)),
                    "\(group)")
            }
        }
    }

    @Test("a folder's items in key order: a few small keys counted into buckets give what a sort by key, then manual order, gives")
    func fewSmallKeysAreCountedIntoTheOrderASortGives() {
        var files: [String: String] = [:]
        for list in 0..<6 { files["l\(list).md"] = (0..<40).map { "- [ ] item \(list) \($0)\n" }.joined() }
        let folder = workspace(files)
        let all = folder.items
        var generator = SystemRandomNumberGenerator()
        for limit: UInt64 in [1, 2, 5, 63, 64, 65, 1_000, 1 << 40] {
            // A key for each item (nil: not a member, one in five).
            var keys: [String: UInt64] = [:]
            for item in all where Int.random(in: 0..<5, using: &generator) > 0 {
                keys["\(item.listRank) \(item.index)"] = UInt64.random(in: 0..<limit, using: &generator)
            }
            let ordered = folder.itemsInKeyOrder { { keys["\($0.listRank) \($0.index)"] } }
            let expected = all.enumerated().compactMap { place, item in keys["\(item.listRank) \(item.index)"].map { (key: $0, place: place) } }
                .sorted { $0.key != $1.key ? $0.key < $1.key : $0.place < $1.place }
                .map { all[$0.place].title.string }
            #expect(ordered.map(\.title.string) == expected, "keys below \(limit)")
        }
    }

    @Test func membershipDoesNotDependOnInputOrder() {
        let shuffled = Array(items.reversed())
        for group in SmartGroup.allCases {
            #expect(titles(group.members(of: shuffled, today: today)) == titles(group.members(of: items, today: today)))
        }
    }

    @Test func homeCountsMatchTheGroups() throws {
        let json = ItemJSON.home(Fixture.groups, today: today)
        #expect(json["counts"] == .object([("today", .int(5)), ("scheduled", .int(9)), ("all", .int(11)), ("overdue", .int(3))]))
    }
}
