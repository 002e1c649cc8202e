import Testing
import TickEngine

@Suite struct QueryExplanationTests {
    @Test func treeShowsStructureAndResolvedDates() throws {
        let expression = try QueryParser.parse("open and (due <= +7d or #work) not done", today: Fixture.today)
        #expect(
            QueryExplanation.tree(expression) == """
                and
                ├── open (open or in-progress)
                ├── or
                │   ├── due <= 2026-11-28 (Sat)
                │   └── tag = "work" (or its sub-tags)
                └── not
                    └── done
                """)
    }

    @Test func aSinglePredicateIsOneLine() throws {
        #expect(QueryExplanation.tree(try QueryParser.parse("due = tomorrow", today: Fixture.today)) == "due = 2026-11-22 (Sun)")
    }
}
