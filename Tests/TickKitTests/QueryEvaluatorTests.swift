import Testing
import TickEngine

/// Each operator of the query language against a small folder.
@Suite struct QueryEvaluatorTests {
    let folder = workspace([
        "groceries.md": """
        ---
        title: Groceries
        order: 1
        ---
        ## Dairy
        - [ ] Buy **milk** !high due:2026-11-21 #errand
          Semi-skimmed, two bottles.
        - [x] Eggs done:2026-11-20 created:2026-11-01
        ## Next up
        - [-] Cream cancelled:2026-11-19
        - [/] Butter due:2026-11-25 scheduled:2026-11-24 ^butter1
        """,
        "projects/garden.md": """
        # Garden
        - [ ] Plant bulbs !urgent due:2026-11-19 start:2026-11-14 #work/finance
          - [ ] Soak the bulbs
        - [ ] Rake leaves every:week #workshop !low
        """,
    ])

    func matching(_ query: String) throws -> [String] {
        titles(QueryEvaluator.filter(folder.items, try QueryParser.parse(query, today: Fixture.today)))
    }

    @Test func statuses() throws {
        #expect(try matching("open") == ["Buy milk", "Butter", "Plant bulbs", "Soak the bulbs", "Rake leaves"])
        #expect(try matching("done") == ["Eggs"])
        #expect(try matching("cancelled") == ["Cream"])
        #expect(try matching("in-progress") == ["Butter"])
        #expect(try matching("status = done") == ["Eggs"])
    }

    @Test func dateComparisons() throws {
        #expect(try matching("due < today") == ["Plant bulbs"])
        #expect(try matching("due <= today") == ["Buy milk", "Plant bulbs"])
        #expect(try matching("due = today") == ["Buy milk"])
        #expect(try matching("due != today") == ["Butter", "Plant bulbs"]) // no due date never matches
        #expect(try matching("due >= today") == ["Buy milk", "Butter"])
        #expect(try matching("due > today") == ["Butter"])
        #expect(try matching("due <= +7d") == ["Buy milk", "Butter", "Plant bulbs"])
        #expect(try matching("scheduled = 2026-11-24") == ["Butter"])
        #expect(try matching("start < today") == ["Plant bulbs"])
        #expect(try matching("created >= 2026-11-01") == ["Eggs"])
        #expect(try matching("done = yesterday") == ["Eggs"])
        #expect(try matching("cancelled < today") == ["Cream"])
    }

    @Test func presence() throws {
        #expect(try matching("has due") == ["Buy milk", "Butter", "Plant bulbs"])
        #expect(try matching("no due") == ["Eggs", "Cream", "Soak the bulbs", "Rake leaves"])
        #expect(try matching("has scheduled") == ["Butter"])
        #expect(try matching("has start") == ["Plant bulbs"])
        #expect(try matching("has created") == ["Eggs"])
        #expect(try matching("has done") == ["Eggs"])
        #expect(try matching("no done and done") == [])
    }

    @Test func priorities() throws {
        #expect(try matching("priority >= high") == ["Buy milk", "Plant bulbs"])
        #expect(try matching("priority = low") == ["Rake leaves"])
        #expect(try matching("priority = normal") == ["Eggs", "Cream", "Butter", "Soak the bulbs"])
        #expect(try matching("priority < normal") == ["Rake leaves"])
        #expect(try matching("priority > high") == ["Plant bulbs"])
        #expect(try matching("priority != normal") == ["Buy milk", "Plant bulbs", "Rake leaves"])
        #expect(try matching("!urgent") == ["Plant bulbs"])
    }

    @Test func tagsMatchSubTagsButNotLongerWords() throws {
        #expect(try matching("#work") == ["Plant bulbs"])
        #expect(try matching("tag = work") == ["Plant bulbs"])
        #expect(try matching("tag = #work/finance") == ["Plant bulbs"])
        #expect(try matching("#ERRAND") == ["Buy milk"])
        #expect(try matching("tag ~ work") == ["Plant bulbs", "Rake leaves"])
        #expect(try matching("tag != work") == ["Buy milk", "Eggs", "Cream", "Butter", "Soak the bulbs", "Rake leaves"])
    }

    @Test func listPathAndSection() throws {
        #expect(try matching("list = groceries") == ["Buy milk", "Eggs", "Cream", "Butter"])
        #expect(try matching("list = projects/garden") == ["Plant bulbs", "Soak the bulbs", "Rake leaves"])
        #expect(try matching("list = garden.md") == [])
        #expect(try matching("list ~ gard") == ["Plant bulbs", "Soak the bulbs", "Rake leaves"])
        #expect(try matching("path ~ projects/") == ["Plant bulbs", "Soak the bulbs", "Rake leaves"])
        #expect(try matching("path = groceries.md") == ["Buy milk", "Eggs", "Cream", "Butter"])
        #expect(try matching("section ~ \"next up\"") == ["Cream", "Butter"])
        #expect(try matching("section = dairy") == ["Buy milk", "Eggs"])
        #expect(try matching("section !~ dairy") == ["Cream", "Butter", "Plant bulbs", "Soak the bulbs", "Rake leaves"])
    }

    /// A list's name is tested once per list (items come list by list),
    /// yet items of two lists taken in turn are each answered for their own list.
    @Test func listTestsFollowEachItemsListWhenListsInterleave() throws {
        let items = folder.items
        let garden = items.filter { $0.listPath == "projects/garden.md" }
        let groceries = items.filter { $0.listPath == "groceries.md" }
        let interleaved = zip(groceries, garden).flatMap { [$0, $1] }
        #expect(interleaved.count == 6)
        for (query, path) in [("list = groceries", "groceries.md"), ("path ~ projects/", "projects/garden.md")] {
            let matched = QueryEvaluator.filter(interleaved, try QueryParser.parse(query, today: Fixture.today))
            #expect(matched.count == 3)
            #expect(matched.allSatisfy { $0.listPath == path })
        }
    }

    @Test func titleAndText() throws {
        #expect(try matching("\"MILK\"") == ["Buy milk"])
        #expect(try matching("\"bulbs\"") == ["Plant bulbs", "Soak the bulbs"])
        #expect(try matching("title ~ \"/^But/\"") == ["Butter"])
        #expect(try matching("title ~ \"/^but/\"") == []) // a regex without i minds case
        #expect(try matching("title ~ \"/^bu/i\"") == ["Buy milk", "Butter"])
        #expect(try matching("title = eggs") == ["Eggs"])
        #expect(try matching("title !~ bulbs") == ["Buy milk", "Eggs", "Cream", "Butter", "Rake leaves"])
        #expect(try matching("text ~ skimmed") == ["Buy milk"])
        #expect(try matching("title ~ skimmed") == [])
    }

    @Test func recurringAndIDs() throws {
        #expect(try matching("every") == ["Rake leaves"])
        #expect(try matching("not every and #workshop") == [])
        #expect(try matching("id = butter1") == ["Butter"])
        #expect(try matching("^butter1") == ["Butter"])
    }

    @Test func booleanOperators() throws {
        #expect(try matching("open and not has due") == ["Soak the bulbs", "Rake leaves"])
        #expect(try matching("done or cancelled") == ["Eggs", "Cream"])
        #expect(try matching("not (done or cancelled) #errand") == ["Buy milk"])
        #expect(try matching("(priority >= high or every) open") == ["Buy milk", "Plant bulbs", "Rake leaves"])
    }
}
