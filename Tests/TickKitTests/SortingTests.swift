import Foundation
import Testing
import TickEngine
import TickRecords
import TickSystem

@testable import TickModel

/// Every sort key on the `groups` fixture; ties always fall back to manual order.
@Suite struct SortingTests {
    let items = Fixture.groups.items

    func sorted(_ keys: [SortKey], reverse: Bool = false) -> [String] {
        titles(SortKey.sort(items.shuffled(), by: keys, reverse: reverse, today: Fixture.today))
    }

    @Test func manualIsListOrderThenFilePosition() {
        // Zeta has order 0, Alpha order 1, Beta none: lists with an order come first.
        #expect(sorted([.manual]) == ["z1", "a1", "a2", "a3", "a4", "a5", "a6", "a6.1", "a7", "b1", "b2", "b3", "b4", "b5", "B6"])
        #expect(sorted([]) == sorted([.manual]))
    }

    @Test func titleIsCaseInsensitive() {
        #expect(sorted([.title]) == ["a1", "a2", "a3", "a4", "a5", "a6", "a6.1", "a7", "b1", "b2", "b3", "b4", "b5", "B6", "z1"])
    }

    @Test func priorityIsHighestFirstThenManual() {
        #expect(sorted([.priority]) == ["a4", "a2", "b4", "z1", "a1", "a3", "a5", "a6.1", "a7", "b1", "b3", "b5", "B6", "a6", "b2"])
    }

    @Test func dueIsEarliestFirstUndatedLastTiesManual() {
        #expect(sorted([.due]) == ["a5", "b1", "a3", "a2", "a4", "a1", "b2", "b5", "a6.1", "a7", "B6", "z1", "a6", "b3", "b4"])
    }

    @Test func dueOrdersADayWithoutATimeBeforeItsTimesAndFarYearsLast() {
        let timed = workspace([
            "t.md": """
            - [ ] at ten due:2026-11-24T10:00
            - [ ] far due:9999-12-31
            - [ ] no time due:2026-11-24
            - [ ] undated
            - [ ] at nine due:2026-11-24T09:00
            - [ ] earlier day late due:2026-11-23T23:59

            """
        ]).items
        #expect(
            titles(SortKey.sort(timed.shuffled(), by: [.due], today: Fixture.today))
                == ["earlier day late", "no time", "at nine", "at ten", "far", "undated"])
    }

    @Test func createdIsEarliestFirstUndatedLast() {
        #expect(sorted([.created]).prefix(3) == ["b1", "a7", "z1"])
    }

    @Test func doneIsEarliestFirstUndatedLast() {
        #expect(sorted([.done]).prefix(3) == ["a3", "b4", "z1"])
    }

    @Test func listIsByListNameNotListOrder() {
        #expect(sorted([.list]) == ["a1", "a2", "a3", "a4", "a5", "a6", "a6.1", "a7", "b1", "b2", "b3", "b4", "b5", "B6", "z1"])
    }

    /// `--sort title` and `--sort list` compare through `CollatedTexts`,
    /// which must order every pair as Foundation's case-insensitive,
    /// locale-aware `compare` does (the order the spec promises), on text
    /// that tells collations apart: case, accents composed and not, ß and
    /// ss, ligatures, full-width letters, digits, marks, emoji, Danish aa,
    /// Turkish dotless i, control and zero-width characters, invalid UTF-8.
    @Test("titles and list names order as Foundation's case-insensitive, locale-aware compare does, in several locales")
    func textCollatorAgreesWithFoundationsCompare() {
        let pieces = [
            "a", "A", "b", "Z", "e", "É", "é", "e\u{301}", "E\u{301}", "ß", "SS", "ss", "ø", "Ø", "å", "aa", "Å", "ı", "I", "i",
            "İ", "ﬁ", "fi", "1", "2", "10", "9", " ", "-", "_", ".", "!", "#", "😀", "日", "本", "ä", "a\u{308}", "Æ", "ae",
            "œ", "\t", "ǅ", "Σ", "σ", "ς", "Ａ", "ａ", "①", "½", "\u{200B}", "ch", "h", "y", "ö", "\u{0}",
        ]
        var generator = SeededGenerator(seed: 15)
        func text() -> String {
            (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
        // Mostly printable ASCII, with a few other characters: the texts
        // the in-place comparison answers, and the ones it must leave to
        // Core Foundation.
        let printable = (0x20..<0x7F).map { String(UnicodeScalar(UInt8($0))) }
        func asciiText() -> String {
            (0..<Int.random(in: 0...7, using: &generator)).map { _ in
                Int.random(in: 0..<10, using: &generator) == 0
                    ? pieces.randomElement(using: &generator)! : printable.randomElement(using: &generator)!
            }.joined()
        }
        let identifiers = [
            Locale.current.identifier, "", "en_US", "en_001", "de_DE", "fr_FR", "ja_JP", "zh_CN", "ru_RU", "da_DK", "tr_TR", "lt_LT", "cs_CZ",
            "de_DE@collation=phonebook", "en_US_POSIX",
        ]
        for identifier in identifiers {
            let locale = Locale(identifier: identifier)
            var texts = CollatedTexts.Texts()
            var pairs: [(String, String)] = []
            for round in 0..<6_000 {
                let (left, right) = round % 2 == 0 ? (text(), text()) : (asciiText(), asciiText())
                // Half the time, texts that start the same.
                let shared = round % 4 < 2 ? (left, right) : (left, left + right)
                pairs.append(shared)
                texts.append(shared.0)
                texts.append(shared.1)
            }
            let collated = CollatedTexts(texts, locale: locale)
            var disagreements: [String] = []
            for (place, (left, right)) in pairs.enumerated() {
                let expected = left.compare(right, options: [.caseInsensitive], range: nil, locale: locale)
                let found = collated.compare(2 * place, 2 * place + 1)
                if found != expected.rawValue { disagreements.append("\(left.debugDescription) vs \(right.debugDescription)") }
            }
            #expect(disagreements.isEmpty, "\(identifier): \(disagreements.prefix(5))")
        }
        // Bytes that are not UTF-8 are read as String(decoding:) reads them;
        // a text appended again compares as the same text.
        for locale in [Locale(identifier: "en_US"), Locale(identifier: "da_DK")] {
            var texts = CollatedTexts.Texts()
            let invalid: [UInt8] = [0x61, 0xFF, 0x62]
            invalid.withUnsafeBufferPointer { texts.append(utf8: $0) }
            texts.append(String(decoding: invalid, as: UTF8.self))
            texts.append("a")
            texts.appendLastAgain()
            let collated = CollatedTexts(texts, locale: locale)
            #expect(collated.compare(0, 1) == 0 && collated.compare(0, 2) > 0 && collated.compare(2, 0) < 0 && collated.compare(2, 3) == 0)
        }
    }

    /// The in-place comparison of printable ASCII holds only in locales
    /// whose collation orders it as the root collation does: in each
    /// locale it is used in, Core Foundation orders the 95 characters so
    /// (each letter's cases tied, no two others tied), and it is not used
    /// in locales that tailor them, nor with a collation keyword.
    @Test("printable ASCII is compared in place only in locales that order it as the root collation does")
    func asciiIsComparedInPlaceOnlyWhereTheLocaleOrdersItAsRoot() {
        let rootOrder = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz".map(String.init)
        let printable = (0x20..<0x7F).map { String(UnicodeScalar(UInt8($0))) }
        for identifier in ["", "en_US", "en_GB", "en_001", "de_DE", "fr_FR", "es_ES", "it_IT", "pt_BR", "nl_NL", "ja_JP", "zh_CN", "ru_RU", "ko_KR"] {
            let locale = Locale(identifier: identifier)
            #expect(CollatedTexts.ordersASCIIAsRoot(locale), "\(identifier)")
            #expect(CollatedTexts(CollatedTexts.Texts(), locale: locale).comparesASCIIInPlace)
            let sorted = printable.sorted { $0.compare($1, options: [.caseInsensitive], range: nil, locale: locale) == .orderedAscending }
            var distinct: [String] = []
            for character in sorted {
                let previous = distinct.last
                if let previous, previous.compare(character, options: [.caseInsensitive], range: nil, locale: locale) == .orderedSame {
                    #expect(previous.lowercased() == character.lowercased(), "\(identifier): \(previous) ties \(character)")
                } else {
                    distinct.append(character.lowercased())
                }
            }
            #expect(distinct == rootOrder, "\(identifier)")
        }
        for identifier in [
            "da_DK", "nb_NO", "tr_TR", "lt_LT", "cs_CZ", "hu_HU", "et_EE", "cy_GB", "de_DE@collation=phonebook", "es_ES@collation=traditional",
            "en_US_POSIX", "de-DE-u-co-phonebk", "C", "POSIX",
        ] {
            #expect(!CollatedTexts.ordersASCIIAsRoot(Locale(identifier: identifier)), "\(identifier)")
        }
    }

    /// Past 20,000 items a sort by title or list runs on every core (parts
    /// sorted apart, then merged): the order must be the one-core order.
    @Test("a sort large enough to run on every core gives the order of one sort on one core, ties in manual order")
    func aSortOnEveryCoreGivesTheOneCoreOrder() {
        let words = ["beta", "Alpha", "alpha", "gamma", "Beta"]
        let priorities = ["", " !", " !!!", " ↓"]
        var files: [String: String] = [:]
        for list in 0..<3 {
            files["l\(list).md"] = (0..<8_000).map { index in
                "- [ ] \(words[(index * 7 + list) % words.count])\(priorities[(index / 3 + list) % priorities.count])\n"
            }.joined()
        }
        let items = workspace(files).items
        #expect(items.count == 24_000)
        let position = Dictionary(uniqueKeysWithValues: items.enumerated().map { ("\($0.element.listPath):\($0.element.line)", $0.offset) })
        func positions(_ sorted: [EncodedListedItem]) -> [Int] { sorted.map { position["\($0.listPath):\($0.line)"]! } }
        // Manual order is the order `items` has: a tie keeps it.
        let byPriority = items.indices.sorted { (-items[$0].priority.rawValue, $0) < (-items[$1].priority.rawValue, $1) }
        #expect(positions(SortKey.sort(items.shuffled(), by: [.priority], today: Fixture.today)) == byPriority)
        #expect(
            positions(SortKey.sort(items.shuffled(), by: [.priority, .title], today: Fixture.today))
                == byPriority.sorted {
                    let (left, right) = (items[$0], items[$1])
                    if left.priority != right.priority { return left.priority.rawValue > right.priority.rawValue }
                    let order = left.title.string.compare(right.title.string, options: [.caseInsensitive], range: nil, locale: .current)
                    return order == .orderedSame ? $0 < $1 : order == .orderedAscending
                })
        let byTitle = items.indices.sorted {
            let order = items[$0].title.string.compare(items[$1].title.string, options: [.caseInsensitive], range: nil, locale: .current)
            return order == .orderedSame ? $0 < $1 : order == .orderedAscending
        }
        #expect(positions(SortKey.sort(items.shuffled(), by: [.title], today: Fixture.today)) == byTitle)
        // Items given in manual order (as results are) keep it on a tie without a column of it.
        #expect(positions(SortKey.sort(items, by: [.priority], today: Fixture.today)) == byPriority)
        #expect(positions(SortKey.sort(items, by: [.title], today: Fixture.today)) == byTitle)
        #expect(positions(SortKey.sort(items, by: [.title], reverse: true, today: Fixture.today)) == byTitle.reversed())
    }

    /// A sort by title of many items sorts them in pieces, writes each
    /// piece out sorted and merges the pieces: the order must be the one
    /// sorting them all at once gives, for every key beside the title, in
    /// either direction, from items in manual order or not.
    @Test("a sort by title in pieces gives the order of one sort of all the items, ties in manual order")
    func aSortInPiecesGivesTheOrderOfOneSort() {
        let words = ["beta", "Alpha", "alpha", "gamma", "Beta", "été", "Ete", "日本", "a b", "a-b", ""]
        let fields = ["", " !", " !!! due:2026-11-25", " ↓ due:2026-11-20", " due:2026-11-25", " 🔼 📅 2026-11-22"]
        var files: [String: String] = [:]
        for list in 0..<4 {
            let name = list == 3 ? "b/l1.md" : "l\(list).md" // two lists named l1
            files[name] = (0..<60).map { index in
                "- [\(index % 5 == 0 ? "x" : " ")] \(words[(index * 7 + list) % words.count])\(fields[(index / 2 + list) % fields.count])\n"
            }.joined()
        }
        let items = workspace(files).items
        #expect(items.count == 240)
        let keySets: [[SortKey]] = [
            [.title], [.title, .due], [.due, .title], [.list, .title], [.title, .list], [.priority, .title], [.urgency, .title],
            [.title, .manual], [.created, .done, .title],
        ]
        var generator = SeededGenerator(seed: 7)
        for keys in keySets {
            for reverse in [false, true] {
                for given in [items, items.shuffled(using: &generator)] {
                    let whole = SortKey.sort(given, by: keys, reverse: reverse, today: Fixture.today)
                    for pieceSize in [1, 7, 100] {
                        let inPieces = SortKey.sort(given, by: keys, reverse: reverse, today: Fixture.today, inPiecesOf: pieceSize)
                        #expect(inPieces.map(\.address) == whole.map(\.address), "\(keys), reverse \(reverse), pieces of \(pieceSize)")
                    }
                }
            }
        }
    }

    /// Results come in manual order, and then the sort keeps it on a tie
    /// without a column of it; given in any other order, it reads it.
    @Test("items given in manual order sort as the same items shuffled, by every key")
    func itemsInManualOrderSortAsShuffledItemsDo() {
        for key in SortKey.allCases {
            let inManualOrder = titles(SortKey.sort(items, by: [key], today: Fixture.today))
            #expect(inManualOrder == sorted([key]), "\(key)")
        }
    }

    @Test func keysApplyInTurn() {
        #expect(sorted([.priority, .due]).prefix(5) == ["a4", "a2", "b4", "a5", "b1"])
    }

    @Test func reverseFlipsTheWholeOrder() {
        #expect(sorted([.due], reverse: true) == sorted([.due]).reversed())
        #expect(sorted([.manual], reverse: true).first == "B6")
    }

    @Test func sortingIsDeterministic() {
        for key in SortKey.allCases {
            #expect(sorted([key]) == sorted([key]), "\(key) is not deterministic")
        }
    }

    @Test func listOrderComparesNamesAsStringsDoWhetherASCIIOrNot() {
        // Lists with an order first; then folded name, then path.
        let ascii = [
            ("b", nil, "b.md"), ("a", 2, "z.md"), ("a", nil, "y/a.md"), ("a", nil, "a.md"), ("c", 1, "c.md"),
            ("ab", nil, "ab.md"), ("a b", nil, "a b.md"), ("0", nil, "0.md"),
        ]
        // "e\u{301}" is "é" decomposed: String orders it as the composed one.
        let unicode = ascii + [("é", nil, "é.md"), ("e\u{301}", nil, "e.md"), ("日本", nil, "j.md"), ("ea", nil, "ea.md")]
        for lists in [ascii, unicode, ascii.reversed(), unicode.reversed()] {
            let names = lists.map(\.0)
            let orders: [Int?] = lists.map(\.1)
            let paths = lists.map(\.2)
            let expected = lists.indices.sorted { a, b in
                switch (orders[a], orders[b]) {
                case (let l?, let r?) where l != r: return l < r
                case (.some, nil): return true
                case (nil, .some): return false
                default: return names[a] != names[b] ? names[a] < names[b] : paths[a] < paths[b]
                }
            }
            #expect(SortKey.listOrder(foldedNames: names, orders: orders, paths: paths) == expected)
        }
    }

    @Test("sort keys read one way for --sort, tick sort --by and the sort: setting, with the same message for a slip")
    func sortKeyListsReadOneWay() throws {
        #expect(try SortKey.list("priority, DUE,urgency").get() == [.priority, .due, .urgency])
        guard case .failure(let slip) = SortKey.list("priority,duee") else {
            Issue.record("duee was read")
            return
        }
        #expect(slip.message.hasPrefix("unknown sort key 'duee' (did you mean 'due'?); keys are manual, title"))
        guard case .failure(let empty) = SortKey.list(" , ") else {
            Issue.record("an empty list was read")
            return
        }
        #expect(empty.message == "give at least one sort key, e.g. priority,due")
        let notes = try NotesFixture(["a.md": "- [ ] a\n", ".tick.yml": "sort: priority,duee\n"])
        let query = try notes.tick("query", "open", "--sort", "priority,duee")
        let sort = try notes.tick("sort", "a", "--by", "priority,duee")
        let setting = try notes.tick("query", "open")
        for (run, lead) in [(query, "--sort: "), (sort, "--by: "), (setting, "")] {
            #expect(run.status == 64, "\(run.stderr)")
            #expect(run.stderr.contains(lead + slip.message), "\(run.stderr)")
        }
    }
}
