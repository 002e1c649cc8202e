import TickModel
import TickSyntax

/// Merges three versions of one list file item by item (`tick merge`, the
/// git merge driver of SPEC §8).
///
/// Guarantees:
/// - Items are matched across the versions by block id, then by title within
///   the same section, then by title anywhere, then by similar titles; an
///   item added by a side matches the other side's addition only when it has
///   the same id or the same bytes.
/// - A matched item's changes merge field by field, as token splices on
///   OURS' line: the box from one side and a date from the other; both done
///   or cancelled on different days keeps the earliest date; new tokens are
///   written in the dialect of the side that made them. A recurring item
///   completed on both sides keeps one next occurrence.
/// - Where the items are placed, and every line that is not an item
///   (prose, headings, front matter), is merged line by line by the
///   `LineMerger` (git's own merge), with each item block standing in as one
///   line; insertions of items at the same place by both sides keep both,
///   ours first.
/// - An item deleted on one side and changed on the other, or changed in the
///   same field on both sides, is a conflict: markers around that one item
///   block. Prose that conflicts gets ordinary markers.
/// - A version that is not valid UTF-8 or already holds conflict markers is
///   merged line by line only, as git would.
public enum ListMerge {
    /// The merged bytes and the number of conflicts left in them.
    public struct Outcome: Sendable, Equatable {
        public var bytes: [UInt8]
        public var conflicts: Int
    }

    /// How conflict markers are written.
    public struct Markers: Sendable {
        public var size: Int
        public var ours: String
        public var theirs: String

        public init(size: Int = 7, ours: String = "ours", theirs: String = "theirs") {
            self.size = max(size, 1)
            self.ours = ours
            self.theirs = theirs
        }
    }

    /// Merges BASE, OURS and THEIRS of the file at `path`. `today` is used
    /// only to recognize a recurring item's next occurrence when its done
    /// date is missing.
    public static func merge(
        base: [UInt8], ours: [UInt8], theirs: [UInt8], path: String, today: TaskDate,
        markers: Markers = Markers(), lineMerge: LineMerger
    ) throws -> Outcome {
        var merger = Merger(
            base: Version(base, path: path), ours: Version(ours, path: path),
            theirs: Version(theirs, path: path), today: today, markers: markers)
        return try merger.run(lineMerge)
    }
}

/// One of the three versions: its parse and its top-level item blocks.
private struct Version {
    let document: Document
    /// The top-level items' blocks, in file order.
    let blocks: [Block]
    /// False when this version must be merged line by line only.
    let itemMergeable: Bool

    struct Block {
        /// Index in `document.items`.
        let item: Int
        let firstLine: Int
        let lastLine: Int
        /// The block's bytes without the last line's ending, and that ending.
        let body: [UInt8]
        let ending: [UInt8]
    }

    /// True when the file starts with a byte-order mark. The mark is set
    /// aside: the version is merged without it (so no item's block holds
    /// it), and the result gets it back when OURS had it.
    let hasByteOrderMark: Bool

    init(_ file: [UInt8], path: String) {
        hasByteOrderMark = file.starts(with: Version.byteOrderMark)
        let bytes = hasByteOrderMark ? Array(file.dropFirst(3)) : file
        let document = DocumentParser.parse(bytes, path: path)
        self.document = document
        let source = document.source
        var blocks: [Block] = []
        for item in document.items where item.parent == nil {
            let firstLine = source.line(containing: EditStyle.blockStart(item, in: source))
            // Only whole lines can stand in for an item; the parser's blocks always are.
            let end = item.blockRange.upperBound
            let endsALine = end == source.bytes.count || source.lineStarts[source.line(containing: end) - 1] == end
            guard endsALine, firstLine >= (blocks.last?.lastLine ?? 0) + 1
            else { continue }
            let range = source.lineStarts[firstLine - 1]..<end
            var body = Array(source.bytes[range])
            var ending: [UInt8] = []
            if body.last == 0x0A { ending.insert(body.removeLast(), at: 0) }
            if !ending.isEmpty, body.last == 0x0D { ending.insert(body.removeLast(), at: 0) }
            blocks.append(Block(item: item.index, firstLine: firstLine, lastLine: item.lastLine, body: body, ending: ending))
        }
        self.blocks = blocks
        self.itemMergeable =
            document.isValidUTF8 && ConflictMarkers.lines(in: source).isEmpty
            && !LineMergePiece.lines(of: bytes).contains(where: { $0.starts(with: Placeholder.prefix) })
    }

    func item(_ block: Int) -> TaskItem { document.items[blocks[block].item] }

    /// The title of the section a block is in ("" before any heading).
    func sectionTitle(_ block: Int) -> String {
        item(block).section.map { document.sections[$0].title } ?? ""
    }

    /// The lines of the file, each top-level item block replaced by its
    /// placeholder line.
    func skeleton(_ placeholder: (Int) -> [UInt8]) -> [UInt8] {
        let source = document.source
        var result: [UInt8] = []
        var line = 1
        var next = 0
        while line <= source.lineCount {
            if next < blocks.count, blocks[next].firstLine == line {
                result += placeholder(next)
                line = blocks[next].lastLine + 1
                next += 1
                continue
            }
            result += source.bytes[source.rangeWithEnding(ofLine: line)]
            line += 1
        }
        return result
    }
}

/// The line that stands in for an item block in the line merge: a control
/// character no list file starts a line with, the item's identity, and a
/// checksum of the block, so that a change to an item is a change to its line
/// (an item deleted on one side and edited on the other then conflicts).
private enum Placeholder {
    static let prefix: [UInt8] = Array("\u{1F}tick-merge-item ".utf8)

    static func line(identity: Int, body: [UInt8]) -> [UInt8] {
        prefix + Array("\(identity) \(FNV1a.hash(body))\n".utf8)
    }

    static func identity(of line: [UInt8]) -> Int? {
        guard line.starts(with: prefix) else { return nil }
        let rest = line.dropFirst(prefix.count).prefix(while: { $0 != 0x20 })
        return Int(String(decoding: rest, as: UTF8.self))
    }
}

private enum Side { case ours, theirs }

private struct Merger {
    let base: Version, ours: Version, theirs: Version
    let today: TaskDate
    let markers: Markers
    typealias Markers = ListMerge.Markers
    /// False when some version is merged line by line only (see `ListMerge`).
    let itemMerge: Bool

    /// One item across the versions: its block index in each (nil where it
    /// is absent), and, for a next occurrence added by completing a recurring
    /// item, the identity of that item.
    struct Identity {
        var base: Int?
        var ours: Int?
        var theirs: Int?
        var nextOccurrenceOf: Int?
    }

    /// What the merged file holds for an identity.
    enum Content {
        case deleted
        case text(body: [UInt8], ending: [UInt8])
        case conflict(ours: [UInt8], theirs: [UInt8])
    }

    var identities: [Identity] = []
    var oursIdentity: [Int: Int] = [:], theirsIdentity: [Int: Int] = [:], baseIdentity: [Int: Int] = [:]

    init(base: Version, ours: Version, theirs: Version, today: TaskDate, markers: Markers) {
        let mergeable = base.itemMergeable && ours.itemMergeable && theirs.itemMergeable
        func lineOnly(_ version: Version) -> Version {
            mergeable ? version : Version(lineOnlyOf: version)
        }
        self.base = lineOnly(base)
        self.ours = lineOnly(ours)
        self.theirs = lineOnly(theirs)
        self.today = today
        self.markers = markers
        self.itemMerge = mergeable
    }

    mutating func run(_ lineMerge: LineMerger) throws -> ListMerge.Outcome {
        matchItems()
        var contents = identities.indices.map(content)
        // A next occurrence added on one side follows the completed item as
        // merged (the other side may have moved its due date meanwhile).
        for index in identities.indices {
            guard let of = identities[index].nextOccurrenceOf, case .text(let body, let ending) = contents[index],
                case .text(let completed, _) = contents[of],
                let redone = nextOccurrence(after: completed, replacing: body)
            else { continue }
            contents[index] = .text(body: redone, ending: ending)
        }
        let skeletons = [base, ours, theirs].enumerated().map { kind, version in
            version.skeleton { block in
                let identity = [baseIdentity, oursIdentity, theirsIdentity][kind][block]!
                return Placeholder.line(identity: identity, body: version.blocks[block].body)
            }
        }
        let pieces = try lineMerge(skeletons[0], skeletons[1], skeletons[2])
        var writer = Writer(markers: markers, lineEnding: Array(ours.document.source.lineEnding.utf8), contents: contents, placeholders: itemMerge)
        for piece in pieces {
            switch piece {
            case .clean(let lines):
                for line in lines { writer.line(line) }
            case .conflict(let baseLines, let oursLines, let theirsLines):
                if let resolved = placementOnly(base: baseLines, ours: oursLines, theirs: theirsLines) {
                    for line in resolved { writer.line(line) }
                } else {
                    writer.proseConflict(
                        ours: oursLines.map { expand($0, in: ours, side: .ours) },
                        theirs: theirsLines.map { expand($0, in: theirs, side: .theirs) },
                        placed: placeholders(in: oursLines + theirsLines))
                }
            }
        }
        // An item that is kept but lost its place (both sides moved the
        // lines around it) goes at the end rather than being lost.
        for identity in identities.indices { writer.item(identity) }
        return ListMerge.Outcome(
            bytes: (ours.hasByteOrderMark ? Version.byteOrderMark : []) + writer.output,
            conflicts: writer.conflicts)
    }

    // MARK: Matching

    mutating func matchItems() {
        let oursPairs = pairGenerated(ours)
        let theirsPairs = pairGenerated(theirs)
        for block in base.blocks.indices {
            baseIdentity[block] = identities.count
            identities.append(Identity(base: block))
        }
        for pair in oursPairs.matched {
            identities[baseIdentity[pair.base]!].ours = pair.side
            oursIdentity[pair.side] = baseIdentity[pair.base]!
        }
        for pair in theirsPairs.matched {
            identities[baseIdentity[pair.base]!].theirs = pair.side
            theirsIdentity[pair.side] = baseIdentity[pair.base]!
        }

        // Next occurrences: one identity per completed base item, both sides'.
        var nextOf: [Int: Int] = [:]
        for (generated, completed) in oursPairs.generated.sorted(by: { $0.key < $1.key }) {
            guard let of = oursIdentity[completed] else { continue }
            nextOf[of] = identities.count
            oursIdentity[generated] = identities.count
            identities.append(Identity(ours: generated, nextOccurrenceOf: of))
        }
        for (generated, completed) in theirsPairs.generated.sorted(by: { $0.key < $1.key }) {
            guard let of = theirsIdentity[completed] else { continue }
            if let identity = nextOf[of] {
                identities[identity].theirs = generated
                theirsIdentity[generated] = identity
            } else {
                theirsIdentity[generated] = identities.count
                identities.append(Identity(theirs: generated, nextOccurrenceOf: of))
            }
        }

        // Additions: the other side's identical addition (or same id) is the same item.
        var oursAdded: [Int] = []
        for block in ours.blocks.indices where oursIdentity[block] == nil {
            oursIdentity[block] = identities.count
            identities.append(Identity(ours: block))
            oursAdded.append(block)
        }
        var taken = Set<Int>()
        for block in theirs.blocks.indices where theirsIdentity[block] == nil {
            let item = theirs.item(block)
            let twin = oursAdded.first { candidate in
                guard !taken.contains(candidate) else { return false }
                if let id = item.metadata.id, ours.item(candidate).metadata.id == id { return true }
                return ours.blocks[candidate].body == theirs.blocks[block].body
            }
            if let twin {
                taken.insert(twin)
                identities[oursIdentity[twin]!].theirs = block
                theirsIdentity[block] = oursIdentity[twin]!
            } else {
                theirsIdentity[block] = identities.count
                identities.append(Identity(theirs: block))
            }
        }
    }

    /// Pairs `side`'s blocks with the base's, and finds the next occurrences
    /// that completing a recurring base item added on that side.
    func pairGenerated(_ side: Version) -> (matched: [(base: Int, side: Int)], generated: [Int: Int]) {
        // Candidates: the open line right above a completed recurring item.
        var candidates: [Int: Int] = [:] // generated block -> completed block
        let blockOfItem = Dictionary(uniqueKeysWithValues: side.blocks.enumerated().map { ($0.element.item, $0.offset) })
        for (index, block) in side.blocks.enumerated() {
            let item = side.document.items[block.item]
            // Only an open one-line block right above can be one (a cheap test first).
            guard index > 0, item.status == .done, item.metadata.every != nil,
                side.blocks[index - 1].lastLine == block.firstLine - 1, side.item(index - 1).status == .open,
                let above = NextOccurrence.added(above: item, in: side.document, today: today),
                let aboveBlock = blockOfItem[above.index]
            else { continue }
            candidates[aboveBlock] = index
        }
        var matched = pair(base: Array(base.blocks.indices), side: side, pool: side.blocks.indices.filter { candidates[$0] == nil })
        var generated: [Int: Int] = [:]
        var rejected: [Int] = []
        let partner = Dictionary(uniqueKeysWithValues: matched.map { ($0.side, $0.base) })
        for (candidate, completed) in candidates.sorted(by: { $0.key < $1.key }) {
            // Generated here only if the completion happened on this side.
            if let basePartner = partner[completed], base.item(basePartner).status != .done {
                generated[candidate] = completed
            } else {
                rejected.append(candidate)
            }
        }
        if !rejected.isEmpty {
            let taken = Set(matched.map(\.base))
            matched += pair(base: base.blocks.indices.filter { !taken.contains($0) }, side: side, pool: rejected)
        }
        return (matched, generated)
    }

    /// Pairs base blocks with blocks of `side` from `pool`: same id, then
    /// same bytes, then same title in the same section, then same title,
    /// then the most similar title (at least 0.6 alike).
    func pair(base basePool: [Int], side: Version, pool: [Int]) -> [(base: Int, side: Int)] {
        var freeBase = basePool
        var freeSide = pool
        var pairs: [(base: Int, side: Int)] = []
        func round(_ key: (Version, Int) -> String?) {
            var waiting: [String: [Int]] = [:]
            for block in freeSide { if let k = key(side, block) { waiting[k, default: []].append(block) } }
            var usedBase = Set<Int>()
            var usedSide = Set<Int>()
            for block in freeBase {
                guard let k = key(base, block), var queue = waiting[k], !queue.isEmpty else { continue }
                let partner = queue.removeFirst()
                waiting[k] = queue
                pairs.append((block, partner))
                usedBase.insert(block)
                usedSide.insert(partner)
            }
            freeBase.removeAll { usedBase.contains($0) }
            freeSide.removeAll { usedSide.contains($0) }
        }
        round { version, block in version.item(block).metadata.id.map { "id\u{0}" + $0 } }
        round { version, block in String(decoding: version.blocks[block].body, as: UTF8.self) }
        round { version, block in version.sectionTitle(block) + "\u{0}" + version.item(block).title }
        round { version, block in version.item(block).title }
        // Similar titles: few items are left by now; bounded all the same.
        guard !freeBase.isEmpty, !freeSide.isEmpty, freeBase.count * freeSide.count <= 40_000 else { return pairs }
        var scored: [(score: Double, base: Int, side: Int)] = []
        for b in freeBase {
            for s in freeSide {
                let score = Similarity.dice(base.item(b).title, side.item(s).title)
                if score >= 0.6 { scored.append((score, b, s)) }
            }
        }
        var usedBase = Set<Int>()
        var usedSide = Set<Int>()
        for candidate in scored.sorted(by: { ($0.score, -$0.base) > ($1.score, -$1.base) })
        where !usedBase.contains(candidate.base) && !usedSide.contains(candidate.side) {
            pairs.append((candidate.base, candidate.side))
            usedBase.insert(candidate.base)
            usedSide.insert(candidate.side)
        }
        return pairs
    }

    // MARK: Content

    func content(_ index: Int) -> Content {
        let identity = identities[index]
        let o = identity.ours.map { ours.blocks[$0] }
        let t = identity.theirs.map { theirs.blocks[$0] }
        guard let baseBlock = identity.base.map({ base.blocks[$0] }) else {
            switch (o, t) {
            case (let o?, let t?):
                if o.body == t.body { return .text(body: o.body, ending: o.ending) }
                if let of = identity.nextOccurrenceOf { return nextOccurrence(of: of, ours: o, theirs: t) }
                return .conflict(ours: o.body + o.ending, theirs: t.body + t.ending)
            case (let o?, nil): return .text(body: o.body, ending: o.ending)
            case (nil, let t?): return .text(body: t.body, ending: t.ending)
            case (nil, nil): return .deleted
            }
        }
        switch (o, t) {
        case (nil, nil): return .deleted
        case (let o?, nil): return o.body == baseBlock.body ? .deleted : .conflict(ours: o.body + o.ending, theirs: [])
        case (nil, let t?): return t.body == baseBlock.body ? .deleted : .conflict(ours: [], theirs: t.body + t.ending)
        case (let o?, let t?):
            let ending = o.ending.isEmpty ? t.ending : o.ending
            if t.body == baseBlock.body || o.body == t.body { return .text(body: o.body, ending: ending) }
            if o.body == baseBlock.body { return .text(body: t.body, ending: ending) }
            if let body = mergeBlock(identity) { return .text(body: body, ending: ending) }
            return .conflict(ours: o.body + o.ending, theirs: t.body + t.ending)
        }
    }

    /// Both sides completed a recurring item and each added its next
    /// occurrence: the one of the side whose done date the merge keeps.
    func nextOccurrence(of completed: Int, ours o: Version.Block, theirs t: Version.Block) -> Content {
        let identity = identities[completed]
        let oursDone = identity.ours.flatMap { ours.item($0).metadata.done }
        let theirsDone = identity.theirs.flatMap { theirs.item($0).metadata.done }
        if let oursDone, let theirsDone, theirsDone < oursDone { return .text(body: t.body, ending: t.ending) }
        return .text(body: o.body, ending: o.ending)
    }

    /// The next occurrence of the completed item `completed` (its merged
    /// block), when it differs from `generated`, the one a side added: that
    /// side completed the item as it was, the other side may have changed
    /// its dates or rule. Nil when it is the same, or cannot be worked out
    /// from the block alone (then the side's line stays).
    func nextOccurrence(after completed: [UInt8], replacing generated: [UInt8]) -> [UInt8]? {
        let document = DocumentParser.parse(completed, path: "merge.md")
        guard let item = document.items.first, item.status == .done, item.metadata.every != nil,
            let line = NextOccurrence.line(for: item, in: document, today: item.metadata.done?.dayOnly ?? today)
        else { return nil }
        var body = line
        while let last = body.last, last == 0x0A || last == 0x0D { body.removeLast() }
        // Only a line that reads back as an open copy of the same item replaces the side's.
        let generatedItem = DocumentParser.parse(generated, path: "merge.md").items.first
        guard body != generated, let generatedItem, generatedItem.title == item.title else { return nil }
        return body
    }

    /// The merge of an item changed on both sides: its title line field by
    /// field, the rest of its block (notes, subtasks) line by line. Nil when
    /// they conflict.
    func mergeBlock(_ identity: Identity) -> [UInt8]? {
        let b = (base, identity.base!)
        let o = (ours, identity.ours!)
        let t = (theirs, identity.theirs!)
        /// The title line without its ending, that ending, and the lines after it.
        func split(_ side: (Version, Int)) -> (title: [UInt8], ending: [UInt8], rest: [UInt8]) {
            let (version, block) = side
            let source = version.document.source
            let line = version.item(block).line
            let start = source.lineStarts[version.blocks[block].firstLine - 1]
            let body = version.blocks[block].body
            let titleEnd = min(source.range(ofLine: line).upperBound - start, body.count)
            let restStart = min(source.rangeWithEnding(ofLine: line).upperBound - start, body.count)
            return (Array(body[..<titleEnd]), Array(body[titleEnd..<restStart]), Array(body[restStart...]))
        }
        let (bs, os, ts) = (split(b), split(o), split(t))
        guard let rest = mergeRest(base: bs.rest, ours: os.rest, theirs: ts.rest) else { return nil }
        let title: [UInt8]
        if ts.title == bs.title || os.title == ts.title {
            title = os.title
        } else if os.title == bs.title {
            title = ts.title
        } else if let merged = mergeTitleLine(base: b, ours: o, theirs: t) {
            title = merged
        } else {
            return nil
        }
        guard !rest.isEmpty else { return title }
        let ending = !os.ending.isEmpty ? os.ending : !ts.ending.isEmpty ? ts.ending : Array(ours.document.source.lineEnding.utf8)
        return title + ending + rest
    }

    /// Notes and subtasks: taken from the side that changed them. When
    /// both did, only additions at the end merge (ours first, then theirs'
    /// new lines); any other change on both sides is a conflict. (Bytes
    /// without the block's last line ending.)
    func mergeRest(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> [UInt8]? {
        if theirs == base || ours == theirs { return ours }
        if ours == base { return theirs }
        func lines(_ bytes: [UInt8]) -> [[UInt8]] {
            LineMergePiece.lines(of: bytes).map { line in
                var line = line
                if line.last == 0x0A { line.removeLast() }
                if line.last == 0x0D { line.removeLast() }
                return line
            }
        }
        let (b, o, t) = (lines(base), lines(ours), lines(theirs))
        guard o.starts(with: b), t.starts(with: b) else { return nil }
        let added = t.dropFirst(b.count).filter { !o.dropFirst(b.count).contains($0) }
        let ending: [UInt8] = ours.contains(0x0D) || theirs.contains(0x0D) ? [0x0D, 0x0A] : [0x0A]
        return Array((o + added).joined(separator: ending))
    }

    /// The merged title line (without its ending): OURS' line with THEIRS'
    /// changes from BASE made as token splices; nil when a field was changed
    /// differently on both sides.
    func mergeTitleLine(base b: (Version, Int), ours o: (Version, Int), theirs t: (Version, Int)) -> [UInt8]? {
        let (bi, oi, ti) = (b.0.item(b.1), o.0.item(o.1), t.0.item(t.1))
        let (bm, om, tm) = (bi.metadata, oi.metadata, ti.metadata)
        let oursDocument = o.0.document
        var changes: [TokenEdit.Change] = []

        guard let status = merge3(bi.status, oi.status, ti.status) else { return nil }
        for field in MetadataField.dateFields {
            let (was, mine, other) = (bm.date(field), om.date(field), tm.date(field))
            let value: TaskDate?
            if field == .done || field == .cancelled, let mine, let other, mine != was, other != was {
                value = min(mine, other) // completed on both sides: the earliest day
            } else {
                guard let merged = merge3(was, mine, other) else { return nil }
                value = merged
            }
            if value != mine { changes.append(value.map { .setDate(field, $0) } ?? .remove(field)) }
        }
        func priority(_ m: ItemMetadata) -> Priority { m.hasPriority ? m.priority : .normal }
        guard let level = merge3(priority(bm), priority(om), priority(tm)) else { return nil }
        if level != priority(om) { changes.append(.setPriority(level)) }
        for (field, value) in [(MetadataField.recurrence, \ItemMetadata.every), (.color, \.color), (.icon, \.icon), (.blockID, \.id)] {
            guard let merged = merge3(bm[keyPath: value], om[keyPath: value], tm[keyPath: value]) else { return nil }
            if merged != om[keyPath: value] { changes.append(merged.map { .setText(field, $0) } ?? .remove(field)) }
        }
        var keys: [String] = []
        for (key, _) in bm.fields + om.fields + tm.fields where !keys.contains(key) { keys.append(key) }
        for key in keys {
            func value(_ m: ItemMetadata) -> String? { m.fields.first { $0.key == key }?.value }
            guard let merged = merge3(value(bm), value(om), value(tm)) else { return nil }
            if merged != value(om) { changes.append(merged.map { .setText(.other(key), $0) } ?? .remove(.other(key))) }
        }
        let lower = { (tags: [String]) in Set(tags.map { $0.lowercased() }) }
        let (bTags, oTags) = (lower(bm.tags), lower(om.tags))
        for tag in tm.tags where !bTags.contains(tag.lowercased()) && !oTags.contains(tag.lowercased()) { changes.append(.addTag(tag)) }
        for tag in bm.tags where !lower(tm.tags).contains(tag.lowercased()) && oTags.contains(tag.lowercased()) { changes.append(.removeTag(tag)) }
        func text(_ side: (Version, Int)) -> String {
            let item = side.0.item(side.1)
            let bytes = side.0.document.source.bytes
            return TokenEdit.textStretches(of: item, bytes: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }.joined(separator: " ")
        }
        let oursText = text(o)
        guard let words = merge3(text(b), oursText, text(t)) else { return nil }
        if words != oursText { changes.append(.replaceText(words)) }

        // The line up to the title: indentation, quote and list markers, box.
        func prefix(_ side: (Version, Int)) -> [UInt8] {
            let item = side.0.item(side.1)
            let source = side.0.document.source
            var bytes = Array(source.bytes[source.lineStarts[item.line - 1]..<item.titleRange.lowerBound])
            bytes[item.boxRange.lowerBound + 1 - source.lineStarts[item.line - 1]] = 0
            return bytes
        }
        let lineStart = oursDocument.source.lineStarts[oi.line - 1]
        var splices = TokenEdit.splices(changes, item: oi, in: oursDocument, dialect: tm.dialect ?? om.dialect)
        guard let marks = merge3(prefix(b), prefix(o), prefix(t)) else { return nil }
        if marks != prefix(o) {
            var replacement = marks
            if let box = replacement.firstIndex(of: 0) { replacement[box] = status.boxByte }
            splices.append(Splice(lineStart..<oi.titleRange.lowerBound, replacement))
        } else if status != oi.status {
            splices.append(StatusEdit.boxSplice(oi, status))
        }
        let lineEnd = oursDocument.source.range(ofLine: oi.line).upperBound
        let shifted = splices.map { Splice($0.range.lowerBound - lineStart..<$0.range.upperBound - lineStart, $0.replacement) }
        return try? Splice.apply(shifted, to: Array(oursDocument.source.bytes[lineStart..<lineEnd]))
    }

    /// A three-way merge of one value: the side that changed it wins; nil
    /// (a conflict) when both changed it differently.
    func merge3<Value: Equatable>(_ base: Value, _ ours: Value, _ theirs: Value) -> Value? {
        if ours == theirs || theirs == base { return ours }
        if ours == base { return theirs }
        return nil
    }

    // MARK: Placement

    /// The identities named by placeholder lines among `lines`.
    func placeholders(in lines: [[UInt8]]) -> [Int] { lines.compactMap(identity(of:)) }

    /// The identity a line stands for; nil for a line of text (every line,
    /// when the versions are merged line by line only).
    func identity(of line: [UInt8]) -> Int? { itemMerge ? Placeholder.identity(of: line) : nil }

    /// A conflict of the line merge that is only about where items go
    /// (placeholder and blank lines, at least one placeholder): OURS' lines,
    /// then THEIRS' items that OURS does not have here, each with the blank
    /// lines before it. An item one side moved away from here is left out
    /// (it is placed where that side put it).
    func placementOnly(base b: [[UInt8]], ours o: [[UInt8]], theirs t: [[UInt8]]) -> [[UInt8]]? {
        func isBlank(_ line: [UInt8]) -> Bool { line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A } }
        let all = b + o + t
        guard all.contains(where: { identity(of: $0) != nil }),
            all.allSatisfy({ identity(of: $0) != nil || isBlank($0) })
        else { return nil }
        let (inBase, inOurs, inTheirs) = (Set(placeholders(in: b)), Set(placeholders(in: o)), Set(placeholders(in: t)))
        func movedAway(_ identity: Int, by side: Side) -> Bool {
            // In the base here, not on `side` here, but somewhere else on `side`.
            guard inBase.contains(identity) else { return false }
            switch side {
            case .ours: return !inOurs.contains(identity) && identities[identity].ours != nil
            case .theirs: return !inTheirs.contains(identity) && identities[identity].theirs != nil
            }
        }
        var result: [[UInt8]] = []
        for line in o {
            if let identity = identity(of: line), movedAway(identity, by: .theirs) { continue }
            result.append(line)
        }
        var pendingBlanks: [[UInt8]] = []
        for line in t {
            guard let identity = identity(of: line) else {
                pendingBlanks.append(line)
                continue
            }
            defer { pendingBlanks = [] }
            if inOurs.contains(identity) || movedAway(identity, by: .ours) { continue }
            result += pendingBlanks
            result.append(line)
        }
        if let last = result.last, !isBlank(last) { result += pendingBlanks }
        return result
    }

    /// A line of a prose conflict, with a placeholder replaced by that
    /// side's own block.
    func expand(_ line: [UInt8], in version: Version, side: Side) -> [UInt8] {
        guard let identity = identity(of: line) else { return line }
        let block = side == .ours ? identities[identity].ours : identities[identity].theirs
        guard let block else { return [] }
        let found = version.blocks[block]
        return found.body + (found.ending.isEmpty ? Array(version.document.source.lineEnding.utf8) : found.ending)
    }
}

extension Version {
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The same version with no item blocks: merged line by line only.
    fileprivate init(lineOnlyOf version: Version) {
        self.hasByteOrderMark = version.hasByteOrderMark
        self.document = version.document
        self.blocks = []
        self.itemMergeable = false
    }
}

/// Writes the merged file: lines, items (each once) and conflict markers.
private struct Writer {
    let markers: ListMerge.Markers
    let lineEnding: [UInt8]
    let contents: [Merger.Content]
    /// False when the versions are merged line by line only: then no line is a placeholder.
    let placeholders: Bool
    var output: [UInt8] = []
    var conflicts = 0
    var written = Set<Int>()

    init(markers: ListMerge.Markers, lineEnding: [UInt8], contents: [Merger.Content], placeholders: Bool) {
        self.placeholders = placeholders
        self.markers = markers
        self.lineEnding = lineEnding
        self.contents = contents
    }

    /// Appends bytes that start a new line (ending the last one first if it
    /// had no line ending).
    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if let last = output.last, last != 0x0A { output += lineEnding }
        output += bytes
    }

    mutating func line(_ line: [UInt8]) {
        if placeholders, let identity = Placeholder.identity(of: line) { item(identity) } else { append(line) }
    }

    mutating func item(_ identity: Int) {
        guard written.insert(identity).inserted else { return }
        switch contents[identity] {
        case .deleted: break
        case .text(let body, let ending): append(body + ending)
        case .conflict(let ours, let theirs): conflict(ours: [ours], theirs: [theirs])
        }
    }

    mutating func proseConflict(ours: [[UInt8]], theirs: [[UInt8]], placed: [Int]) {
        written.formUnion(placed)
        conflict(ours: ours, theirs: theirs)
    }

    mutating func conflict(ours: [[UInt8]], theirs: [[UInt8]]) {
        conflicts += 1
        func marker(_ character: Character, _ label: String?) -> [UInt8] {
            Array((String(repeating: character, count: markers.size) + (label.map { " " + $0 } ?? "")).utf8) + lineEnding
        }
        func side(_ lines: [[UInt8]]) -> [UInt8] {
            var bytes = Array(lines.joined())
            if let last = bytes.last, last != 0x0A { bytes += lineEnding }
            return bytes
        }
        append(marker("<", markers.ours))
        output += side(ours)
        output += marker("=", nil)
        output += side(theirs)
        output += marker(">", markers.theirs)
    }
}

/// How alike two titles are: the Sørensen–Dice coefficient of their letter
/// pairs (1 for equal titles, 0 for nothing in common).
enum Similarity {
    static func dice(_ a: String, _ b: String) -> Double {
        func bigrams(_ text: String) -> [String: Int] {
            let letters = Array(text.lowercased())
            var counts: [String: Int] = [:]
            for index in letters.indices.dropLast() { counts[String(letters[index...index + 1]), default: 0] += 1 }
            return counts
        }
        let x = bigrams(a)
        let y = bigrams(b)
        let total = x.values.reduce(0, +) + y.values.reduce(0, +)
        guard total > 0 else { return a.lowercased() == b.lowercased() ? 1 : 0 }
        let shared = x.reduce(0) { $0 + min($1.value, y[$1.key] ?? 0) }
        return Double(2 * shared) / Double(total)
    }
}
