import Testing
import TickEngine
import TickModel

/// The query grammar: precedence, juxtaposition, values, and errors with columns.
@Suite struct QueryParserTests {
    let today = Fixture.today // Saturday 2026-11-21

    func parse(_ query: String) throws -> QueryExpression { try QueryParser.parse(query, today: today) }

    /// The tree in a compact prefix form, for comparing shapes.
    func shape(_ query: String) throws -> String { describe(try parse(query)) }

    func describe(_ expression: QueryExpression) -> String {
        switch expression {
        case .and(let operands): "and(" + operands.map(describe).joined(separator: ", ") + ")"
        case .or(let operands): "or(" + operands.map(describe).joined(separator: ", ") + ")"
        case .not(let operand): "not(" + describe(operand) + ")"
        case .predicate(let predicate): QueryExplanation.describe(predicate)
        }
    }

    func error(_ query: String) -> QuerySyntaxError? {
        do {
            _ = try parse(query)
            return nil
        } catch {
            return error as? QuerySyntaxError
        }
    }

    @Test func andBindsTighterThanOr() throws {
        #expect(try shape("done or open and every") == "or(done, and(open (open or in-progress), every (recurring)))")
        #expect(try shape("open and every or done") == "or(and(open (open or in-progress), every (recurring)), done)")
    }

    @Test func notBindsTighterThanAnd() throws {
        #expect(try shape("not done and every") == "and(not(done), every (recurring))")
        #expect(try shape("not not done") == "not(not(done))")
    }

    @Test func parenthesesGroup() throws {
        #expect(try shape("(done or cancelled) and every") == "and(or(done, cancelled), every (recurring))")
        #expect(try shape("not (done or cancelled)") == "not(or(done, cancelled))")
    }

    @Test func juxtapositionMeansAnd() throws {
        #expect(try shape("open #work due < today") == "and(open (open or in-progress), tag = \"work\" (or its sub-tags), due < 2026-11-21 (Sat))")
        #expect(try parse("open #work") == parse("open and #work"))
        #expect(try shape("done cancelled or every") == "or(and(done, cancelled), every (recurring))")
    }

    @Test func keywordsAreCaseInsensitive() throws {
        #expect(try shape("OPEN AND Due < TODAY or NOT Done") == shape("open and due < today or not done"))
        #expect(try shape("Priority >= HIGH") == "priority >= high")
    }

    @Test func relativeDatesAreResolvedAgainstToday() throws {
        #expect(try shape("due <= +7d") == "due <= 2026-11-28 (Sat)")
        #expect(try shape("due = tomorrow") == "due = 2026-11-22 (Sun)")
        #expect(try shape("due >= 2026-12-01") == "due >= 2026-12-01 (Tue)")
        #expect(try shape("due > -1w") == "due > 2026-11-14 (Sat)")
        #expect(try shape("due < fri") == "due < 2026-11-27 (Fri)")
        #expect(try shape("due = in 3 days") == "due = 2026-11-24 (Tue)")
        #expect(try shape("due = next week") == "due = 2026-11-23 (Mon)")
        #expect(try shape("due <= eom") == "due <= 2026-11-30 (Mon)")
        #expect(try shape("due <= \"in 2 weeks\"") == "due <= 2026-12-05 (Sat)")
    }

    @Test func aMultiWordDateStopsWhereTheDateEnds() throws {
        #expect(try shape("due = mon and open") == "and(due = 2026-11-23 (Mon), open (open or in-progress))")
    }

    @Test func everyComparisonOperatorIsRead() throws {
        for op in ["<", "<=", "=", "!=", ">=", ">"] {
            #expect(try shape("priority \(op) high") == "priority \(op) high")
        }
        #expect(try shape("title ~ milk") == "title ~ \"milk\" (contains, any case)")
        #expect(try shape("title !~ milk") == "title !~ \"milk\" (contains, any case)")
        #expect(try shape("due<today") == "due < 2026-11-21 (Sat)")
    }

    @Test func conditionsOfTheSpec() throws {
        #expect(try shape("in-progress") == "in-progress")
        #expect(try shape("has due") == "has due")
        #expect(try shape("no scheduled") == "no scheduled")
        #expect(try shape("tag = work") == "tag = \"work\" (or its sub-tags)")
        #expect(try shape("list = groceries") == "list = \"groceries\"")
        #expect(try shape("path ~ projects/") == "path ~ \"projects/\" (contains, any case)")
        #expect(try shape("section ~ \"next up\"") == "section ~ \"next up\" (contains, any case)")
        #expect(try shape("\"milk\"") == "title ~ \"milk\" (contains, any case)")
        #expect(try shape("title ~ \"/^buy/i\"") == "title ~ \"/^buy/i\" (regular expression)")
        #expect(try shape("text ~ word") == "text ~ \"word\" (contains, any case)")
        #expect(try shape("every") == "every (recurring)")
        #expect(try shape("id = abc123") == "id = \"abc123\"")
        #expect(try shape("^abc123") == "id = \"abc123\"")
        #expect(try shape("status != done") == "not(done)")
    }

    @Test func incompleteComparisonPointsPastTheEnd() {
        let failure = error("due <")
        #expect(failure?.column == 6)
        #expect(failure?.message.contains("expected a date") == true)
    }

    @Test func errorsPointAtTheOffendingColumn() {
        #expect(error("open and (done or every")?.column == 10) // the unclosed (
        #expect(error("open )")?.column == 6)
        #expect(error("open and")?.column == 9)
        #expect(error("priority >= hgih")?.column == 13)
        #expect(error("due < frday")?.column == 7)
        #expect(error("open due")?.column == 9)
        #expect(error("colour = red")?.column == 1)
        #expect(error("title ~ \"milk")?.column == 9)
        #expect(error("title ~ \"/(/\"")?.column == 9)
        #expect(error("due ~ today")?.column == 5)
        #expect(error("< today")?.column == 1)
        #expect(error("has")?.column == 4)
        #expect(error("()")?.column == 2)
        #expect(error("# open")?.column == 1)
        #expect(error("")?.column == 1)
    }

    @Test("a plain word searches titles as a quoted string does; several words must all be there")
    func plainWordsSearchTitles() throws {
        #expect(try parse("milk") == (try parse("\"milk\"")))
        #expect(try parse("open Bread milk") == (try parse("open and \"Bread\" and \"milk\"")))
        #expect(try parse("milk or eggs") == (try parse("\"milk\" or \"eggs\"")))
        // Keywords and tokens keep their meaning.
        #expect(try parse("done") == .predicate(.status(.done)))
        #expect(try parse("!high") == .predicate(.priority(.equal, .high)))
    }

    @Test("a plain word a slip away from a keyword still searches titles, with a note naming the keyword")
    func slipsOfKeywordsGetANote() throws {
        var notes: [String] = []
        let expression = try QueryParser.parse("opne milk", today: today, notes: &notes)
        #expect(expression == (try parse("\"opne\" \"milk\"")))
        #expect(notes == ["'opne' is searched for in titles; for the condition, write 'open'"])
        notes = []
        _ = try QueryParser.parse("bread", today: today, notes: &notes)
        #expect(notes.isEmpty)
    }

    @Test func errorMessagesSayWhatToDo() {
        #expect(error("open colour = red")?.message.contains("unknown field 'colour'") == true)
        #expect(error("due")?.message.contains("needs an operator") == true)
        #expect(error("priority >= hgih")?.message.contains("lowest, low, normal, medium, high or urgent") == true)
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(error("\"café\" < today")?.column == 8)
    }

    @Test func nestingUpToTheLimitParses() throws {
        let depth = QueryParser.maximumNesting
        let parenthesised = String(repeating: "(", count: depth) + "open" + String(repeating: ")", count: depth)
        #expect(try shape(parenthesised) == (try shape("open")))
        let negated = String(repeating: "not ", count: depth) + "open" // an even number of nots
        #expect(try shape(negated).hasPrefix("not(not("))
    }

    @Test func nestingBeyondTheLimitIsASyntaxErrorNotACrash() {
        // Thousands of levels used to overflow the stack.
        let parentheses = String(repeating: "(", count: 100_000) + "open" + String(repeating: ")", count: 100_000)
        let failure = error(parentheses)
        #expect(failure?.message.contains("nests '(' and 'not' more than") == true)
        #expect(failure?.column == QueryParser.maximumNesting + 1)
        let nots = String(repeating: "not ", count: 10_000) + "open"
        #expect(error(nots)?.column == QueryParser.maximumNesting * 4 + 1)
        let mixed = String(repeating: "not (", count: 5_000) + "open" + String(repeating: ")", count: 5_000)
        #expect(error(mixed) != nil)
    }
}
