import ArgumentParser
import Foundation
import TickRecords
import TickStore

/// Shell completions that know the notes folder: list names and item
/// titles, read from the folder the command line names (`--dir`, else
/// `$TICK_DIR`, else the config file's folder, else the current folder),
/// through the parse cache. Nothing is printed on failure: a completion
/// never shows an error.
enum Completions {
    /// Lists by path without `.md` (what LIST accepts everywhere).
    static let lists = CompletionKind.custom { words, _, prefix in
        candidates(words, prefix) { workspace in workspace.listHeadersInOrder.map(listWord) }
    }

    /// The titles of open items, then of the others.
    static let items = CompletionKind.custom { words, _, prefix in
        candidates(words, prefix) { workspace in
            let items = workspace.items
            return items.filter { $0.status.isOpen }.map(\.title.string) + items.filter { !$0.status.isOpen }.map(\.title.string)
        }
    }

    /// Items and lists: the words of `tick mv` (ITEM, then LIST).
    static let itemsAndLists = CompletionKind.custom { words, _, prefix in
        candidates(words, prefix) { workspace in
            workspace.items { $0.status.isOpen }.map(\.title.string) + workspace.listHeadersInOrder.map(listWord)
        }
    }

    /// A list as LIST accepts it: its path without `.md` (or `.markdown`).
    private static func listWord(_ document: EncodedDocument) -> String {
        String(document.path.dropLast(document.path.hasSuffix(".markdown") ? 9 : 3))
    }

    /// The candidates `make` finds in the folder the words name, that start
    /// with `prefix` (any case), each once, in order.
    private static func candidates(_ words: [String], _ prefix: String, _ make: (EncodedWorkspace) -> [String]) -> [String] {
        var folderPath: String? = nil
        for (index, word) in words.enumerated() {
            if word == "--dir", index + 1 < words.count { folderPath = unquoted(words[index + 1]) }
            if word.hasPrefix("--dir=") { folderPath = unquoted(String(word.dropFirst(6))) }
        }
        if folderPath == nil, let dir = ProcessInfo.processInfo.environment["TICK_DIR"], !dir.isEmpty { folderPath = dir }
        try? Configuration.loadUser()
        let path =
            folderPath.map { $0 == "~" || $0.hasPrefix("~/") ? NSHomeDirectory() + $0.dropFirst() : $0 }
            ?? Configuration.defaultFolder ?? FileManager.default.currentDirectoryPath
        guard let folder = try? NotesFolder(path: path) else { return [] }
        let workspace = EncodedWorkspace.load(folder, cache: ParseCache(root: folder.root))
        let wanted = unquoted(prefix).lowercased()
        var seen = Set<String>()
        return make(workspace).filter { $0.lowercased().hasPrefix(wanted) && seen.insert($0).inserted }
    }

    /// A shell word without the quotes around it.
    private static func unquoted(_ word: String) -> String {
        guard word.count >= 2, let first = word.first, first == "'" || first == "\"", word.last == first else {
            return word.hasPrefix("'") || word.hasPrefix("\"") ? String(word.dropFirst()) : word
        }
        return String(word.dropFirst().dropLast())
    }
}

/// The completion scripts argument-parser writes, with what it leaves out:
/// the command names after `tick help` (its help command takes no
/// completion of its own).
enum CompletionScripts {
    /// `tick --generate-completion-script SHELL`, when the arguments ask for it.
    static func requested(in arguments: [String]) -> CompletionShell? {
        for (index, argument) in arguments.enumerated() {
            if argument == "--generate-completion-script", index + 1 < arguments.count { return CompletionShell(rawValue: arguments[index + 1]) }
            if argument.hasPrefix("--generate-completion-script=") { return CompletionShell(rawValue: String(argument.dropFirst(29))) }
        }
        return nil
    }

    static func script(for shell: CompletionShell) -> String {
        let script = Tick.completionScript(for: shell)
        let names = Tick.commandNames.filter { $0 != "help" }.joined(separator: " ")
        switch shell {
        case .bash:
            // The help command's function ends by offering its flags: then the commands.
            guard let start = script.range(of: "\n_tick_help() {\n"),
                let end = script.range(of: "\n}\n", range: start.upperBound..<script.endIndex)
            else { return script }
            return script.replacingCharacters(
                in: end.lowerBound..<end.lowerBound,
                with: "\n    __tick_add_completions -W $'\(Tick.commandNames.filter { $0 != "help" }.joined(separator: "\\n"))'")
        case .zsh:
            guard let start = script.range(of: "\n_tick_help() {\n"),
                let spec = script.range(of: "'*:subcommands:'", range: start.upperBound..<script.endIndex)
            else { return script }
            return script.replacingCharacters(in: spec, with: "'*:subcommands:(\(names))'")
        case .fish:
            return script + "complete -c 'tick' -n '__fish_seen_subcommand_from help' -fa '\(names)'\n"
        default:
            return script
        }
    }
}
