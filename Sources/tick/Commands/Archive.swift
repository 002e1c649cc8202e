import ArgumentParser
import Foundation
import TickEdit
import TickModel
import TickStore
import TickSystem

extension Tick {
    /// `tick archive LIST [--to FILE]`: done and cancelled items out of the way.
    struct Archive: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "archive",
            abstract: "Move done and cancelled items to a ## Done section at the end, or to another file.",
            discussion: """
                Moves every top-level item that is done or cancelled (with its notes and subtasks) \
                that is not already under a Done heading. Without --to they go to the end of the \
                list's ## Done section, which is created at the end of the file when missing; with \
                --to they go to the end of FILE (a list inside the notes folder, created when \
                missing).

                Examples:
                  tick archive groceries
                  tick archive work --to archive/work-2026.md --dry-run
                """)

        @OptionGroup var folder: FolderOptions
        @OptionGroup var write: WriteOptions
        @Argument(help: "The list: its path, file name or name.", completion: Completions.lists) var list: String
        @Option(name: .long, help: ArgumentHelp("Move the items to the end of this list file instead.", valueName: "file")) var to: String?

        func execute() throws {
            let session = try EditSession(folder: folder)
            let path = try session.listPath(list)
            var destinationPath: String? = nil
            if let to {
                guard NotesFolder.isListFile(to) else {
                    throw TickError.usage("--to \(to) must be a .md or .markdown file")
                }
                guard let resolved = try session.filePath(to, mustExist: false) else {
                    throw TickError.usage("--to \(to) is not a list file path")
                }
                destinationPath = resolved
                if resolved == path { throw TickError.usage("--to names the list itself; leave --to out to archive into ## Done") }
            }
            let destinationExists = destinationPath.map { FileManager.default.fileExists(atPath: session.root.absolute($0)) } ?? false
            let lockPaths = [path] + (destinationExists ? [destinationPath!] : [])
            try session.run(paths: lockPaths, dryRun: write.dryRun) { inputs in
                guard let document = inputs.document(path) else { throw TickError.noInput("\(path) cannot be read") }
                var outcome = EditOutcome()
                if let destinationPath {
                    let title = ((destinationPath as NSString).lastPathComponent as NSString).deletingPathExtension
                    let destination = destinationExists ? inputs.document(destinationPath) : nil
                    if destinationExists && destination == nil { throw TickError.noInput("\(destinationPath) cannot be read") }
                    guard let result = TickEdit.Archive.splices(from: document, to: destination, newFileTitle: title) else {
                        outcome.notes.append("\(path) has no done or cancelled items to archive")
                        return outcome
                    }
                    if let destination {
                        outcome.files.append(.replace(path: destinationPath, bytes: try EditSession.apply(result.destination, to: destination)))
                    } else if let text = result.newFile {
                        outcome.files.append(.create(path: destinationPath, bytes: text))
                    }
                    outcome.files.append(.replace(path: path, bytes: try EditSession.apply(result.source, to: document)))
                    outcome.messages.append(
                        "archived \(result.moved.count) item\(result.moved.count == 1 ? "" : "s") from \(path) to \(destinationPath)")
                } else {
                    guard let result = TickEdit.Archive.splices(in: document) else {
                        outcome.notes.append("\(path) has no done or cancelled items to archive")
                        return outcome
                    }
                    outcome.files.append(.replace(path: path, bytes: try EditSession.apply(result.splices, to: document)))
                    outcome.messages.append("archived \(result.moved.count) item\(result.moved.count == 1 ? "" : "s") to ## Done in \(path)")
                }
                return outcome
            }
        }
    }

    /// `tick new NAME`: a new list file.
    struct New: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "new",
            abstract: "Create a new list: NAME.md with front matter and a level-1 heading.",
            discussion: """
                NAME may include folders inside the notes folder (they are created); it may not \
                lead outside it. An existing file is never replaced.

                Examples:
                  tick new Errands --color orange --icon bag
                  tick new projects/kitchen --dry-run
                """)

        @OptionGroup var folder: FolderOptions
        @OptionGroup var write: WriteOptions
        @Argument(help: "The list's name (and file name, .md added).") var name: String
        @Option(name: .long, help: ArgumentHelp("Color: red, orange, ..., gray, or #rrggbb.", valueName: "color")) var color: String?
        @Option(name: .long, help: ArgumentHelp("Icon: a symbol name like cart, or an emoji.", valueName: "icon")) var icon: String?

        func execute() throws {
            let trimmed = name.trimmingWhiteSpace()
            guard !trimmed.isEmpty, !trimmed.hasSuffix("/") else { throw TickError.usage("NAME is empty; give the list a name") }
            try OptionValue.oneLine(trimmed, option: "NAME")
            let chosenColor = try color.map(OptionValue.color)
            let chosenIcon = try icon.map(OptionValue.icon)
            let session = try EditSession(folder: folder)
            let fileName = NotesFolder.isListFile(trimmed) ? trimmed : trimmed + ".md"
            let components = fileName.split(separator: "/")
            if fileName.hasPrefix("/") || components.contains("..") || components.contains(where: { $0.hasPrefix(".") }) {
                throw TickError.badData("\(name) leads outside the notes folder (or into a hidden folder); name a list inside \(session.root.root)")
            }
            let path = try session.insideRoot(session.root.absolute(fileName), as: name)
            if FileManager.default.fileExists(atPath: session.root.absolute(path)) {
                throw TickError.badData("\(path) exists already; pick another name (tick never replaces a file)")
            }
            let title = ((components.last.map(String.init) ?? trimmed) as NSString).deletingPathExtension
            if let clash = session.lists.documents.first(where: {
                $0.name.lowercased() == title.lowercased() || $0.path.lowercased() == path.lowercased()
            }) {
                throw TickError.badData("a list named '\(clash.name)' exists already in \(clash.path); pick another name")
            }
            let text = NewList.text(name: title, color: chosenColor, icon: chosenIcon)
            try session.run(paths: [], dryRun: write.dryRun) { _ in
                EditOutcome(files: [.create(path: path, bytes: text)], messages: ["created \(path)"])
            }
        }
    }
}
