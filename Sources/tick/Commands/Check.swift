import ArgumentParser
import Foundation
import TickEngine
import TickModel
import TickRecords
import TickStore
import TickSyntax

extension Tick {
    /// `tick check [PATH...]`: report what tick cannot read as intended.
    struct Check: TickCommand {
        static let parseCacheUse = ParseCacheUse.reads
        static let configuration = CommandConfiguration.subcommand(
            commandName: "check",
            abstract: "Report problems in lists: invalid dates, unknown priorities, malformed front matter.",
            discussion: """
                Prints one line per problem as path:line:col: warning: message, and exits 1 when \
                there is any (0 when all is well). Without PATH, checks the whole notes folder; a \
                file in it that cannot be read is a problem (path:1:1: error: ...), and the rest \
                is still checked. --dependencies also checks the folder's dependencies (ids are \
                folder-wide): an id two items carry, a dependency on an id no item has, and a cycle. \
                (Obsidian Tasks reads all three without complaint, so they are not checked unless \
                asked for.) A PATH is looked for in the notes folder, then the current folder.

                Examples:
                  tick check
                  tick check work.md projects/
                  tick check --dependencies
                  tick check --json
                """)

        @OptionGroup var folder: FolderOptions
        @Argument(help: "Files or folders to check (default: the notes folder).") var paths: [String] = []

        @Flag(name: .long, help: "Also report duplicate ids, dependencies on unknown ids and dependency cycles (whole folder).")
        var dependencies = false

        @Flag(name: .long, help: "Print {\"today\": ..., \"diagnostics\": [{path, line, column, severity, message}]} instead of text.")
        var json = false

        func execute() throws {
            var problems: [JSONValue] = []
            func report(_ path: String, _ line: Int, _ column: Int, _ severity: String, _ message: String) {
                if json {
                    problems.append(
                        .object([
                            ("path", .string(path)), ("line", .int(line)), ("column", .int(column)),
                            ("severity", .string(severity)), ("message", .string(message)),
                        ]))
                } else {
                    print(TerminalText.safe("\(path):\(line):\(column): \(severity): \(message)"))
                    problems.append(.null)
                }
            }
            let workspace = paths.isEmpty || dependencies ? try folder.workspace(printingWarnings: false) : nil
            for (shownPath, checked) in try paths.isEmpty ? Self.checked(workspace!) : documents() {
                switch checked {
                case .diagnosed(let diagnostics):
                    for diagnostic in diagnostics {
                        report(shownPath, diagnostic.line, diagnostic.column, "warning", diagnostic.message)
                    }
                case .failure(let reason):
                    // A file of a folder that cannot be read is a problem to report, not the end of the check.
                    report(shownPath, 1, 1, "error", "cannot read it: \(reason); not checked")
                case .unnamable:
                    report(shownPath, 1, 1, "error", NotesFolder.unnamableProblem)
                }
            }
            // Dependencies name ids anywhere in the folder: the whole folder is read for them.
            if let workspace, dependencies {
                for problem in DependencyIndex.problems(in: try listsWithDependencies(workspace)) {
                    report(problem.path, problem.line, problem.column, "warning", problem.message)
                }
            }
            if json {
                print(
                    JSONValue.object([("today", .string(folder.todayDate.isoString)), ("diagnostics", .array(problems))])
                        .serialized(pretty: true))
            }
            if !problems.isEmpty { throw ExitCode(1) }
        }

        /// What checking one path found.
        private enum Checked {
            /// What the parse found wrong (nothing, for a clean list).
            case diagnosed([Diagnostic])
            /// The file could not be read, for this reason.
            case failure(String)
            /// A list file or folder whose name is not UTF-8: tick cannot name it.
            case unnamable
        }

        /// Every list of the notes folder with what is wrong with it, in
        /// path order, from the read model (clean lists are left out: they
        /// print nothing); the walk's own warnings go to standard error.
        private static func checked(_ workspace: EncodedWorkspace) -> [(String, Checked)] {
            let skipped = workspace.skipped
            for warning in skipped.walkWarnings { Terminal.warning(warning) }
            let found: [(String, Checked)] =
                workspace.diagnosedLists().map { ($0.path, .diagnosed($0.diagnostics)) }
                + skipped.unreadable.map { ($0.path, .failure($0.reason)) } + skipped.unnamable.map { ($0, .unnamable) }
            return found.sorted { $0.0 < $1.0 }
        }

        /// The lists whose items carry a block id or a dependency, parsed:
        /// a dependency problem (a duplicate id, an unknown id, a cycle)
        /// lies among them only, and is pointed at by the column of its
        /// token, which only a parse knows.
        private func listsWithDependencies(_ workspace: EncodedWorkspace) throws -> [Document] {
            let paths = workspace.pathsOfListsWithDependencies().sorted()
            guard !paths.isEmpty else { return [] }
            return try folder.folder().loadEach(paths).compactMap { try? $0.get() }
        }

        /// The lists of a folder, and its names that are not UTF-8, with `prefix` before each path.
        private func lists(of notes: NotesFolder, prefix: String) -> [(String, Checked)] {
            let (entries, warnings, unnamable) = notes.listFileEntries()
            for warning in warnings { Terminal.warning(warning) }
            let files = entries.map(\.path)
            let loaded: [(String, Checked)] = zip(files, notes.loadEach(files)).map { path, result in
                switch result {
                case .success(let document): (prefix + path, .diagnosed(document.diagnostics))
                case .failure(let error): (prefix + path, .failure(error.reason ?? String(cString: strerror(error.code))))
                }
            }
            return (loaded + unnamable.map { (prefix + $0, .unnamable) }).sorted { $0.0 < $1.0 }
        }

        /// The named files and folders' lists, each with the path to print
        /// for it; a file of a folder that cannot be read comes as its read
        /// error, a name tick cannot use as `unnamable`.
        ///
        /// A PATH is looked for in the notes folder first, then in the
        /// current folder (so `tick --dir n check work.md` checks n/work.md
        /// from anywhere, and a path typed from inside the folder still
        /// works). A named file that does not exist or cannot be read ends
        /// the check (66).
        private func documents() throws -> [(String, Checked)] {
            let root = try? folder.folder()
            var result: [(String, Checked)] = []
            for path in paths {
                let candidates = path.hasPrefix("/") || root == nil ? [path] : [root!.absolute(path), path]
                var isDirectory: ObjCBool = false
                guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) }) else {
                    throw TickError.noInput("\(path) does not exist (in the notes folder or the current folder)")
                }
                if isDirectory.boolValue {
                    let subfolder = try NotesFolder(path: found)
                    result += lists(of: subfolder, prefix: path.hasSuffix("/") ? path : path + "/")
                } else {
                    let bytes = try FileIO.read(found)
                    result.append((path, .diagnosed(DocumentParser.parse(bytes, path: path).diagnostics)))
                }
            }
            return result
        }
    }
}
