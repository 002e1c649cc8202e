import ArgumentParser
import Foundation
import TickEdit
import TickModel
import TickStore
import TickSystem

#if canImport(Glibc)
    import Glibc
#endif

extension Tick {
    /// `tick merge`: git's merge driver for list files (SPEC §8).
    struct Merge: TickCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "merge",
            abstract: "Merge three versions of a list file item by item (git's merge driver).",
            discussion: """
                Git runs this for list files once `tick git setup` has configured the repository: \
                BASE, OURS and THEIRS are git's %O %A %B, and the result is written to OURS. Items \
                are matched across the versions (by ^id, then title) and merged field by field: \
                the box from one side and the due date from the other, both sides' new items kept. \
                Only a real conflict (the same field changed differently, or an item deleted on one \
                side and changed on the other) gets markers, around that one item. Exit 0 when the \
                merge is clean, 1 when conflicts remain. The driver git runs is \
                `tick merge --marker-size %L %O %A %B %P`; docs/GIT.md says what merges and what \
                does not.

                Examples:
                  tick git setup
                """)

        @Option(name: .customLong("marker-size"), help: ArgumentHelp("The length of conflict markers (git's %L).", valueName: "n"))
        var markerSize = 7

        @Argument(help: ArgumentHelp("The common ancestor's version (git's %O).", valueName: "base"), completion: .file())
        var base: String
        @Argument(help: ArgumentHelp("Our version, where the result is written (git's %A).", valueName: "ours"), completion: .file())
        var ours: String
        @Argument(help: ArgumentHelp("Their version (git's %B).", valueName: "theirs"), completion: .file())
        var theirs: String
        @Argument(help: ArgumentHelp("The file's path in the repository (git's %P), used in messages.", valueName: "path"))
        var path: String?

        func validate() throws {
            guard (1...100).contains(markerSize) else {
                throw ValidationError("--marker-size \(markerSize) is out of range; give 1 to 100 (git passes 7)")
            }
        }

        func execute() throws {
            let shownPath = path ?? ours
            func read(_ file: String, _ role: String) throws -> [UInt8] {
                do { return try FileIO.read(file) } catch {
                    throw TickError.noInput("cannot read \(role) version '\(file)': \(error); nothing was merged")
                }
            }
            let versions = (try read(base, "the base"), try read(ours, "our"), try read(theirs, "their"))
            let today: TaskDate = Environment.process["TICK_TODAY"].flatMap { TaskDate(iso: $0) } ?? TaskDate.today()
            let outcome = try ListMerge.merge(
                base: versions.0, ours: versions.1, theirs: versions.2, path: shownPath,
                today: today, markers: ListMerge.Markers(size: markerSize),
                lineMerge: GitProcess.mergeFile)
            if outcome.bytes != versions.1 {
                do { try Data(outcome.bytes).write(to: URL(fileURLWithPath: ours), options: .atomic) } catch {
                    throw TickError.cannotWrite("cannot write the merge to '\(ours)': \(error.localizedDescription)")
                }
            }
            if outcome.conflicts > 0 {
                Terminal.error(
                    "\(shownPath): \(outcome.conflicts) conflict\(outcome.conflicts == 1 ? "" : "s") left between markers; resolve, then `git add \(shownPath)`"
                )
                throw ExitCode(1)
            }
        }
    }

    /// `tick git`: set up a repository for tick.
    struct Git: ParsableCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "git",
            abstract: "Set up the git repository of the notes folder for tick.",
            subcommands: [GitSetup.self])
    }

    /// `tick git setup`: `.gitattributes` and `merge.tick.*`.
    struct GitSetup: TickCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "setup",
            abstract: "Make git merge list files with `tick merge` (writes .gitattributes and merge.tick.* config).",
            discussion: """
                Adds `*.md merge=tick` to the notes folder's .gitattributes and sets merge.tick.name \
                and merge.tick.driver in the repository's own config (.git/config, which is not \
                shared: run it once in every clone). Running it again changes nothing. Commit \
                .gitattributes so that every clone uses the driver once set up.

                Examples:
                  tick git setup
                  tick git setup --dir ~/notes
                """)

        @OptionGroup var folder: FolderOptions
        @Option(
            name: .long,
            help: ArgumentHelp("How git should run tick (default: `tick` when it is on PATH, else this program's full path).", valueName: "command"))
        var command: String?

        /// Every list file: the extensions NotesFolder reads.
        static let attributesLines = ["*.md merge=tick", "*.markdown merge=tick"]
        static let driverName = "tick: merge to-do lists item by item"

        func execute() throws {
            let notes = try folder.folder().root
            let topLevel = try GitProcess.run(["rev-parse", "--show-toplevel"], in: notes)
            guard topLevel.status == 0 else {
                throw TickError.noInput("\(notes) is not in a git work tree; run `git init` there (or clone your notes) first")
            }
            var changed: [String] = []
            // .gitattributes in the notes folder: its patterns apply below it.
            let attributesPath = (notes as NSString).appendingPathComponent(".gitattributes")
            var attributes = FileManager.default.fileExists(atPath: attributesPath) ? try FileIO.read(attributesPath) : []
            let lines = String(decoding: attributes, as: UTF8.self).split(whereSeparator: \.isNewline)
                .map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
            let missing = Self.attributesLines.filter { !lines.contains($0) }
            if !missing.isEmpty {
                if let last = attributes.last, last != 0x0A { attributes += Array("\n".utf8) }
                attributes += Array(missing.map { $0 + "\n" }.joined().utf8)
                do { try Data(attributes).write(to: URL(fileURLWithPath: attributesPath), options: .atomic) } catch {
                    throw TickError.cannotWrite("cannot write \(attributesPath): \(error.localizedDescription)")
                }
                changed += missing.map { "added '\($0)' to \(attributesPath)" }
            }
            let driver = (command ?? Self.defaultCommand()) + " merge --marker-size %L %O %A %B %P"
            for (key, value) in [("merge.tick.name", Self.driverName), ("merge.tick.driver", driver)] {
                let current = try GitProcess.run(["config", "--local", "--get", key], in: notes)
                let now = String(decoding: current.output, as: UTF8.self).trimmingWhiteSpace(.newlines)
                guard current.status != 0 || now != value else { continue }
                let set = try GitProcess.run(["config", "--local", key, value], in: notes)
                guard set.status == 0 else { throw TickError.cannotWrite("git config \(key) failed: \(set.error)") }
                changed.append("set \(key) = \(value)")
            }
            if changed.isEmpty {
                print("Already set up: git merges *.md files in \(notes) with tick merge. Nothing changed.")
                return
            }
            for line in changed { print(line) }
            print(
                "git now merges the list files in \(notes) item by item. Commit .gitattributes, and run `tick git setup` once in every other clone (git config is not shared)."
            )
        }

        /// `tick` when the `tick` on PATH is this program, else this
        /// program's full path, quoted for the shell git runs drivers with.
        static func defaultCommand() -> String {
            let me =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
            let onPath = (Environment.process["PATH"] ?? "").split(separator: ":").map { String($0) + "/tick" }
                .first { FileManager.default.isExecutableFile(atPath: $0) }
            if let onPath, URL(fileURLWithPath: onPath).resolvingSymlinksInPath().path == URL(fileURLWithPath: me).resolvingSymlinksInPath().path {
                return "tick"
            }
            return "'" + me.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
    }
}
