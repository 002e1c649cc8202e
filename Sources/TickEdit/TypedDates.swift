import TickModel
import TickSyntax
import TickSystem

/// Dates people type in the text of a new item or title (`due:friday`,
/// `📅 tomorrow`, `[due:: +3d]`, `due:next week`), rewritten as ISO dates
/// (SPEC §4, §5). A value may run over the words after it when together
/// they make a date (`due:dec 5`); the words become one ISO date.
public enum TypedDates {
    /// A date token whose value is no date people write; its text for the message.
    public struct BadDate: Error, Equatable, CustomStringConvertible {
        /// The token as typed.
        public var text: String
        /// What is wrong with it (`DateExpression.problem(with:today:)`).
        public var description: String
    }

    static let keys = ["due", "scheduled", "start", "created", "done", "cancelled", "completion"]
    static let signifiers = ["📅", "📆", "🗓", "⏳", "⌛", "🛫", "➕", "✅", "❌"]

    /// `text` with every date token's value resolved against `today` and
    /// written as `YYYY-MM-DD`; throws for a date token whose value is not a
    /// date. Everything else is kept as typed.
    public static func normalize(_ text: String, today: TaskDate) throws(BadDate) -> String {
        var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        func resolve(_ value: String, _ shown: String) throws(BadDate) -> String {
            if let date = TaskDate(iso: value) { return date.isoString }
            guard let date = DateExpression.resolve(value, today: today) else {
                throw BadDate(text: shown, description: DateExpression.problem(with: value, today: today, shown: shown))
            }
            return date.isoString
        }
        /// The longest date that starts with `first` and runs on over at
        /// most two of the words after `start` (`next week`, `dec 5 2027`,
        /// `in 3 days`): the resolved text and how many words it took.
        func longest(_ first: String, after start: Int, shown: String) throws(BadDate) -> (String, Int) {
            for extra in stride(from: 2, through: 1, by: -1) where start + extra < words.count {
                let following = words[(start + 1)...(start + extra)]
                guard following.allSatisfy({ !$0.isEmpty }) else { continue }
                let value = ([first] + following).joined(separator: " ")
                if let date = DateExpression.resolve(value, today: today) { return (date.isoString, extra) }
            }
            return (try resolve(first, shown), 0)
        }
        while index < words.count {
            let word = words[index]
            // key:value, the value perhaps of several words (due:next week)
            if let colon = word.firstIndex(of: ":"), keys.contains(String(word[..<colon])), word.index(after: colon) < word.endIndex,
                word[word.index(after: colon)] != ":"
            {
                let value = String(word[word.index(after: colon)...])
                let (date, extra) = try longest(value, after: index, shown: word)
                words.replaceSubrange(index...(index + extra), with: [String(word[...colon]) + date])
            }
            // [key:: value], the value running to the first `]` (it may hold spaces: next week)
            else if word.hasPrefix("["), let marker = word.range(of: "::"),
                keys.contains(String(word[word.index(after: word.startIndex)..<marker.lowerBound]).lowercased())
            {
                var last = index
                while last < words.count, !words[last].hasSuffix("]") { last += 1 }
                if last < words.count {
                    let joined = words[index...last].joined(separator: " ")
                    let valueStart = joined.range(of: "::")!.upperBound
                    let head = String(joined[..<valueStart])
                    let value = joined[valueStart...].dropLast().trimmingWhiteSpace()
                    let spacer = joined[valueStart...].hasPrefix(" ") ? " " : ""
                    if !value.isEmpty {
                        let date = try resolve(value, joined)
                        words.replaceSubrange(index...last, with: [head + spacer + date + "]"])
                    }
                }
            }
            // 📅 value, or 📅value, the value perhaps of several words (📅 next friday)
            else if let signifier = signifiers.first(where: { word.unicodeScalars.starts(with: $0.unicodeScalars) }) {
                var rest = Substring(word).unicodeScalars.dropFirst(signifier.unicodeScalars.count)
                if rest.first == "\u{FE0F}" { rest = rest.dropFirst() }
                let head = String(String.UnicodeScalarView(word.unicodeScalars.prefix(word.unicodeScalars.count - rest.count)))
                if rest.isEmpty, index + 1 < words.count, !words[index + 1].isEmpty {
                    let (date, extra) = try longest(words[index + 1], after: index + 1, shown: word + " " + words[index + 1])
                    words.replaceSubrange((index + 1)...(index + 1 + extra), with: [date])
                    index += 1
                } else if !rest.isEmpty {
                    let (date, extra) = try longest(String(String.UnicodeScalarView(rest)), after: index, shown: word)
                    words.replaceSubrange(index...(index + extra), with: [head + date])
                }
            }
            index += 1
        }
        return words.joined(separator: " ")
    }
}
