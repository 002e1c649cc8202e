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
        case line = 0, fileOffset, depth, parent, parentLine, section, childCount
        /// Status box byte | priority << 8 | has-priority << 16.
        case flags
        /// Six day words (`TaskDate.packed`, 0: none; due, scheduled, start,
        /// created, done, cancelled), then six minute words (minutes + 1, 0: no time).
        case dates = 8
        /// Slices: start word, then count word (`absent`: none).
        case title = 20, text = 22, notes = 24, every = 26, color = 28, icon = 30, id = 32
        /// Offsets of LEB128 lists: tags, `key:value` fields, the rest of the item.
        case tags = 34, fields = 35, rest = 36
        /// How many tags and fields there are: kept in the record, so that
        /// the common empty case reads nothing outside it (the lists lie far
        /// away, past every record, and reading them costs a cache miss).
        case tagCount = 37, fieldCount = 38
    }

    static let wordCount = 39
    static let size = wordCount * 4
    /// Offsets and numbers must stay below this to fit a word.
    static let maximumValue = Int(UInt32.max) - 1
    /// The count word of an absent string.
    static let absent = UInt32.max

    /// The words of one record, collected on the stack while the item's
    /// strings are written, then copied into the payload at once.
    struct Writer {
        let words: UnsafeMutableBufferPointer<UInt32>

        /// Calls `body` with a zeroed record, then stores it at `offset` in the writer's bytes.
        static func write<E: Error>(at offset: Int, in writer: inout ByteWriter,
                                    _ body: (Writer, inout ByteWriter) throws(E) -> Void) throws(E) {
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

        func setAbsent(_ field: Field) {
            words[field.rawValue + 1] = absent
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

        func word(_ index: Int) -> UInt32 {
            UInt32(littleEndian: UnsafeRawPointer(buffer.baseAddress!).loadUnaligned(fromByteOffset: offset + index * 4, as: UInt32.self))
        }

        subscript(_ field: Field) -> Int { Int(word(field.rawValue)) }

        var status: TaskStatus? { TaskStatus(boxByte: UInt8(truncatingIfNeeded: word(Field.flags.rawValue))) }
        var priority: Priority? { Priority(rawValue: Int(word(Field.flags.rawValue) >> 8 & 0xFF)) }
        var hasPriority: Bool { word(Field.flags.rawValue) & (1 << 16) != 0 }

        /// Date `position` (0 due … 5 cancelled).
        func date(_ position: Int) throws -> TaskDate? {
            let day = word(Field.dates.rawValue + position)
            guard day != 0 else { return nil }
            guard let date = TaskDate(packed: day, minutes: word(Field.dates.rawValue + 6 + position)) else {
                throw ByteReader.Damaged()
            }
            return date
        }

        /// The bytes of a string field; nil when absent.
        func slice(_ field: Field) throws -> UnsafeBufferPointer<UInt8>? {
            let count = word(field.rawValue + 1)
            guard count != absent else { return nil }
            let start = Int(word(field.rawValue))
            guard start <= buffer.count, Int(count) <= buffer.count - start else { throw ByteReader.Damaged() }
            return UnsafeBufferPointer(rebasing: buffer[start..<start + Int(count)])
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
