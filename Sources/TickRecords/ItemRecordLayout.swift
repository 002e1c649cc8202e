import TickModel
import TickSystem

/// The fixed-size record of one item in an encoded document
/// (`DocumentCoding`): 32-bit little-endian words at fixed places, so that a
/// query reads an item's status or due date straight from the cache's bytes.
///
/// Strings are slices (start, count) of the same payload; lists of strings
/// (tags, fields) and the rest of the item are LEB128-encoded where the
/// record points. Every read is bounds-checked: a damaged record gives an
/// error, never a crash.
enum ItemRecordLayout {
    /// Word indices. Optional numbers are stored plus one (0: none).
    enum Field: Int {
        case line = 0
        case fileOffset, depth, parent, parentLine, section, childCount
        /// Status box byte | priority << 8 (bits 8 to 10; 11 to 14 are
        /// free) | `plainASCIITitleBit` (15) | has-priority << 16 | the
        /// bits of the `Extra`s present (17 to 30) | `markupBit` (31).
        case flags
        /// The due and done days (`TaskDate.packed`, 0: none); their times,
        /// rare, are extras.
        case due = 8
        case done = 9
        /// Slices: start word, then count word.
        case title = 10
        case text = 12
        /// Offsets of LEB128 lists: tags, `key:value` fields, the rest of the item.
        case tags = 14
        case fields = 15
        case rest = 16
        /// How many tags and fields there are: kept in the record, so that
        /// the common empty case reads nothing outside it (the lists lie far
        /// away, past every record, and reading them costs a cache miss).
        case tagCount = 17
        case fieldCount = 18
        /// Offset of the extras.
        case extras = 19
        /// The item's iCalendar UID hash (`storeUIDHashes`), low word
        /// then high word: last, as only an export reads it.
        case uidHash = 20
    }

    /// Set when the item's text holds inline markup (not
    /// `TitleParser.isPlain`): a renderer then parses its runs.
    static let markupBit: UInt32 = 1 << 31

    /// Set when the item's title is plain ASCII (`isPlainASCII`): every
    /// output writes it as it is, without looking at its bytes.
    static let plainASCIITitleBit: UInt32 = 1 << 15

    /// True when every byte of `bytes` is printable ASCII (0x20–0x7E) and
    /// none is `"`, `\`, `,` or `;`: what a terminal row, a JSON string and
    /// an iCalendar TEXT value hold as it is (most titles).
    static func isPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteText.isPrintableASCII(bytes)
            && !bytes.contains { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") }
    }

    /// Stores in each of the `count` records at `start` in `payload` the
    /// item's UID hash, which an iCalendar export writes as its UID when
    /// the item has no block id: FNV-1a of the list's `path`, the item's
    /// title and how many items above it in the list have that title (as
    /// text compares them: `RepeatedTitles`), in decimal, joined by NUL.
    /// Made once, when the list is parsed: it survives edits of the
    /// item's other fields and lines added or removed around it.
    static func storeUIDHashes(in payload: inout [UInt8], recordsAt start: Int, count: Int, path: String) {
        guard count > 0 else { return }
        var afterPath = FNV1a.Hasher()
        afterPath.combine(path)
        afterPath.combine(0)
        payload.withUnsafeMutableBytes { raw in
            // The records are read as every reader reads them; only the UID words are written.
            let bytes = UnsafeBufferPointer(raw.bindMemory(to: UInt8.self))
            let records = (0..<count).map { Record(buffer: bytes, offset: start + $0 * size) }
            let titles = records.map { (try? $0.slice(.title)) ?? UnsafeBufferPointer(start: nil, count: 0) }
            for (record, earlier) in RepeatedTitles.earlierCounts(titles).enumerated() {
                var hasher = afterPath
                hasher.combine(titles[record])
                hasher.combine(0)
                // One digit for nearly every item.
                if earlier < 10 { hasher.combine(UInt8(0x30 + earlier)) } else { hasher.combine(String(earlier)) }
                let offset = records[record].offset + Field.uidHash.rawValue * 4
                raw.storeBytes(of: UInt32(truncatingIfNeeded: hasher.value).littleEndian, toByteOffset: offset, as: UInt32.self)
                raw.storeBytes(of: UInt32(truncatingIfNeeded: hasher.value >> 32).littleEndian, toByteOffset: offset + 4, as: UInt32.self)
            }
        }
    }

    static let wordCount = 22
    static let size = wordCount * 4
    /// Offsets and numbers must stay below this to fit a word.
    static let maximumValue = Int(UInt32.max) - 1

    /// What most items lack, kept out of the record so that records stay
    /// small (a repeated query reads every record): LEB128 numbers at the
    /// `extras` offset, only those present, in this order; a bit in `flags`
    /// says which are.
    enum Extra: Int, CaseIterable {
        /// Minutes plus one of the due and done dates' times.
        case dueMinutes, doneMinutes
        /// Dates: the day, then the minutes plus one (0: no time).
        case scheduled, start, created, cancelled
        /// Slices: start, then count.
        case notes, every, color, icon, id
        /// Slices: the ids an item depends on (joined by commas), its on-completion action.
        case dependsOn, onCompletion
        /// The fields kept in `ItemMetadata.more`: how many, then for each its
        /// place in `MetadataField.keptInMore` and its value (a date: 0, the
        /// day, the minutes plus one or 0; text: 1, start, count). Last: it is
        /// the one extra of no fixed length, so no other is read past it.
        case more

        var bit: UInt32 { 1 << (17 + UInt32(rawValue)) }
        /// How many numbers it takes (`more` excepted, which is last).
        var valueCount: Int { self == .dueMinutes || self == .doneMinutes ? 1 : 2 }
    }

    /// A value of a field kept in `ItemMetadata.more`, as the record holds it.
    enum MoreValue {
        case date(TaskDate)
        case text(UnsafeBufferPointer<UInt8>)
    }

    /// The strings of an item.
    enum TextField {
        case title, text, notes, every, color, icon, id, dependsOn, onCompletion

        /// Where the string is: its two words in the record, or an extra.
        var place: Place {
            switch self {
            case .title: .record(.title)
            case .text: .record(.text)
            case .notes: .extra(.notes)
            case .every: .extra(.every)
            case .color: .extra(.color)
            case .icon: .extra(.icon)
            case .id: .extra(.id)
            case .dependsOn: .extra(.dependsOn)
            case .onCompletion: .extra(.onCompletion)
            }
        }

        enum Place {
            case record(Field)
            case extra(Extra)
        }
    }

    /// The words of one record, collected on the stack while the item's
    /// strings are written, then copied into the payload at once.
    struct Writer {
        let words: UnsafeMutableBufferPointer<UInt32>

        /// Calls `body` with a zeroed record, then stores it at `offset` in the writer's bytes.
        static func write<E: Error>(
            at offset: Int, in writer: inout ByteWriter,
            _ body: (Writer, inout ByteWriter) throws(E) -> Void
        ) throws(E) {
            try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: wordCount) { (words) throws(E) in
                words.initialize(repeating: 0)
                try body(Writer(words: words), &writer)
                writer.bytes.withUnsafeMutableBytes { raw in
                    precondition(offset >= 0 && offset + size <= raw.count)
                    for (index, word) in words.enumerated() {
                        raw.storeBytes(of: word.littleEndian, toByteOffset: offset + index * 4, as: UInt32.self)
                    }
                }
            }
        }

        func set(_ field: Field, _ value: Int, plus offset: Int = 0) throws(DocumentCoding.TooLarge) {
            guard value >= 0, value <= maximumValue else { throw DocumentCoding.TooLarge() }
            words[field.rawValue + offset] = UInt32(value)
        }

    }

    /// The records of one encoded document.
    struct Records {
        let buffer: UnsafeBufferPointer<UInt8>
        let start: Int
        let count: Int

        /// Reads the count of records at the reader's position and steps over them.
        init(_ reader: inout ByteReader, in buffer: UnsafeBufferPointer<UInt8>) throws {
            count = try reader.count(limit: 1 << 26)
            guard count * size <= reader.end - reader.position else { throw ByteReader.Damaged() }
            start = reader.position
            self.buffer = buffer
            reader.position += count * size
        }

        private init(buffer: UnsafeBufferPointer<UInt8>, start: Int, count: Int) {
            self.buffer = buffer
            self.start = start
            self.count = count
        }

        /// No records.
        static var empty: Records { Records(buffer: UnsafeBufferPointer(start: nil, count: 0), start: 0, count: 0) }

        func record(_ index: Int) -> Record { Record(buffer: buffer, offset: start + index * size) }
    }

    /// One record, read field by field.
    struct Record {
        let buffer: UnsafeBufferPointer<UInt8>
        let offset: Int

        /// Starts loading the record's bytes (two cache lines at most) for a read soon.
        func prefetch() {
            guard let base = buffer.baseAddress else { return }
            Prefetch.line(at: base + offset)
            Prefetch.line(at: base + offset + size - 1)
        }

        func word(_ index: Int) -> UInt32 {
            UInt32(littleEndian: UnsafeRawPointer(buffer.baseAddress!).loadUnaligned(fromByteOffset: offset + index * 4, as: UInt32.self))
        }

        subscript(_ field: Field) -> Int { Int(word(field.rawValue)) }

        var flags: UInt32 { word(Field.flags.rawValue) }
        var status: TaskStatus? { TaskStatus(boxByte: UInt8(truncatingIfNeeded: flags)) }
        var priority: Priority? { Priority(rawValue: Int(flags >> 8 & 0x07)) }
        var hasPriority: Bool { flags & (1 << 16) != 0 }
        var hasMarkup: Bool { flags & ItemRecordLayout.markupBit != 0 }
        var hasPlainASCIITitle: Bool { flags & ItemRecordLayout.plainASCIITitleBit != 0 }
        var uidHash: UInt64 { UInt64(word(Field.uidHash.rawValue)) | UInt64(word(Field.uidHash.rawValue + 1)) << 32 }
        func has(_ extra: Extra) -> Bool { flags & extra.bit != 0 }

        /// A reader at the numbers of `extra`, past those of the extras
        /// before it.
        private func reader(at extra: Extra) throws -> ByteReader {
            var reader = try reader(at: .extras)
            for earlier in Extra.allCases[0..<extra.rawValue] where has(earlier) {
                for _ in 0..<earlier.valueCount { _ = try reader.int() }
            }
            return reader
        }

        private static func word(_ value: Int) throws -> UInt32 {
            guard let word = UInt32(exactly: value) else { throw ByteReader.Damaged() }
            return word
        }

        /// Date `position` (0 due, 1 scheduled, 2 start, 3 created, 4 done, 5 cancelled).
        func date(_ position: Int) throws -> TaskDate? {
            let day: UInt32
            let minutes: UInt32
            switch position {
            case 0, 4:
                day = word(position == 0 ? Field.due.rawValue : Field.done.rawValue)
                guard day != 0 else { return nil }
                let time: Extra = position == 0 ? .dueMinutes : .doneMinutes
                if has(time) {
                    var reader = try reader(at: time)
                    minutes = try Self.word(reader.int())
                } else {
                    minutes = 0
                }
            default:
                let extra: Extra
                switch position {
                case 1: extra = .scheduled
                case 2: extra = .start
                case 3: extra = .created
                case 5: extra = .cancelled
                default: return nil
                }
                guard has(extra) else { return nil }
                var reader = try reader(at: extra)
                day = try Self.word(reader.int())
                minutes = try Self.word(reader.int())
            }
            guard let date = TaskDate(packed: day, minutes: minutes) else { throw ByteReader.Damaged() }
            return date
        }

        /// The values of the fields kept in `ItemMetadata.more`, in
        /// `MetadataField.keptInMore` order.
        func more() throws -> [(field: MetadataField, value: MoreValue)] {
            guard has(.more) else { return [] }
            var reader = try reader(at: .more)
            let kept = MetadataField.keptInMore
            var values: [(field: MetadataField, value: MoreValue)] = []
            for _ in 0..<(try reader.count(limit: kept.count)) {
                let field = kept[try reader.count(limit: kept.count - 1)]
                switch try reader.int() {
                case 0:
                    let day = try Self.word(reader.int())
                    guard let date = TaskDate(packed: day, minutes: try Self.word(reader.int())) else { throw ByteReader.Damaged() }
                    values.append((field, .date(date)))
                case 1:
                    let start = try reader.count()
                    let count = try reader.count()
                    guard start <= buffer.count, count <= buffer.count - start else { throw ByteReader.Damaged() }
                    values.append((field, .text(UnsafeBufferPointer(rebasing: buffer[start..<start + count]))))
                default: throw ByteReader.Damaged()
                }
            }
            return values
        }

        /// The bytes of a string field; nil when absent (the title and the
        /// text are always there).
        func slice(_ field: TextField) throws -> UnsafeBufferPointer<UInt8>? {
            let start: Int
            let count: Int
            switch field.place {
            case .record(let first):
                start = Int(word(first.rawValue))
                count = Int(word(first.rawValue + 1))
            case .extra(let extra):
                guard has(extra) else { return nil }
                var reader = try reader(at: extra)
                start = try reader.count()
                count = try reader.count()
            }
            guard start <= buffer.count, count <= buffer.count - start else { throw ByteReader.Damaged() }
            return UnsafeBufferPointer(rebasing: buffer[start..<start + count])
        }

        /// A reader at the offset a field holds.
        func reader(at field: Field) throws -> ByteReader {
            let position = self[field]
            guard position <= buffer.count else { throw ByteReader.Damaged() }
            return ByteReader(buffer, range: position..<buffer.count)
        }

        var hasTags: Bool { self[.tagCount] > 0 }
        var hasFields: Bool { self[.fieldCount] > 0 }

        func slices(at field: Field) throws -> [ByteSlice] {
            try reader(at: field).slices(at: self[field])
        }

        func slicePairs(at field: Field) throws -> [(ByteSlice, ByteSlice)] {
            try reader(at: field).slicePairs(at: self[field])
        }

        func strings(at field: Field) throws -> [String] {
            try slices(at: field).map { $0.string(in: buffer) }
        }

        func stringPairs(at field: Field) throws -> [(key: String, value: String)] {
            try slicePairs(at: field).map { ($0.0.string(in: buffer), $0.1.string(in: buffer)) }
        }
    }
}
