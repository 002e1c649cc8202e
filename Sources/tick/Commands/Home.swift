import ArgumentParser
import TickOutput

extension Tick {
    /// `tick` with no subcommand: the home screen.
    struct Home: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "home",
            abstract: "Show the home screen: the Today, Scheduled, All and Overdue counts, then every list.",
            discussion: """
                This is what plain `tick` shows. Lists come in their order (front matter `order:`, \
                then name), each with its icon, color and number of open items.

                Examples:
                  tick
                  tick home --dir ~/notes --json
                """)

        @OptionGroup var folder: FolderOptions
        @OptionGroup var output: OutputOptions

        func execute() throws {
            let workspace = try folder.workspace()
            let today = folder.todayDate
            if output.json {
                Terminal.writeJSON(ItemJSON.home(workspace, today: today))
                return
            }
            let display = output.display
            display.print(ListsView.home(workspace, today: today, width: display.width))
        }
    }

    /// `tick lists`: every list with its counts.
    struct Lists: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "lists",
            abstract: "List the lists: icon, name in its color, open and done counts, path.",
            discussion: """
                Examples:
                  tick lists
                  tick lists --json | jq -r '.lists[].path'
                """)

        @OptionGroup var folder: FolderOptions
        @OptionGroup var output: OutputOptions

        func execute() throws {
            let workspace = try folder.workspace()
            if output.json {
                Terminal.writeJSON(ItemJSON.lists(workspace, today: folder.todayDate))
                return
            }
            let display = output.display
            display.print(ListsView.lines(workspace, details: true, width: display.width))
        }
    }
}
