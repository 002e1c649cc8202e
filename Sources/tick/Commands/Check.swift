import ArgumentParser
import Foundation
import TickKit

extension Tick {
    /// `tick check [PATH...]`: report what tick cannot read as intended.
    struct Check: TickCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Report problems in lists: invalid dates, unknown priorities, malformed front matter.",
            discussion: """
                Prints one line per problem as path:line:col: warning: message, and exits 1 when \
                there is any (0 when all is well). Without PATH, checks the whole notes folder.

                Examples:
                  tick check
                  tick check work.md projects/
                  tick check --json
                """)

        @OptionGroup var folder: FolderOptions
        @Argument(help: "Files or folders to check (default: the notes folder).") var paths: [String] = []

        @Flag(name: .long, help: "Print {\"today\": ..., \"diagnostics\": [{path, line, column, severity, message}]} instead of text.")
        var json = false

        func execute() throws {
            var problems: [JSONValue] = []
            for (shownPath, document) in try documents() {
                for diagnostic in document.diagnostics {
                    if json {
                        problems.append(.object([
                            ("path", .string(shownPath)), ("line", .int(diagnostic.line)), ("column", .int(diagnostic.column)),
                            ("severity", .string("warning")), ("message", .string(diagnostic.message)),
                        ]))
                    } else {
                        print("\(shownPath):\(diagnostic.line):\(diagnostic.column): warning: \(diagnostic.message)")
                        problems.append(.null)
                    }
                }
            }
            if json {
                print(JSONValue.object([("today", .string(folder.todayDate.isoString)), ("diagnostics", .array(problems))])
                    .serialized(pretty: true))
            }
            if !problems.isEmpty { throw ExitCode(1) }
        }

        /// The documents to check, each with the path to print for it.
        private func documents() throws -> [(String, Document)] {
            if paths.isEmpty {
                let root = try folder.folder()
                let (files, warnings) = root.listFiles()
                for warning in warnings { Terminal.warning(warning) }
                return try files.map { ($0, try root.load($0)) }
            }
            var result: [(String, Document)] = []
            for path in paths {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    throw TickFailure.noInput("\(path) does not exist")
                }
                if isDirectory.boolValue {
                    let subfolder = try NotesFolder(path: path)
                    let prefix = path.hasSuffix("/") ? path : path + "/"
                    for file in subfolder.listFiles().paths {
                        result.append((prefix + file, try subfolder.load(file)))
                    }
                } else {
                    let bytes = try FileIO.read(path)
                    result.append((path, DocumentParser.parse(bytes, path: path)))
                }
            }
            return result
        }
    }
}
