import ArgumentParser
import Foundation
import TickEngine
import TickModel
import TickSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Tick {
    /// `tick open ITEM`: the item's file in the user's editor, at its line.
    struct Open: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "open",
            abstract: "Open an item's file in $VISUAL or $EDITOR at the item's line.",
            discussion: """
                ITEM is PATH:LINE, ^id, or text that matches one item's title. The editor is $VISUAL, \
                else $EDITOR, else vi, started as `EDITOR +LINE PATH` (VS Code as `code -g PATH:LINE`, \
                Sublime Text and Zed as `subl PATH:LINE`).

                Examples:
                  tick open ^q4plan
                  tick open groceries.md:12
                  EDITOR=nano tick open "planning doc"
                """)

        @OptionGroup var folder: FolderOptions
        @Argument(help: "The item: PATH:LINE, ^id, or part of its title.", completion: Completions.items) var item: String
        @Option(name: .long, help: "Look for the item only in this list.") var list: String?

        func execute() throws {
            let root = try folder.folder()
            let workspace = try folder.workspace()
            let documents = workspace.documents
            let (document, index) = try workspace.locate(
                item, in: try list.map { [documents[try ListLookup.resolve($0, in: documents)]] })
            let line = document.line(of: index)
            let path = root.absolute(document.path)
            let environment = Environment.process
            let editor =
                [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }
                .first { !$0.trimmingWhiteSpace().isEmpty } ?? "vi"
            let arguments = Self.editorArguments(editor: editor, path: path, line: line)
            fflush(nil) // every stream: nothing printed may be lost by exec
            // The shell splits the editor setting into words ("code -w"); the file is passed as is.
            let argv = ["sh", "-c", editor + " \"$@\"", "tick-open"] + arguments
            var cArguments = argv.map { strdup($0) } + [nil]
            execv("/bin/sh", &cArguments)
            throw TickError.failed("cannot start the editor '\(editor)': \(String(cString: strerror(errno)))")
        }

        /// What to pass the editor so that it opens `path` at `line`.
        static func editorArguments(editor: String, path: String, line: Int) -> [String] {
            let command = editor.split(separator: " ").first.map { String($0.split(separator: "/").last ?? $0) } ?? editor
            switch command {
            case "code", "code-insiders", "codium", "cursor", "windsurf": return ["-g", "\(path):\(line)"]
            case "subl", "zed", "mate", "hx", "helix": return ["\(path):\(line)"]
            default: return ["+\(line)", path]
            }
        }
    }
}
