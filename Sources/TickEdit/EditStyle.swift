import TickModel

/// What new text should look like so that it matches its neighbours: the
/// metadata dialect, bullets, indentation and line endings already in a file.
public enum EditStyle {
    /// The dialect for new tokens on `item`: the dialect of its own first
    /// token that is not a tag or block id, else the list's, else tick.
    public static func dialect(of item: TaskItem, in document: Document) -> MetadataDialect {
        if let own = item.runs.tokens.first(where: { $0.field != .tag && $0.field != .blockID })?.dialect { return own }
        return dialect(of: document)
    }

    /// The list's dialect: the one most of its items use (ties go to the
    /// first seen), tick when no item has tokens.
    public static func dialect(of document: Document) -> MetadataDialect {
        var counts: [MetadataDialect: Int] = [:]
        var order: [MetadataDialect] = []
        for item in document.items {
            guard let dialect = item.runs.tokens.first(where: { $0.field != .tag && $0.field != .blockID })?.dialect else { continue }
            if counts[dialect] == nil { order.append(dialect) }
            counts[dialect, default: 0] += 1
        }
        return order.max {
            (counts[$0] ?? 0) < (counts[$1] ?? 0) || ((counts[$0] ?? 0) == (counts[$1] ?? 0) && order.firstIndex(of: $0)! > order.firstIndex(of: $1)!)
        } ?? .tick
    }

    /// Where line `line`'s text starts: after the byte-order mark on line 1,
    /// so that no edit moves, copies or removes the mark.
    static func lineStart(_ line: Int, in source: SourceText) -> Int {
        line == 1 && source.hasByteOrderMark ? 3 : source.lineStarts[line - 1]
    }

    /// Where an item's block starts (its marker line's start, after a byte-order mark).
    static func blockStart(_ item: TaskItem, in source: SourceText) -> Int {
        lineStart(source.line(containing: item.markerRange.lowerBound), in: source)
    }

    /// The line ending to write after line `line`: its own, else the file's.
    static func lineEnding(after line: Int, in source: SourceText) -> [UInt8] {
        let own = source.ending(ofLine: line)
        return own.isEmpty ? Array(source.lineEnding.utf8) : Array(own)
    }

    /// True when the line holds only spaces, tabs and block-quote markers.
    static func isBlankOrQuoteOnly(_ line: Int, in source: SourceText) -> Bool {
        source.range(ofLine: line).allSatisfy {
            let byte = source.bytes[$0]
            return byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: ">")
        }
    }

    /// The bullet for a new list in `document`: the first bullet of its
    /// top-level items, else `-`.
    static func defaultBullet(in document: Document) -> [UInt8] {
        for item in document.items where item.depth == 0 {
            let marker = Array(document.source.bytes[item.markerRange])
            if marker.count == 1 { return marker }
        }
        return [UInt8(ascii: "-")]
    }

    /// The visual width of `bytes` (tabs to the next multiple of 4), starting at `column`.
    static func width(_ bytes: ArraySlice<UInt8>, from column: Int = 0) -> Int {
        var column = column
        for byte in bytes {
            if byte == 0x09 { column += 4 - column % 4 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return column
    }
}

/// The first line of an item, cut into the parts new text copies: what is
/// before the marker (indentation and block-quote markers), the marker, and
/// the white space between marker and box.
struct ItemShape: Sendable {
    var prefix: [UInt8]
    var marker: [UInt8]
    var spacing: [UInt8]
    var lineEnding: [UInt8]

    init(prefix: [UInt8], marker: [UInt8], spacing: [UInt8], lineEnding: [UInt8]) {
        self.prefix = prefix
        self.marker = marker
        self.spacing = spacing
        self.lineEnding = lineEnding
    }

    /// The shape of `item` as written.
    init(of item: TaskItem, in document: Document) {
        let source = document.source
        let lineStart = EditStyle.blockStart(item, in: source)
        prefix = Array(source.bytes[lineStart..<item.markerRange.lowerBound])
        marker = Array(source.bytes[item.markerRange])
        spacing = Array(source.bytes[item.markerRange.upperBound..<item.boxRange.lowerBound])
        if spacing.isEmpty || spacing.contains(where: { $0 != 0x20 && $0 != 0x09 }) { spacing = [0x20] }
        lineEnding = EditStyle.lineEnding(after: item.line, in: source)
    }

    var isOrdered: Bool { marker.count > 1 }

    /// The ordered marker `steps` numbers after this one (`3.` → `4.`); a
    /// bullet stays as it is.
    func marker(advancedBy steps: Int) -> [UInt8] {
        guard isOrdered, steps != 0 else { return marker }
        let digits = marker.dropLast()
        let number = Int(String(decoding: digits, as: UTF8.self)) ?? 0
        return Array(String(number + steps).utf8) + [marker.last!]
    }

    /// The block-quote part of the prefix (`> > `), without indentation after it.
    var quotePrefix: [UInt8] {
        var end = 0
        var index = 0
        while index < prefix.count {
            if prefix[index] == UInt8(ascii: ">") {
                end = index + 1
                if end < prefix.count, prefix[end] == 0x20 { end += 1 }
            } else if prefix[index] != 0x20 && prefix[index] != 0x09 {
                break
            }
            index += 1
        }
        return Array(prefix[..<end])
    }

    /// The prefix of the item's continuation lines: the first line's prefix
    /// with the marker and spacing turned into spaces.
    var continuationPrefix: [UInt8] {
        let start = EditStyle.width(prefix[...])
        let end = EditStyle.width(marker[...] + spacing[...], from: start)
        return prefix + [UInt8](repeating: 0x20, count: end - start)
    }

    /// The shape of a first child of an item of this shape: indented to the
    /// item's content, with the same kind of marker (ordered ones from 1).
    var childShape: ItemShape {
        var childMarker = marker
        if isOrdered { childMarker = Array("1".utf8) + [marker.last!] }
        return ItemShape(prefix: continuationPrefix, marker: childMarker, spacing: [0x20], lineEnding: lineEnding)
    }
}
