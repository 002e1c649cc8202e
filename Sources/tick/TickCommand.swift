import ArgumentParser

/// The `tick` command. Help text (every command's `discussion`) is written
/// as paragraphs, each one line in the string (a backslash ends each source
/// line), so that argument-parser wraps it to the terminal; lines indented
/// by two spaces (examples, tables) are printed as they are and must fit 80
/// columns. The USAGE line is wrapped by `wrappingUsage` (Entry.swift).
@main
struct Tick: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tick",
        abstract: "Your Markdown notes as to-do lists: see, query and change them from the terminal.",
        discussion: """
            Every *.md file below the notes folder is a list; every `- [ ] item` in it is an item. \
            tick changes only the bytes a command is about, so `git diff` shows one changed line. \
            Plain `tick` shows the home screen.

            Examples:
              tick --dir ~/notes
              tick today
              tick query 'open due <= +7d #work' --sort due
              tick show groceries
              tick check
              tick lsp
            """,
        version: "0.1.0",
        subcommands: [
            Home.self,
            Lists.self,
            Show.self,
            Today.self,
            Scheduled.self,
            All.self,
            Overdue.self,
            Completed.self,
            Agenda.self,
            Query.self,
            View.self,
            Export.self,
            Open.self,
            Check.self,
            Add.self,
            Done.self,
            Reopen.self,
            Cancel.self,
            Start.self,
            Note.self,
            Edit.self,
            Move.self,
            Remove.self,
            Sort.self,
            Archive.self,
            New.self,
            Undo.self,
            Redo.self,
            Merge.self,
            Git.self,
            Lsp.self,
        ],
        defaultSubcommand: Home.self
    )
}

extension CommandConfiguration {
    /// A `tick` subcommand's configuration. `tick` parses the subcommand a
    /// command line names as a root of its own (`Tick.parseCommand`), and
    /// the subcommand names `tick` as its super-command. With it,
    /// argument-parser does not also try the line as its completion-script
    /// pseudo-commands (two more reflected commands: 1.8 of a query's 16.3
    /// million instructions of parse, measured with callgrind). It also keeps whatever the
    /// library says of its usage reading `tick query …`. (argument-parser
    /// calls `_superCommandName` experimental; it exists for commands run
    /// apart from their parent, as these are.)
    static func subcommand(
        commandName: String, abstract: String, discussion: String = "", subcommands: [ParsableCommand.Type] = []
    ) -> CommandConfiguration {
        CommandConfiguration(
            commandName: commandName, _superCommandName: "tick", abstract: abstract, discussion: discussion,
            subcommands: subcommands)
    }
}
