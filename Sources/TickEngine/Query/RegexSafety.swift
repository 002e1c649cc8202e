import Foundation

/// Refuses regular expressions whose matching can take exponential time in a
/// backtracking engine (NSRegularExpression is ICU's): a repeated group that
/// contains a quantifier or an alternation (`(a+)+`, `(a|aa)*`, `(.*a){20}`),
/// backreferences and lookarounds. The check reads the pattern's structure
/// (escapes, `\Q…\E`, nested character classes, groups) and is conservative:
/// every pattern it accepts has no nested or ambiguous repetition.
enum RegexSafety {
    /// Returns why `pattern` is refused, or nil when it is safe.
    static func problem(in pattern: String) -> String? {
        let chars = Array(pattern)
        var i = 0
        // One frame per open group: does it hold a quantifier or a `|`?
        var frames: [(quantified: Bool, alternated: Bool)] = [(false, false)]
        var lastGroup: (quantified: Bool, alternated: Bool)?
        while i < chars.count {
            let c = chars[i]
            var atomGroup: (quantified: Bool, alternated: Bool)?
            switch c {
            case "\\":
                guard i + 1 < chars.count else { return nil }
                let e = chars[i + 1]
                if e.isNumber, e != "0" { return "backreferences are not supported" }
                if e == "k" { return "backreferences are not supported" }
                if e == "Q" {
                    var j = i + 2
                    while j + 1 < chars.count, !(chars[j] == "\\" && chars[j + 1] == "E") { j += 1 }
                    i = j + 2
                    lastGroup = nil
                    continue
                }
                i += 2
                if "pPxN".contains(e), i < chars.count, chars[i] == "{" {
                    while i < chars.count, chars[i] != "}" { i += 1 }
                    i += 1
                }
            case "[":
                var j = i + 1
                if j < chars.count, chars[j] == "^" { j += 1 }
                if j < chars.count, chars[j] == "]" { return "write a ']' in a character class as '\\]'" }
                var depth = 1
                while j < chars.count, depth > 0 {
                    if chars[j] == "\\", j + 1 < chars.count, chars[j + 1] == "Q" {
                        return "'\\Q' inside a character class is not supported"
                    }
                    if chars[j] == "\\" {
                        j += 2
                        continue
                    }
                    if chars[j] == "[" { depth += 1 } else if chars[j] == "]" { depth -= 1 }
                    j += 1
                }
                i = j
            case "(":
                if i + 1 < chars.count, chars[i + 1] == "?" {
                    let rest = String(chars[(i + 2)...].prefix(2))
                    if rest.hasPrefix(":") || rest.hasPrefix(">") {
                        i += 3
                    } else if rest.hasPrefix("<"), rest != "<=", rest != "<!" {
                        i += 2
                        while i < chars.count, chars[i] != ">" { i += 1 }
                        i += 1
                    } else if rest.hasPrefix("=") || rest.hasPrefix("!") || rest == "<=" || rest == "<!" {
                        return "lookarounds are not supported"
                    } else {
                        // Inline flags: (?i) (?-i) (?i:...). Only i, m, s, w.
                        var j = i + 2
                        while j < chars.count, "imsw-".contains(chars[j]) { j += 1 }
                        guard j < chars.count, chars[j] == ")" || chars[j] == ":" else {
                            return "only the inline flags i, m, s and w are supported"
                        }
                        if chars[j] == ")" {
                            i = j + 1
                            lastGroup = nil
                            continue
                        }
                        i = j + 1
                    }
                } else {
                    i += 1
                }
                frames.append((false, false))
                lastGroup = nil
                continue
            case ")":
                let closed: (quantified: Bool, alternated: Bool) = frames.count > 1 ? frames.removeLast() : (false, false)
                // What the group holds, the enclosing group holds too.
                frames[frames.count - 1].quantified = frames[frames.count - 1].quantified || closed.quantified
                frames[frames.count - 1].alternated = frames[frames.count - 1].alternated || closed.alternated
                atomGroup = closed
                i += 1
            case "|":
                frames[frames.count - 1].alternated = true
                i += 1
            case "*", "+", "?", "{":
                var repeats = c != "?"
                var j = i + 1
                if c == "{" {
                    var body = ""
                    while j < chars.count, chars[j] != "}" {
                        body.append(chars[j])
                        j += 1
                    }
                    j += 1
                    let bounds = body.split(separator: ",", omittingEmptySubsequences: false)
                    let upper = bounds.count == 1 ? Int(bounds[0]) : Int(bounds[1])
                    repeats = upper.map { $0 > 1 } ?? true
                }
                if j < chars.count, chars[j] == "?" || chars[j] == "+" { j += 1 }
                if repeats, let group = lastGroup, group.quantified || group.alternated {
                    return "a repeated group that contains a quantifier or '|' can take exponential time"
                }
                frames[frames.count - 1].quantified = true
                i = j
                lastGroup = nil
                continue
            default:
                i += 1
            }
            lastGroup = atomGroup
        }
        return nil
    }
}
