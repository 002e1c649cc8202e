import Foundation
import Testing

@testable import TickStore

/// The folder scan of SPEC §1.
@Suite struct NotesFolderTests {
    func scan(_ folder: TemporaryFolder) throws -> (paths: [String], warnings: [String]) {
        try NotesFolder(path: folder.path).listFiles()
    }

    @Test func everyMarkdownFileBelowTheRootIsAList() throws {
        let folder = try TemporaryFolder(["a.md": "", "b.markdown": "", "notes.txt": "", "deep/er/c.md": "", "README": ""])
        #expect(try scan(folder).paths == ["a.md", "b.markdown", "deep/er/c.md"])
    }

    @Test func pathsComeInStringOrderWhateverOrderTheWalkFindsThemIn() throws {
        // The walk goes a level at a time: the root's files come before
        // those below them, whatever their names; "é" sorts after "z".
        let names = [
            "z.md", "c.md", "a.md", "a/x.md", "a/b/y.md", "b/a.md", "b/c.md", "a b/x.md", "ab.md", "é/x.md", "e/y.md", "Z/q.md", "é.md", "e.md",
        ]
        let folder = try TemporaryFolder(Dictionary(uniqueKeysWithValues: names.map { ($0, "") }))
        #expect(try scan(folder).paths == names.sorted())
        // A level of folders that follow each other in order: sorted as found.
        let nested = ["a/1.md", "a/2.md", "b/1.md", "c/1.md"]
        let inOrder = try TemporaryFolder(Dictionary(uniqueKeysWithValues: nested.map { ($0, "") }))
        #expect(try scan(inOrder).paths == nested)
    }

    @Test func hiddenFoldersAndNodeModulesAreSkipped() throws {
        let folder = try TemporaryFolder([
            "keep.md": "", ".obsidian/x.md": "", ".trash/y.md": "", "node_modules/pkg/readme.md": "",
            "sub/.hidden/z.md": "", "sub/node_modules/w.md": "", ".dotfile.md": "",
        ])
        #expect(try scan(folder).paths == ["keep.md"])
    }

    @Test func gitIgnoredFilesAreSkippedInsideAWorkTree() throws {
        let folder = try TemporaryFolder([
            "kept.md": "", "build/out.md": "", "drafts/secret.md": "", "drafts/public.md": "",
            ".gitignore": "build/\ndrafts/secret.md\n",
        ])
        let git = try PythonICalendar.run(["git", "-C", folder.path, "init", "-q"], input: nil)
        #expect(git.status == 0)
        #expect(try scan(folder).paths == ["drafts/public.md", "kept.md"])
    }

    @Test func outsideAGitWorkTreeNothingIsIgnored() throws {
        let folder = try TemporaryFolder(["kept.md": "", "build/out.md": "", ".gitignore": "build/\n"])
        #expect(try scan(folder).paths == ["build/out.md", "kept.md"])
    }

    @Test func symlinksAreFollowedWithoutLoopsAndNeverOutOfTheRoot() throws {
        let outside = try TemporaryFolder(["elsewhere.md": ""])
        let folder = try TemporaryFolder(["real/list.md": "", "other/more.md": ""])
        let manager = FileManager.default
        // A link to a folder inside the root, a loop back to the root, a link out of it, a broken link.
        try manager.createSymbolicLink(atPath: folder.path + "/linked", withDestinationPath: folder.path + "/other")
        try manager.createSymbolicLink(atPath: folder.path + "/real/loop", withDestinationPath: folder.path)
        try manager.createSymbolicLink(atPath: folder.path + "/out", withDestinationPath: outside.path)
        try manager.createSymbolicLink(atPath: folder.path + "/out.md", withDestinationPath: outside.path + "/elsewhere.md")
        try manager.createSymbolicLink(atPath: folder.path + "/broken.md", withDestinationPath: folder.path + "/missing.md")
        try manager.createSymbolicLink(atPath: folder.path + "/alias.md", withDestinationPath: folder.path + "/real/list.md")
        let (paths, warnings) = try scan(folder)
        // Each file once, under its path without links.
        #expect(paths == ["other/more.md", "real/list.md"])
        #expect(warnings.contains("out links outside the notes folder; skipped"))
        #expect(warnings.contains("out.md links outside the notes folder; skipped"))
        #expect(warnings.contains("broken.md is a broken link; skipped"))
    }

    @Test func aFileOnlyReachableThroughALinkIsListedThere() throws {
        let folder = try TemporaryFolder([".vault/inbox.md": ""])
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/inbox", withDestinationPath: folder.path + "/.vault")
        #expect(try scan(folder).paths == ["inbox/inbox.md"])
    }

    @Test func loadAllParsesEveryListAndSkipsInvalidUTF8WithAWarning() throws {
        var files: [String: String] = [:]
        for number in 0..<40 { files["list\(number).md"] = "- [ ] item \(number)\n" }
        let folder = try TemporaryFolder(files)
        try Data([0x2D, 0x20, 0x5B, 0x20, 0x5D, 0x20, 0xFF, 0xFE, 0x0A]).write(to: folder.url.appendingPathComponent("bad.md"))
        let (documents, warnings) = try NotesFolder(path: folder.path).loadAll()
        #expect(documents.count == 40)
        let paths: [String] = documents.map { $0.path }
        #expect(paths == paths.sorted())
        for document in documents {
            let number = String(document.path.dropFirst(4).dropLast(3))
            #expect(document.items.map { $0.title } == ["item " + number])
        }
        #expect(warnings == ["bad.md is not valid UTF-8; skipped"])
    }

    @Test func aMissingFolderIsAnError() {
        #expect(throws: NotesFolder.Problem.self) { try NotesFolder(path: "/nonexistent/tick-notes") }
    }

    @Test func pathsSortAsStringsDoWhetherASCIIOrNot() {
        let stamp = FileStamp(size: 0, modifiedSeconds: 0, modifiedNanoseconds: 0, inode: 0, device: 0)
        let ascii = ["a.md", "a/b.md", "a-b.md", "A.md", "ab.md", "a b.md", "z/a.md", "Z.md", "a/b/c.md", "a/ba.md", "0.md", "~.md"]
        // "e\u{301}" is "é" decomposed: String orders it as the composed one.
        let unicode = ascii + ["é.md", "e\u{301}.md", "ü/x.md", "日本.md", "ea.md", "f.md"]
        // Sorted input too: the walk nearly always finds paths in order, which one pass tells.
        for paths in [ascii, unicode, ascii.reversed(), unicode.reversed(), ascii.sorted(), unicode.sorted()] {
            var entries = paths.map { (path: $0, stamp: stamp) }
            NotesFolder.sortByPath(&entries)
            #expect(entries.map(\.path) == paths.sorted())
        }
    }
}
