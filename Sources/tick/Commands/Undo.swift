import ArgumentParser
import Foundation
import TickModel
import TickStore

extension Tick {
    /// `tick undo`: reverts the last change tick made to the notes folder.
    struct Undo: TickCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "undo",
            abstract: "Revert the last change tick made in the notes folder, all its files together.",
            discussion: """
                Every command that changes files records what it changed. Undo writes each file \
                back as it was, or nothing when a file no longer holds what the change left (exit \
                75, naming the file). Undo again to go further back; `tick redo` applies an undone \
                change again. --list shows the recent changes, newest first.

                Examples:
                  tick undo
                  tick undo --list
                """)

        @OptionGroup var folder: FolderOptions
        @Flag(name: .long, help: "List the recent changes instead (newest first; undone ones marked).") var list = false

        func execute() throws {
            let journal = try UndoSupport.journal(folder)
            if list {
                let entries = journal.entries()
                if entries.isEmpty { print("No changes recorded in this notes folder yet.") }
                for entry in entries.reversed().prefix(20) {
                    let when = UndoSupport.time(entry.id)
                    let files = entry.files.map(\.path).joined(separator: ", ")
                    print(TerminalText.safe("\(when)  \(entry.undoneAt == nil ? "" : "(undone) ")\(entry.command)  [\(files)]"))
                }
                return
            }
            try UndoSupport.apply(journal, redo: false)
        }
    }

    /// `tick redo`: applies the change undone last again.
    struct Redo: TickCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "redo",
            abstract: "Apply again the change `tick undo` reverted last.",
            discussion: """
                After undo, undo, redo applies the older of the two again, then the newer. A new \
                change ends what can be redone. Nothing is written when a file no longer holds what \
                the undo left (exit 75).

                Examples:
                  tick redo
                """)

        @OptionGroup var folder: FolderOptions

        func execute() throws {
            try UndoSupport.apply(try UndoSupport.journal(folder), redo: true)
        }
    }
}

/// What undo and redo share.
enum UndoSupport {
    static func journal(_ folder: FolderOptions) throws -> ChangeJournal {
        let root = try folder.folder()
        guard let journal = ChangeJournal(root: root.root) else {
            throw TickError.noInput("no folder for the change journal: set XDG_STATE_HOME or HOME")
        }
        return journal
    }

    static func apply(_ journal: ChangeJournal, redo: Bool) throws {
        do {
            let entry = try journal.apply(redo: redo)
            let files = entry.files.map(\.path).joined(separator: ", ")
            print(TerminalText.safe("\(redo ? "redid" : "undid"): \(entry.command)  [\(files)]"))
        } catch {
            switch error {
            case .nothing(let message):
                print(message)
            case .file(let failure):
                switch failure {
                case .changedOnDisk(let path):
                    throw TickError.changedOnDisk("\(path) changed since that change; nothing was \(redo ? "redone" : "undone")")
                default:
                    throw failure.tickError
                }
            }
        }
    }

    /// `2026-11-24 09:30` in local time.
    static func time(_ nanoseconds: Int) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: Date(timeIntervalSince1970: Double(nanoseconds) / 1e9))
    }
}
