import ArgumentParser
import TickEdit
import TickModel
import TickSystem

extension Tick {
    /// `tick note ITEM TEXT`: a note line under the item.
    struct Note: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "note",
            abstract: "Add a note line under an item, indented like its other notes.",
            discussion: """
                The line goes after the item's notes and before its subtasks, with the same \
                indentation (and block-quote markers). Text that would not read back as a note of \
                the item (a task line such as "- [ ] x") is refused: put a word before it.

                Examples:
                  tick note ^q4plan "Priya signed off on the hiring section"
                  tick note groceries.md:12 Ask for the organic one
                """)

        @OptionGroup var folder: FolderOptions
        @OptionGroup var write: WriteOptions
        @OptionGroup var search: ItemSearchOptions
        @Argument(help: "The item: PATH:LINE, ^id or title text.", completion: Completions.items) var item: String
        @Argument(help: "The note's text (several words are joined by spaces).") var text: [String] = []

        func execute() throws {
            let note = text.joined(separator: " ").trimmingWhiteSpace()
            if note.isEmpty { throw TickError.usage("missing TEXT: the note, e.g. tick note \(item) \"Call before noon\"") }
            try OptionValue.oneLine(note, option: "TEXT")
            let session = try EditSession(folder: folder)
            let path = try session.locate(item, list: search.list).document.path
            let spec = item
            try session.run(paths: [path], dryRun: write.dryRun) { inputs in
                let (document, target) = try session.locate(spec, list: search.list, in: inputs.documents)
                guard let (splice, line) = AddNote.splice(adding: note, to: target, in: document) else {
                    throw TickError.usage(
                        "'\(note)' would not read back as a note of \(document.address(of: target)) "
                            + "(it would make an item of its own); put a word before it")
                }
                let bytes = try EditSession.apply([splice], to: document)
                var outcome = EditOutcome(files: [.replace(path: path, bytes: bytes)])
                outcome.messages.append("added a note at \(path):\(line) under \(document.address(of: target))  \(target.title)")
                return outcome
            }
        }
    }
}
