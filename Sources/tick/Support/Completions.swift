import ArgumentParser
import Foundation
import TickModel
import TickRecords
import TickStore
import TickSystem

/// Shell completions that know the notes folder: list names and item
/// titles, read from the folder the command line names (`--dir`, else
/// `$TICK_DIR`, else the config file's folder, else the current folder),
/// through the parse cache. Nothing is printed on failure: a completion
/// never shows an error.
enum Completions {
    /// The most candidates a completion offers: in a folder of 50,000
    /// notes an empty word would match a million titles, which no shell
    /// can show; typing more of the word narrows them.
    static let limit = 1_000

    /// Lists by path without `.md` (what LIST accepts everywhere).
    static let lists = CompletionKind.custom { words, _, prefix in
        candidates(words, prefix) { workspace, _, offer in
            for document in workspace.listHeadersInOrder where !offer(listWord(document)) { return }
        }
    }

    /// The titles of open items, then of the others.
    static let items = CompletionKind.custom { words, _, prefix in
        candidates(words, prefix) { workspace, wanted, offer in
            guard offerTitles(in: workspace, open: true, wanted, offer) else { return }
            _ = offerTitles(in: workspace, open: false, wanted, offer)
        }
    }

    /// Items and lists: the words of `tick mv` (ITEM, then LIST).
    static let itemsAndLists = CompletionKind.custom { words, _, prefix in
        candidates(words, prefix) { workspace, wanted, offer in
            guard offerTitles(in: workspace, open: true, wanted, offer) else { return }
            for document in workspace.listHeadersInOrder where !offer(listWord(document)) { return }
        }
    }

    /// A list as LIST accepts it: its path without `.md` (or `.markdown`).
    private static func listWord(_ document: EncodedDocument) -> String {
        Document.withoutExtension(document.path)
    }

    /// Offers the title of each item that is open (or each that is not),
    /// in manual order, that starts with `wanted`: compared in place, so
    /// that a title is made a `String` only when it is offered. False when
    /// `offer` wants no more.
    private static func offerTitles(
        in workspace: EncodedWorkspace, open: Bool, _ wanted: Wanted, _ offer: (String) -> Bool
    ) -> Bool {
        // The cache's pages are given back every few hundred lists: a
        // completion that reads every list holds a few megabytes of them.
        var pages = CachePages()
        defer { pages.release() }
        for (position, document) in workspace.listHeadersInOrder.enumerated() {
            let list = workspace.checked(document)
            pages.include(list)
            for item in list.items() where item.status.isOpen == open && wanted.isPrefix(of: item.title) {
                if !offer(item.title.string) { return false }
            }
            if position % 256 == 255 {
                pages.release()
                pages = CachePages()
            }
        }
        return true
    }

    /// The word being completed, lowercased: offered candidates start with
    /// it in any case.
    private struct Wanted {
        let text: String
        let isASCII: Bool

        init(_ word: String) {
            text = word.lowercased()
            // (A CR may join the LF after it into one character, which a
            // prefix must not split: such a word is compared as a `String`.)
            isASCII = text.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
        }

        /// True when `title`, lowercased, starts with the word: as bytes
        /// when both are ASCII (lowercasing ASCII keeps its length), else as
        /// `String`s (a character that is not ASCII may be canonically an
        /// ASCII one: U+037E, the Greek question mark, is `;`).
        func isPrefix(of title: EncodedText) -> Bool {
            let bytes = title.bytes
            if isASCII, ByteText.isASCII(bytes) {
                guard bytes.count >= text.utf8.count else { return false }
                return text.withUTF8Bytes { ByteText.equalASCIICaseFolded(UnsafeBufferPointer(rebasing: bytes[..<$0.count]), $0) }
            }
            return title.string.lowercased().hasPrefix(text)
        }

        func isPrefix(of candidate: String) -> Bool { candidate.lowercased().hasPrefix(text) }
    }

    /// The candidates `offer` is given by `make` from the folder the words
    /// name, that start with `prefix` (any case), each once, in order, at
    /// most `limit`; `make` stops when `offer` returns false.
    private static func candidates(
        _ words: [String], _ prefix: String, _ make: (EncodedWorkspace, Wanted, (String) -> Bool) -> Void
    ) -> [String] {
        var folderPath: String? = nil
        for (index, word) in words.enumerated() {
            if word == "--dir", index + 1 < words.count { folderPath = unquoted(words[index + 1]) }
            if word.hasPrefix("--dir=") { folderPath = unquoted(String(word.dropFirst(6))) }
        }
        if folderPath == nil, let dir = Environment.process.nonEmpty("TICK_DIR") { folderPath = dir }
        try? Configuration.loadUser()
        let path =
            folderPath.map { $0 == "~" || $0.hasPrefix("~/") ? NSHomeDirectory() + $0.dropFirst() : $0 }
            ?? Configuration.defaultFolder ?? FileManager.default.currentDirectoryPath
        guard let folder = try? NotesFolder(path: path) else { return [] }
        let workspace = EncodedWorkspace.load(folder, cache: ParseCache(root: folder.root))
        let wanted = Wanted(unquoted(prefix))
        var found: [String] = []
        var seen = Set<String>()
        make(workspace, wanted) { candidate in
            if wanted.isPrefix(of: candidate), seen.insert(candidate).inserted { found.append(candidate) }
            return found.count < limit
        }
        return found
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
