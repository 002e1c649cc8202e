import ArgumentParser
import Foundation
import TickKit

extension Tick {
    /// `tick check [PATH...]`: report what tick cannot read as intended.
    struct Check: TickCommand {
        static let configuration = CommandConfiguration(
            abstract: "Report problems in lists: invalid dates, unknown priorities, malformed front matter.",
            discussion: """
                Prints one line per problem as path:line:col: warning: message, and exits 1 when
                there is any (0 when all is well). Without PATH, checks the whole notes folder.

                Examples:
                  tick check
                  tick check work.md projects/
                """)

        @OptionGroup var folder: FolderOptions
        @Argument(help: "Files or folders to check (default: the notes folder).") var paths: [String] = []

        func execute() throws {
            var problems = 0
            for (shownPath, document) in try documents() {
                for diagnostic in document.diagnostics {
                    print("\(shownPath):\(diagnostic.line):\(diagnostic.column): warning: \(diagnostic.message)")
                    problems += 1
                }
            }
            if problems > 0 { throw ExitCode(1) }
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
