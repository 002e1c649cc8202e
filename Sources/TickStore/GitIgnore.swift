import Foundation
import TickSystem

// Git's ignore rules, read in-process as ripgrep's walker does: tick runs no
// git child (a folder's `.git/config` can make git run programs, and a child
// process costs more than the whole warm query). No Swift library for this
// exists, so it is written here by hand, after git's own `dir.c` (how lines
// become patterns and which pattern decides) and `wildmatch.c` (how one
// pattern matches a path), and checked against `git ls-files` by
// GitIgnoreTests' differential test.

/// One line of an ignore file, parsed as git's `parse_path_pattern` does.
struct IgnorePattern: Sendable {
    /// The pattern without its `!` and its trailing `/`.
    var text: [UInt8]
    /// The folder of the file it comes from, relative to the work tree's top,
    /// without a trailing `/` ("" at the top and for the files outside it).
    var base: [UInt8]
    /// `!pattern`: a match re-includes.
    var negative: Bool
    /// `pattern/`: matches folders only.
    var mustBeDirectory: Bool
    /// No `/` in the pattern (besides a trailing one): matched against the
    /// last path component, at any depth below its file's folder.
    var basenameOnly: Bool
    /// How many leading bytes hold no wildcard (`*`, `?`, `[`, `\`).
    var literalPrefix: Int

    /// The pattern of one line, or nil for a line that holds none (blank
    /// lines, comments, and lines left empty by the rules below).
    init?(line: ArraySlice<UInt8>, base: [UInt8]) {
        var line = Array(line)
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        if line.first == UInt8(ascii: "#") { return nil }
        Self.trimTrailingSpaces(&line)
        negative = line.first == UInt8(ascii: "!")
        if negative { line.removeFirst() }
        mustBeDirectory = line.last == UInt8(ascii: "/")
        if mustBeDirectory { line.removeLast() }
        if line.isEmpty { return nil } // git keeps it, but an empty pattern matches nothing
        basenameOnly = !line.contains(UInt8(ascii: "/"))
        literalPrefix = line.firstIndex { Self.isWildcard($0) } ?? line.count
        text = line
        self.base = base
    }

    static func isWildcard(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "*") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "\\")
    }

    /// Trailing spaces go unless escaped with a backslash (git's `trim_trailing_spaces`).
    static func trimTrailingSpaces(_ line: inout [UInt8]) {
        var lastSpace: Int? = nil
        var index = 0
        while index < line.count {
            switch line[index] {
            case UInt8(ascii: " "):
                if lastSpace == nil { lastSpace = index }
            case UInt8(ascii: "\\"):
                index += 1
                if index == line.count { return }
                lastSpace = nil
            default:
                lastSpace = nil
            }
            index += 1
        }
        if let lastSpace { line.removeSubrange(lastSpace...) }
    }

    /// Whether the pattern matches `path` (relative to the work tree's top,
    /// no trailing `/`), whose last component starts at `nameStart`.
    func matches(_ path: UnsafeBufferPointer<UInt8>, nameStart: Int, isDirectory: Bool) -> Bool {
        if mustBeDirectory && !isDirectory { return false }
        return text.withUnsafeBufferPointer { pattern in
            if basenameOnly {
                let name = UnsafeBufferPointer(rebasing: path[nameStart...])
                return Wildmatch.match(pattern[...], name[...], pathname: false)
            }
            return matchesPathname(pattern, path)
        }
    }

    /// git's `match_pathname`: the pattern is anchored at its file's folder.
    private func matchesPathname(_ pattern: UnsafeBufferPointer<UInt8>, _ path: UnsafeBufferPointer<UInt8>) -> Bool {
        var patternStart = 0
        var prefix = literalPrefix
        if pattern.first == UInt8(ascii: "/") {
            patternStart = 1
            prefix -= 1
        }
        // The path must lie below the base.
        var nameStart = 0
        if !base.isEmpty {
            guard path.count > base.count, path[base.count] == UInt8(ascii: "/"),
                base.withUnsafeBufferPointer({ base in path.prefix(base.count).elementsEqual(base) })
            else { return false }
            nameStart = base.count + 1
        }
        var name = path[nameStart...]
        var rest = pattern[patternStart...]
        if prefix > 0 {
            guard prefix <= name.count, rest.prefix(prefix).elementsEqual(name.prefix(prefix)) else { return false }
            rest = rest.dropFirst(prefix)
            name = name.dropFirst(prefix)
            if rest.isEmpty && name.isEmpty { return true }
        }
        return Wildmatch.match(rest, name, pathname: true)
    }
}

/// git's `wildmatch` (`wildmatch.c`), byte for byte: `*`, `?`, `[...]`
/// classes (`!`/`^` negation, ranges, `[:alpha:]`-style names, `\`
/// escapes), `\` escapes, and with `pathname` the `**` forms, with `*`, `?`
/// and classes never matching `/`.
enum Wildmatch {
    private enum Outcome { case match, noMatch, abortAll, abortToStarStar }

    static func match(_ pattern: Slice<UnsafeBufferPointer<UInt8>>, _ text: Slice<UnsafeBufferPointer<UInt8>>, pathname: Bool) -> Bool {
        let p = UnsafeBufferPointer(rebasing: pattern)
        let t = UnsafeBufferPointer(rebasing: text)
        return run(p, 0, t, 0, pathname: pathname) == .match
    }

    private static let slash = UInt8(ascii: "/")

    private static func run(
        _ pattern: UnsafeBufferPointer<UInt8>, _ start: Int, _ text: UnsafeBufferPointer<UInt8>, _ textStart: Int,
        pathname: Bool
    ) -> Outcome {
        // Reads past the end give 0, as the C string's terminator does.
        func at(_ buffer: UnsafeBufferPointer<UInt8>, _ index: Int) -> UInt8 { index < buffer.count ? buffer[index] : 0 }
        var p = start
        var t = textStart
        while p < pattern.count {
            var patternByte = pattern[p]
            let textByte = at(text, t)
            if textByte == 0 && t >= text.count && patternByte != UInt8(ascii: "*") { return .abortAll }
            switch patternByte {
            case UInt8(ascii: "?"):
                if pathname && textByte == slash { return .noMatch }
            case UInt8(ascii: "*"):
                var matchSlash: Bool
                p += 1
                if at(pattern, p) == UInt8(ascii: "*") {
                    let before = p - 2
                    while at(pattern, p + 1) == UInt8(ascii: "*") { p += 1 }
                    p += 1
                    if (before < start || pattern[before] == slash)
                        && (p >= pattern.count || pattern[p] == slash || (at(pattern, p) == UInt8(ascii: "\\") && at(pattern, p + 1) == slash))
                    {
                        if p < pattern.count && pattern[p] == slash && run(pattern, p + 1, text, t, pathname: pathname) == .match {
                            return .match
                        }
                        matchSlash = true
                    } else {
                        matchSlash = !pathname
                    }
                } else {
                    matchSlash = !pathname
                }
                if p >= pattern.count {
                    // A trailing `**` matches everything; a trailing `*` only what holds no `/`.
                    if !matchSlash && text[t...].contains(slash) { return .noMatch }
                    return .match
                } else if !matchSlash && pattern[p] == slash {
                    // One `*` then `/`: matches up to the next `/`.
                    guard let next = text[t...].firstIndex(of: slash) else { return .noMatch }
                    t = next
                    break // the `/` is matched by the loop's step
                } else {
                    while true {
                        if t >= text.count { break }
                        if !isSpecial(pattern[p]) {
                            // A literal follows: skip to where it appears.
                            let literal = pattern[p]
                            while t < text.count && (matchSlash || text[t] != slash) {
                                if text[t] == literal { break }
                                t += 1
                            }
                            if t >= text.count || text[t] != literal { return .noMatch }
                        }
                        let matched = run(pattern, p, text, t, pathname: pathname)
                        if matched != .noMatch {
                            if !matchSlash || matched != .abortToStarStar { return matched }
                        } else if !matchSlash && text[t] == slash {
                            return .abortToStarStar
                        }
                        t += 1
                    }
                    return .abortAll
                }
            case UInt8(ascii: "["):
                p += 1
                patternByte = at(pattern, p)
                if patternByte == UInt8(ascii: "^") { patternByte = UInt8(ascii: "!") }
                let negated = patternByte == UInt8(ascii: "!")
                if negated {
                    p += 1
                    patternByte = at(pattern, p)
                }
                var previous: UInt8 = 0
                var matched = false
                repeat {
                    if p >= pattern.count { return .abortAll }
                    if patternByte == UInt8(ascii: "\\") {
                        p += 1
                        patternByte = at(pattern, p)
                        if p >= pattern.count { return .abortAll }
                        if textByte == patternByte { matched = true }
                    } else if patternByte == UInt8(ascii: "-") && previous != 0 && p + 1 < pattern.count && pattern[p + 1] != UInt8(ascii: "]") {
                        p += 1
                        patternByte = pattern[p]
                        if patternByte == UInt8(ascii: "\\") {
                            p += 1
                            patternByte = at(pattern, p)
                            if p >= pattern.count { return .abortAll }
                        }
                        if textByte <= patternByte && textByte >= previous { matched = true }
                        patternByte = 0 // so that `previous` becomes 0
                    } else if patternByte == UInt8(ascii: "[") && at(pattern, p + 1) == UInt8(ascii: ":") {
                        p += 2
                        let nameStart = p
                        while p < pattern.count && pattern[p] != UInt8(ascii: "]") { p += 1 }
                        if p >= pattern.count { return .abortAll }
                        let length = p - nameStart - 1
                        if length < 0 || pattern[p - 1] != UInt8(ascii: ":") {
                            // No ":]": a plain `[` in the set.
                            p = nameStart - 2
                            patternByte = UInt8(ascii: "[")
                            if textByte == patternByte { matched = true }
                            previous = patternByte
                            p += 1
                            patternByte = at(pattern, p)
                            continue
                        }
                        let name = String(decoding: pattern[nameStart..<(nameStart + length)], as: UTF8.self)
                        guard let test = classes[name] else { return .abortAll }
                        if test(textByte) { matched = true }
                        patternByte = 0
                    } else if textByte == patternByte {
                        matched = true
                    }
                    previous = patternByte
                    p += 1
                    patternByte = at(pattern, p)
                } while p >= pattern.count || patternByte != UInt8(ascii: "]")
                if matched == negated || (pathname && textByte == slash) { return .noMatch }
            case UInt8(ascii: "\\"):
                p += 1
                if p >= pattern.count || textByte != pattern[p] { return .noMatch }
            default:
                if textByte != patternByte || t >= text.count { return .noMatch }
            }
            p += 1
            t += 1
        }
        return t < text.count ? .noMatch : .match
    }

    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "*") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "\\")
    }

    /// The `[:name:]` classes, for ASCII bytes as git tests them.
    private static let classes: [String: @Sendable (UInt8) -> Bool] = [
        "alnum": { isalnum(Int32($0)) != 0 && $0 < 128 },
        "alpha": { isalpha(Int32($0)) != 0 && $0 < 128 },
        "blank": { $0 == 32 || $0 == 9 },
        "cntrl": { $0 < 32 || $0 == 127 },
        "digit": { $0 >= 48 && $0 <= 57 },
        "graph": { $0 > 32 && $0 < 127 },
        "lower": { $0 >= 97 && $0 <= 122 },
        "print": { $0 >= 32 && $0 < 127 },
        "punct": { $0 > 32 && $0 < 127 && isalnum(Int32($0)) == 0 },
        "space": { $0 == 32 || ($0 >= 9 && $0 <= 13) },
        "upper": { $0 >= 65 && $0 <= 90 },
        "xdigit": { isxdigit(Int32($0)) != 0 && $0 < 128 },
    ]
}

/// The ignore files in force in one folder of a walk, in rising precedence:
/// the global excludes file, `.git/info/exclude`, then every `.gitignore`
/// from the work tree's top down to the folder. Within a file the last
/// matching line decides; a deeper file decides before a shallower one.
struct IgnoreRules: Sendable {
    /// Each file's patterns, in rising precedence.
    private(set) var files: [[IgnorePattern]] = []
    /// Whether every pattern matches an entry's name alone (`*.tmp`,
    /// `drafts/`: most do), so that no path from the top need be made for
    /// each entry the walk meets.
    private(set) var matchesNamesOnly = true
    /// The folder the rules are for, relative to the work tree's top ("" at the top).
    private(set) var folder: String

    /// The rules with the folder's own `.gitignore` added (`realFolder` is
    /// the folder's real path).
    func adding(gitignoreIn realFolder: String) -> IgnoreRules {
        var rules = self
        if let patterns = Self.patterns(ofFile: realFolder + "/.gitignore", base: folder, followingLink: false) {
            rules.add(patterns)
        }
        return rules
    }

    /// The rules for the folder `name` inside this one, without its own `.gitignore`.
    func descending(into name: String) -> IgnoreRules {
        var rules = self
        rules.folder = folder.isEmpty ? name : folder + "/" + name
        return rules
    }

    /// Whether the entry `name` of this folder is ignored.
    func isIgnored(_ name: String, isDirectory: Bool) -> Bool {
        let byNameAlone = folder.isEmpty || matchesNamesOnly
        var path = byNameAlone ? name : folder + "/" + name
        let nameStart = byNameAlone ? 0 : folder.utf8.count + 1
        return path.withUTF8 { path in
            for file in files.reversed() {
                for pattern in file.reversed() where pattern.matches(path, nameStart: nameStart, isDirectory: isDirectory) {
                    return !pattern.negative
                }
            }
            return false
        }
    }

    /// The rules at the top of the work tree whose top is `top` (real path)
    /// and whose git folder is `gitDirectory`, before the top's `.gitignore`.
    init(top: String, gitDirectory: String) {
        folder = ""
        if let global = Self.globalExcludesFile(), let patterns = Self.patterns(ofFile: global, base: "", followingLink: true) {
            add(patterns)
        }
        if let patterns = Self.patterns(ofFile: Self.commonDirectory(of: gitDirectory) + "/info/exclude", base: "", followingLink: true) {
            add(patterns)
        }
    }

    private mutating func add(_ patterns: [IgnorePattern]) {
        files.append(patterns)
        matchesNamesOnly = matchesNamesOnly && patterns.allSatisfy(\.basenameOnly)
    }

    /// The patterns of an ignore file, nil when it cannot be read. Only a
    /// regular file is read, and at most 16 MiB of it. A `.gitignore` that is
    /// a symbolic link is not followed (as git 2.32 and later).
    static func patterns(ofFile path: String, base: String, followingLink: Bool) -> [IgnorePattern]? {
        guard let bytes = readSmallRegularFile(path, followingLink: followingLink) else { return nil }
        var content = bytes[...]
        if content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        let base = Array(base.utf8)
        return content.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).compactMap {
            IgnorePattern(line: $0, base: base)
        }
    }

    private static func readSmallRegularFile(_ path: String, followingLink: Bool) -> [UInt8]? {
        let limit = 16 << 20
        let descriptor = Posix.openFile(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followingLink ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else { return nil }
        defer { Posix.closeFile(descriptor) }
        guard let info = Posix.status(of: descriptor), info.isRegularFile, Int(info.st_size) <= limit else { return nil }
        return Posix.readAll(descriptor, sizeHint: Int(info.st_size), limit: limit).bytes
    }

    /// The global excludes file: `core.excludesFile` of the user's git
    /// configuration (`$XDG_CONFIG_HOME/git/config`, then `~/.gitconfig`,
    /// the later one winning, as git reads them), else
    /// `$XDG_CONFIG_HOME/git/ignore`, else `~/.config/git/ignore`.
    static func globalExcludesFile() -> String? {
        let environment = Environment.process
        let home = environment.nonEmpty("HOME")
        let xdg = environment.nonEmpty("XDG_CONFIG_HOME") ?? home.map { $0 + "/.config" }
        var configured: String? = nil
        for config in [xdg.map { $0 + "/git/config" }, home.map { $0 + "/.gitconfig" }].compactMap({ $0 }) {
            if let bytes = readSmallRegularFile(config, followingLink: true), let value = GitConfig.value(of: "core", "excludesfile", in: bytes) {
                configured = value
            }
        }
        if var configured {
            if configured.hasPrefix("~/"), let home { configured = home + configured.dropFirst(1) }
            return configured
        }
        return xdg.map { $0 + "/git/ignore" }
    }

    /// The folder shared by every work tree of the repository: `commondir`
    /// names it in a linked work tree's git folder.
    static func commonDirectory(of gitDirectory: String) -> String {
        guard let bytes = readSmallRegularFile(gitDirectory + "/commondir", followingLink: true) else { return gitDirectory }
        let named = String(decoding: bytes, as: UTF8.self).trimmingWhiteSpace(.spacesAndNewlines)
        if named.isEmpty { return gitDirectory }
        return named.hasPrefix("/") ? named : gitDirectory + "/" + named
    }

    /// The work tree around `folder` (a real path): its top and its git
    /// folder, found by looking for `.git` (a folder holding `HEAD`, or a
    /// file saying `gitdir: PATH`) from `folder` upwards; nil outside one.
    static func workTree(around folder: String) -> (top: String, gitDirectory: String)? {
        var current = folder
        while true {
            let dotGit = (current == "/" ? "" : current) + "/.git"
            if let info = Posix.status(atPath: dotGit) {
                if info.isDirectory {
                    if Posix.exists(dotGit + "/HEAD") { return (current, dotGit) }
                } else if info.isRegularFile, let bytes = readSmallRegularFile(dotGit, followingLink: true) {
                    let text = String(decoding: bytes, as: UTF8.self)
                    guard text.hasPrefix("gitdir:") else { return nil }
                    let named = text.dropFirst("gitdir:".count).trimmingWhiteSpace(.spacesAndNewlines)
                    return (current, named.hasPrefix("/") ? named : (current == "/" ? "" : current) + "/" + named)
                }
            }
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { return nil }
            current = parent
        }
    }

    /// The rules in force in `root` (a real path), before its own
    /// `.gitignore`; nil when `root` is in no git work tree, or when the
    /// root or a folder above it inside the work tree is itself ignored
    /// (the user named that folder on purpose: its files are all read).
    static func forRoot(_ root: String) -> IgnoreRules? {
        guard let (top, gitDirectory) = workTree(around: root) else { return nil }
        var rules = IgnoreRules(top: top, gitDirectory: gitDirectory)
        guard root != top else { return rules }
        let below = root.hasPrefix(top == "/" ? "/" : top + "/") ? String(root.dropFirst(top == "/" ? 1 : top.count + 1)) : ""
        var real = top
        for component in below.split(separator: "/").map(String.init) {
            rules = rules.adding(gitignoreIn: real)
            if rules.isIgnored(component, isDirectory: true) { return nil }
            rules = rules.descending(into: component)
            real = (real == "/" ? "" : real) + "/" + component
        }
        return rules
    }
}

/// Reads one key of a git configuration file (`[section] key = value`),
/// enough for `core.excludesFile`: sections and keys are matched without
/// case, `#` and `;` start comments, double quotes and backslash escapes are
/// undone. The last value wins.
enum GitConfig {
    static func value(of section: String, _ key: String, in bytes: [UInt8]) -> String? {
        var inSection = false
        var found: String? = nil
        for rawLine in String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            var line = Substring(rawLine).trimmingWhiteSpace()[...]
            if line.hasPrefix("[") {
                guard let close = line.firstIndex(of: "]") else { continue }
                let header = line[line.index(after: line.startIndex)..<close].trimmingWhiteSpace()
                inSection = header.lowercased() == section.lowercased()
                line = line[line.index(after: close)...]
                line = line.trimmingWhiteSpace()[...]
                if line.isEmpty { continue }
            }
            guard inSection, let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals].trimmingWhiteSpace()
            guard name.lowercased() == key.lowercased() else { continue }
            found = unquote(line[line.index(after: equals)...])
        }
        return found
    }

    /// A value with its quotes, escapes and trailing comment undone.
    private static func unquote(_ raw: Substring) -> String {
        var result = ""
        var quoted = false
        var escaped = false
        var pendingSpace = ""
        for character in raw.trimmingWhiteSpace() {
            if escaped {
                switch character {
                case "n": result += pendingSpace + "\n"
                case "t": result += pendingSpace + "\t"
                default: result += pendingSpace + String(character)
                }
                pendingSpace = ""
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if !quoted && (character == "#" || character == ";") {
                break
            } else if !quoted && (character == " " || character == "\t") {
                pendingSpace.append(character)
            } else {
                result += pendingSpace + String(character)
                pendingSpace = ""
            }
        }
        return result
    }
}
