import ArgumentParser
import Foundation
import TickModel
import TickStore
import TickSystem

/// Where the notes are and what day it is: shared by every subcommand, so
/// the options may follow the subcommand's name.
struct FolderOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("The notes folder (default: $TICK_DIR, else folder: in the config file, else the current folder).", valueName: "dir"),
        completion: .directory)
    var dir: String?

    @Option(name: .long, help: ArgumentHelp("Pretend today is this date, YYYY-MM-DD (default: $TICK_TODAY, else the local date).", valueName: "date"))
    var today: String?

    func validate() throws {
        if let text = today ?? Environment.process.nonEmpty("TICK_TODAY"), TaskDate(iso: text) == nil {
            let origin = today == nil ? "TICK_TODAY" : "--today"
            throw ValidationError("\(origin) '\(text)' is not a date; write YYYY-MM-DD, e.g. 2026-11-21")
        }
    }

    /// The notes folder's path as given.
    var folderPath: String { Self.folderPath(dir: dir) }

    /// The notes folder's path: `dir` (from `--dir`), else $TICK_DIR, else
    /// `folder:` in the config file, else the current folder.
    static func folderPath(dir: String?) -> String {
        dir ?? Environment.process.nonEmpty("TICK_DIR") ?? Configuration.defaultFolder ?? FileManager.default.currentDirectoryPath
    }

    func folder() throws -> NotesFolder { try NotesFolder(path: folderPath) }

    var todayDate: TaskDate {
        if let text = today ?? Environment.process.nonEmpty("TICK_TODAY"), let date = TaskDate(iso: text) { return date.dayOnly }
        return TaskDate.today()
    }
}
