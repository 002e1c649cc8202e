import ArgumentParser
import Foundation
import TickModel

extension Tick {
    /// `tick lsp`: the Language Server Protocol server (SPEC §10).
    struct Lsp: TickCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "lsp",
            abstract: "Serve the Language Server Protocol over standard input and output, for editors.",
            discussion: """
                Diagnostics as tick check reports them, computed from the editor's unsaved text; code \
                actions on an item line (done, start, reopen, cancel, priority up and down, postpone, \
                clear the due date) that make exactly the changes tick's commands make; completion of \
                dates, priorities and tags; hover on an item; workspace symbols; and the command \
                tick.query. The notes folder is the editor's workspace root, else --dir. \
                docs/EDITORS.md shows how to set up Neovim, Helix and VS Code.

                Examples:
                  tick lsp
                  tick lsp --dir ~/notes
                """)

        @OptionGroup var folder: FolderOptions
        @Flag(name: .long, help: "Accepted for editors that pass it; standard input and output are always used.") var stdio = false

        func execute() throws {
            // A client that closes its end must not kill the server mid-write.
            signal(SIGPIPE, SIG_IGN)
            let server = LanguageServer(
                input: STDIN_FILENO, output: STDOUT_FILENO, folderPath: folder.folderPath,
                today: folder.todayDate)
            let status = server.run()
            if status != 0 { throw ExitCode(status) }
        }
    }
}
