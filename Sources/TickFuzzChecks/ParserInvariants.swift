import TickModel
import TickSyntax

/// The invariants every parse must keep, whatever the bytes: checked by the
/// parser fuzzer (`make fuzz`) and, on the saved crash inputs, by the tests.
///
/// Each check returns the broken invariants as sentences; an empty array
/// means the input is fine. Nothing here traps, so a test can report every
/// problem at once and a fuzzer can decide to stop.
public enum ParserInvariants {
    /// Parses `bytes` and checks the document against them.
    public static func violations(of bytes: [UInt8]) -> [String] {
        check(DocumentParser.parse(bytes, path: "fuzz.md"))
    }

    /// Checks a parsed document: every range lies inside the file, boxes and
    /// titles slice back to what the item says, runs and tokens lie in order
    /// inside their title, the tree of items is consistent.
    public static func check(_ document: Document) -> [String] {
        var problems: [String] = []
        let bytes = document.source.bytes
        let count = bytes.count
        let lines = document.source.lineCount
        func inside(_ range: Range<Int>, _ outer: Range<Int>) -> Bool {
            range.lowerBound >= outer.lowerBound && range.upperBound <= outer.upperBound
        }
        let file = 0..<count
        for (index, item) in document.items.enumerated() {
            let name = "item \(index) (line \(item.line))"
            guard item.index == index else {
                problems.append("\(name): index is \(item.index)")
                continue
            }
            guard item.line >= 1, item.line <= lines, item.lastLine >= item.line, item.lastLine <= lines else {
                problems.append("\(name): lines \(item.line)...\(item.lastLine) outside 1...\(lines)")
                continue
            }
            for (label, range) in [("block", item.blockRange), ("marker", item.markerRange), ("box", item.boxRange), ("title", item.titleRange)]
            where !inside(range, file) {
                problems.append("\(name): \(label) range \(range) outside the file (\(count) bytes)")
            }
            guard problems.isEmpty else { continue }
            for (label, range) in [("marker", item.markerRange), ("box", item.boxRange), ("title", item.titleRange)]
            where !inside(range, item.blockRange) {
                problems.append("\(name): \(label) range \(range) outside its block \(item.blockRange)")
            }
            let titleLine = document.source.range(ofLine: item.line)
            if !inside(item.boxRange, titleLine) || !inside(item.titleRange, titleLine) {
                problems.append("\(name): box \(item.boxRange) or title \(item.titleRange) not on its line \(titleLine)")
            }
            if item.markerRange.upperBound > item.boxRange.lowerBound {
                problems.append("\(name): marker \(item.markerRange) runs into the box \(item.boxRange)")
            }
            if item.boxRange.upperBound > item.titleRange.lowerBound {
                problems.append("\(name): box \(item.boxRange) runs into the title \(item.titleRange)")
            }
            let box = Array(bytes[item.boxRange])
            if box.count != 3 || box[0] != UInt8(ascii: "[") || box[2] != UInt8(ascii: "]") || TaskStatus(boxByte: box[1]) != item.status {
                problems.append("\(name): box bytes \(box) do not read as \(item.status)")
            }
            if item.text != String(decoding: bytes[item.titleRange], as: UTF8.self) {
                problems.append("\(name): text \(item.text.debugDescription) is not the title's bytes")
            }
            // The tree.
            if let parent = item.parent {
                if parent >= index {
                    problems.append("\(name): parent \(parent) is not before it")
                } else {
                    if !document.items[parent].children.contains(index) { problems.append("\(name): parent \(parent) does not list it") }
                    if item.depth != document.items[parent].depth + 1 {
                        problems.append("\(name): depth \(item.depth) under a parent at \(document.items[parent].depth)")
                    }
                    if !inside(item.blockRange, document.items[parent].blockRange) {
                        problems.append("\(name): block \(item.blockRange) outside its parent's \(document.items[parent].blockRange)")
                    }
                }
            } else if item.depth != 0 {
                problems.append("\(name): depth \(item.depth) without a parent")
            }
            for child in item.children where child <= index || child >= document.items.count || document.items[child].parent != index {
                problems.append("\(name): child \(child) does not point back")
            }
            if let section = item.section, section < 0 || section >= document.sections.count {
                problems.append("\(name): section \(section) does not exist")
            }
            for line in item.noteLines where line <= item.line || line > item.lastLine {
                problems.append("\(name): note line \(line) outside \(item.line + 1)...\(item.lastLine)")
            }
            // Runs and tokens.
            let runs = item.runs
            var cursor = item.titleRange.lowerBound
            for run in runs {
                if run.range.isEmpty || run.range.lowerBound < cursor || run.range.upperBound > item.titleRange.upperBound {
                    problems.append(
                        "\(name): run \(run.range) \(run.text.debugDescription) is empty, out of order or outside the title \(item.titleRange)")
                    break
                }
                cursor = run.range.upperBound
                let slice = Array(bytes[run.range])
                if let token = run.token {
                    if token.range != run.range { problems.append("\(name): token range \(token.range) is not its run's \(run.range)") }
                    if token.valueRange.isEmpty || !inside(token.valueRange, token.range) {
                        problems.append("\(name): token value \(token.valueRange) empty or outside the token \(token.range)")
                    }
                } else if document.isValidUTF8, !slice.contains(UInt8(ascii: "\\")), !slice.contains(UInt8(ascii: "&")),
                    !slice.contains(0), run.text != String(decoding: slice, as: UTF8.self)
                {
                    problems.append(
                        "\(name): run text \(run.text.debugDescription) is not its bytes \(String(decoding: slice, as: UTF8.self).debugDescription)")
                }
            }
            if item.title != runs.displayTitle {
                problems.append("\(name): title \(item.title.debugDescription) is not the runs' display title \(runs.displayTitle.debugDescription)")
            }
            if item.metadata != ItemMetadata(tokens: runs.tokens) {
                problems.append("\(name): metadata differs from the runs' tokens")
            }
        }
        for (index, section) in document.sections.enumerated() {
            if !inside(section.range, file) || section.line < 1 || section.line > lines {
                problems.append("section \(index): range \(section.range) or line \(section.line) outside the file")
            }
            if index > 0, section.line < document.sections[index - 1].line {
                problems.append("section \(index): line \(section.line) before the previous section's")
            }
        }
        if let frontMatter = document.frontMatter, !inside(frontMatter.range, file) || !inside(frontMatter.yamlRange, frontMatter.range) {
            problems.append("front matter range \(frontMatter.range) / \(frontMatter.yamlRange) outside the file")
        }
        for diagnostic in document.diagnostics where diagnostic.line < 1 || diagnostic.line > lines || diagnostic.column < 1 {
            problems.append("diagnostic at \(diagnostic.line):\(diagnostic.column) outside the file: \(diagnostic.message)")
        }
        for pair in zip(document.items, document.items.dropFirst()) where pair.0.line >= pair.1.line {
            problems.append("items at lines \(pair.0.line) and \(pair.1.line) out of order")
        }
        return problems
    }
}
