import Foundation
import Testing

@testable import TickModel
@testable import TickStore
@testable import TickSyntax

/// The property every fixture and example must hold: runs and tokens carry
/// the exact bytes they came from.
@Suite("Run and token ranges")
struct RunRangeTests {
    static let files = TestPaths.allMarkdownFiles()

    @Test("runs lie inside the title, in order, without overlap", arguments: files)
    func runsAreOrderedInsideTheTitle(file: URL) throws {
        let document = DocumentParser.parse(try FileIO.read(file.path), path: file.lastPathComponent)
        for item in document.items {
            var cursor = item.titleRange.lowerBound
            for run in item.runs {
                #expect(run.range.lowerBound >= cursor, "\(file.lastPathComponent):\(item.line) run '\(run.text)' overlaps")
                #expect(run.range.upperBound <= item.titleRange.upperBound)
                #expect(!run.range.isEmpty)
                cursor = run.range.upperBound
            }
        }
    }

    @Test("slicing the file with a run's range gives back its text (no escapes) and tokens re-parse alone", arguments: files)
    func slicesGiveBackTheirSource(file: URL) throws {
        let document = DocumentParser.parse(try FileIO.read(file.path), path: file.lastPathComponent)
        for item in document.items {
            for run in item.runs {
                let slice = document.slice(run.range)
                if let token = run.token {
                    // The token's bytes, parsed as a title of their own, give the same token.
                    let alone = parse("- [ ] " + slice).items.first?.runs.tokens.first
                    #expect(alone?.field == token.field, "\(file.lastPathComponent):\(item.line) '\(slice)'")
                    #expect(alone?.value == token.value, "\(file.lastPathComponent):\(item.line) '\(slice)'")
                    #expect(document.slice(token.valueRange).isEmpty == false)
                    #expect(token.range.contains(token.valueRange.lowerBound))
                } else if !slice.contains("\\") && !slice.contains("&") {
                    #expect(run.text == slice, "\(file.lastPathComponent):\(item.line) run text '\(run.text)' vs bytes '\(slice)'")
                }
            }
        }
    }

    @Test("the box range always slices to a box", arguments: files)
    func boxRangeSlicesToABox(file: URL) throws {
        let document = DocumentParser.parse(try FileIO.read(file.path), path: file.lastPathComponent)
        for item in document.items {
            let box = document.slice(item.boxRange)
            #expect(["[ ]", "[x]", "[X]", "[-]", "[/]"].contains(box), "\(file.lastPathComponent):\(item.line) box '\(box)'")
            #expect(document.source.line(containing: item.boxRange.lowerBound) == item.line)
            #expect(document.slice(item.titleRange) == item.text)
        }
    }

    @Test("the parse's title and metadata agree with the runs computed on demand", arguments: files)
    func summaryAgreesWithRuns(file: URL) throws {
        let document = DocumentParser.parse(try FileIO.read(file.path), path: file.lastPathComponent)
        for item in document.items {
            let runs = item.runs
            #expect(item.title == runs.displayTitle, "\(file.lastPathComponent):\(item.line)")
            #expect(item.metadata == ItemMetadata(tokens: runs.tokens), "\(file.lastPathComponent):\(item.line)")
        }
    }
}
