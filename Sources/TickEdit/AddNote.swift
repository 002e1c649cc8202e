import TickModel
import TickSyntax

/// Adds a note line under an item (`tick note`).
///
/// Guarantees: one line is inserted, after the item's last note line above
/// its first subtask (right after its title line when it has none), with the
/// quote markers and indentation of that line (for the title line: its quote
/// markers, then spaces to the item's text), the text as given and the
/// file's line ending; nothing else changes. `splice` returns nil when the
/// text would not read back as a note of the item, or would change another
/// item or section (`- [ ] x` makes a subtask).
public enum AddNote {
    /// The insertion, and the line the note will be on.
    public static func splice(adding text: String, to item: TaskItem, in document: Document) -> (splice: Splice, line: Int)? {
        let source = document.source
        let firstChildLine = item.children.first.map { document.items[$0].line } ?? Int.max
        let anchor = item.noteLines.filter { $0 < firstChildLine }.last ?? item.line
        let anchorRange = source.range(ofLine: anchor)
        var prefix: [UInt8] = []
        if anchor == item.line {
            // The title line's quote markers and leading white space, then
            // spaces where the marker and its space were (up to the box).
            for offset in anchorRange.lowerBound..<item.boxRange.lowerBound {
                let byte = source.bytes[offset]
                prefix.append(byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: ">") ? byte : 0x20)
            }
            if let markerEnd = prefix.lastIndex(where: { $0 == UInt8(ascii: ">") }) {
                // Only the quote markers stay; the rest is the content indentation.
                for index in prefix.indices where index > markerEnd && prefix[index] != 0x09 { prefix[index] = 0x20 }
            }
        } else {
            // A note line's own quote markers and indentation.
            var offset = anchorRange.lowerBound
            while offset < anchorRange.upperBound, [0x20, 0x09, UInt8(ascii: ">")].contains(source.bytes[offset]) {
                prefix.append(source.bytes[offset])
                offset += 1
            }
        }
        let ending = EditStyle.lineEnding(after: anchor, in: source)
        let hasEnding = source.rangeWithEnding(ofLine: anchor).upperBound > anchorRange.upperBound
        let line = prefix + Array(text.utf8)
        let splice =
            hasEnding
            ? Splice.insert(line + ending, at: source.rangeWithEnding(ofLine: anchor).upperBound)
            : Splice.insert(ending + line, at: anchorRange.upperBound)

        // The result must keep every item, and hold the text as a note of this one.
        guard let bytes = try? Splice.apply([splice], to: source.bytes) else { return nil }
        let written = DocumentParser.parse(bytes, path: document.path)
        guard written.items.count == document.items.count, written.sections.count == document.sections.count,
            zip(written.items, document.items).allSatisfy({ $0.title == $1.title && $0.depth == $1.depth && $0.section == $1.section }),
            written.items[item.index].noteLines.contains(anchor + 1),
            written.items[item.index].notes?.split(separator: "\n").contains(where: { $0.drop(while: { $0 == " " || $0 == "\t" }) == text[...] })
                == true
        else { return nil }
        return (splice, anchor + 1)
    }
}
