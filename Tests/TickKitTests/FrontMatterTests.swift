import Testing
import Yams

@testable import TickModel
@testable import TickSyntax

/// The front matter parser composes YAML without the resolver's rules for
/// mapping keys where it can (`FrontMatterParser.composeNode`); it must read
/// exactly what composing with the resolver reads, errors included.
@Suite("Front matter")
struct FrontMatterTests {
    func describe(_ result: Result<[(key: String, value: JSONValue)], FrontMatterParser.YAMLProblem>) -> String {
        switch result {
        case .success(let values): values.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        case .failure(let problem): "error at \(String(describing: problem.line)): \(problem.message)"
        }
    }

    @Test(
        "keys composed without the resolver's rules read the same",
        arguments: [
            "title: Groceries\ncolor: green\nicon: cart\norder: 3\n",
            "title: \"Quoted\"\ntags: [a, b, 1, true, null, 2.5]\nnested:\n  x: 1\n  y: [~, no, 0x1F, 1_000]\n",
            "a: 1\na: 2\n",
            "1: one\n\"1\": quoted one\n",
            "true: t\n'true': quoted\n",
            "null: n\n~: tilde\n",
            "1: one\n!!int 1: tagged\n",
            "!!str 1: tagged\n\"1\": quoted\n",
            "title: Hi!\ncount: 12\n",
            "? [a, b]\n: complex\n? [a, b]\n: again\n",
            "? {x: 1}\n: m\n? {x: \"1\"}\n: n\n",
            "list:\n  - {k: 1, k: 2}\n",
            "list:\n  - {k: 1, \"k\": 2}\n",
            "anchor: &a 1\nalias: *a\n",
            "missing: *nope\n",
            "- just\n- a list\n",
            "plain scalar\n",
            "title: [unclosed\n",
            "",
            "# only a comment\n",
            "=: value key\n",
            "<<: {merged: 1}\nown: 2\n",
            "date: 2026-11-24\ntime: 2026-11-24T10:00:00Z\nfloat: .inf\noct: 0o17\nsexa: 1:20\n",
        ])
    func basicKeysReadTheSame(yaml: String) {
        #expect(describe(FrontMatterParser.parse(yaml)) == describe(FrontMatterParser.parse(yaml, shortcuts: false)), "\(yaml)")
    }

    @Test("tags of plain scalars skip the rules only where none can match")
    func tagsWithoutRules() {
        let texts = [
            "", "yes", "Yes", "YES", "no", "NO", "on", "Off", "true", "False", "null", "Null", "~", "1", "-1", "+1", "0o17",
            "0b101", "0x1F", "1_000", "1:20", ".5", ".inf", "-.inf", ".NaN", "2026-11-24", "1.5e3", "y", "n", "t", "f", "o",
            "hello", "Hello", "Note 0 yard", "gray", "house", "é", "日本", "#tag", "[a]", "{a}", "x!", "\"q\"", "'q'", "<<", "=",
            "@at", "`tick`", "%p", "*a", "&a 1", "|\n  x", ">\n  x", "?", ":", ",", "_x", "Zeta", "\u{85}x", "\u{2028}x",
            "nope", "nULL", "yEs", "Nullable", "no way", "True story", "offset", "oN", "FALSE", "Onward", "N", "Y", "ONE",
        ]
        for text in texts {
            for yaml in ["k: \(text)\n", "k: [\(text)]\n", "k:\n  - \(text)\n  - \(text) more\n"] {
                #expect(
                    describe(FrontMatterParser.parse(yaml)) == describe(FrontMatterParser.parse(yaml, shortcuts: false)), "\(yaml.debugDescription)")
            }
        }
    }

    @Test("a scalar that starts with a letter resolves as the resolver's rules do, line terminators and all")
    func letterScalarsResolveAsTheRulesDo() {
        let words = [
            "yes", "Yes", "YES", "yEs", "no", "No", "NO", "nO", "true", "True", "tRUE", "false", "FALSE", "on", "On", "ON", "oN",
            "off", "Off", "OFF", "null", "Null", "NULL", "nuLL", "y", "n", "Note", "finance", "gray", "nothing", "offline", "Zed",
        ]
        for word in words {
            for ending in ["", "\n", "\r\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "\n\n", " ", "\t", "x"] {
                let node = Node.scalar(Node.Scalar(word + ending))
                #expect(FrontMatterParser.tagName(of: node) == FrontMatterParser.resolver.resolveTag(of: node), "\((word + ending).debugDescription)")
            }
        }
    }
}
