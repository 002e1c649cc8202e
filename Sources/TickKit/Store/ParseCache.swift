import Foundation

/// The parse cache: the parsed lists of one notes folder, kept in one file
/// under `$XDG_CACHE_HOME/tick` (else `~/.cache/tick`) so that a repeated
/// query reads no Markdown at all.
///
/// Guarantees:
/// - an entry is used only when the file's size, modification time (to the
///   nanosecond), inode and device all match the `stat` taken while listing
///   the folder; any other file is read and parsed again (per file);
/// - a cache file that is damaged, half written, of another format version
///   or for another folder is ignored and rebuilt, never trusted: every read
///   is bounds-checked and the whole file carries a checksum;
/// - answers are the same, byte for byte, as without the cache (the
///   documents read back equal the parsed ones; tests check both);
/// - it is never used for edits: the editor always reads the file itself.
public struct ParseCache: Sendable {
    /// The cache file.
    public let path: String
    let root: String

    static let magic = Array("TICKCACHE".utf8)
    /// Bump when the parser or the encoding changes what a document holds.
    static let formatVersion = 1

    /// The cache for the folder `root`, or nil when caching is off
    /// (`TICK_NO_CACHE` set) or there is no cache folder to use.
    public init?(root: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let off = environment["TICK_NO_CACHE"], !off.isEmpty, off != "0" { return nil }
        let base: String
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else if let home = environment["HOME"], !home.isEmpty {
            base = home + "/.cache"
        } else {
            return nil
        }
        self.root = root
        self.path = base + "/tick/" + Self.fileName(for: root)
    }

    /// A name from the folder's path (FNV-1a), so each folder has its own file.
    static func fileName(for root: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in root.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "folder-" + String(hash, radix: 16) + ".cache"
    }

    /// What a cache file holds: its bytes and where each file's document is.
    public struct Contents: Sendable {
        let bytes: [UInt8]
        let entries: [String: (stamp: FileStamp, payload: Range<Int>)]

        /// The document of `path` if the cache holds it for exactly `stamp`.
        func document(_ path: String, stamp: FileStamp) -> Document? {
            guard let entry = entries[path], entry.stamp == stamp else { return nil }
            return bytes.withUnsafeBufferPointer { buffer in
                var reader = ByteReader(buffer, range: entry.payload)
                guard let document = try? DocumentCoding.decode(&reader), reader.position == entry.payload.upperBound,
                      document.path == path else { return nil }
                return document
            }
        }

        /// The encoded document of `path` for `stamp`, to copy into a new cache.
        func payload(_ path: String, stamp: FileStamp) -> ArraySlice<UInt8>? {
            guard let entry = entries[path], entry.stamp == stamp else { return nil }
            return bytes[entry.payload]
        }
    }

    /// Reads the cache file; nil when there is none or it cannot be trusted.
    public func load() -> Contents? {
        guard let bytes = try? FileIO.read(path), bytes.count >= Self.magic.count + 8 else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Contents? in
            let bodyEnd = buffer.count - 8
            guard Array(buffer[0..<Self.magic.count]) == Self.magic,
                  Self.checksum(UnsafeBufferPointer(rebasing: buffer[0..<bodyEnd])) == Self.readUInt64(buffer, at: bodyEnd)
            else { return nil }
            var reader = ByteReader(buffer, range: Self.magic.count..<bodyEnd)
            do {
                guard try reader.int() == Self.formatVersion, try reader.string() == root else { return nil }
                let count = try reader.count(limit: 1 << 24)
                var entries: [String: (stamp: FileStamp, payload: Range<Int>)] = [:]
                entries.reserveCapacity(count)
                var index: [(String, FileStamp, Int)] = []
                for _ in 0..<count {
                    let path = try reader.string()
                    let stamp = FileStamp(size: try reader.int(), modifiedSeconds: try reader.int(),
                                          modifiedNanoseconds: try reader.int(), inode: try reader.int(), device: try reader.int())
                    index.append((path, stamp, try reader.count()))
                }
                var offset = reader.position
                for (path, stamp, length) in index {
                    guard offset + length <= bodyEnd else { return nil }
                    entries[path] = (stamp, offset..<offset + length)
                    offset += length
                }
                guard offset == bodyEnd else { return nil }
                return Contents(bytes: bytes, entries: entries)
            } catch {
                return nil
            }
        }
    }

    /// Writes a new cache file holding `entries` (each an encoded document),
    /// through a temporary file and a rename, so readers see the old file or
    /// the new one. Failing to write a cache is not an error: tick works
    /// without one.
    public func save(_ entries: [(path: String, stamp: FileStamp, payload: ArraySlice<UInt8>)]) {
        var header = ByteWriter()
        header.bytes = Self.magic
        header.int(Self.formatVersion)
        header.string(root)
        header.int(entries.count)
        for entry in entries {
            header.string(entry.path)
            for value in [entry.stamp.size, entry.stamp.modifiedSeconds, entry.stamp.modifiedNanoseconds, entry.stamp.inode, entry.stamp.device] {
                header.int(value)
            }
            header.int(entry.payload.count)
        }
        var bytes = header.bytes
        bytes.reserveCapacity(bytes.count + entries.reduce(0) { $0 + $1.payload.count } + 8)
        for entry in entries { bytes.append(contentsOf: entry.payload) }
        let sum = bytes.withUnsafeBufferPointer { Self.checksum($0) }
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: sum >> UInt64(shift))) }

        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        var written = 0
        let complete = bytes.withUnsafeBufferPointer { buffer -> Bool in
            while written < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 { if errno == EINTR { continue }; return false }
                written += result
            }
            return true
        }
        close(descriptor)
        if !complete || rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// A fast checksum (64-bit words, multiply and rotate) over the bytes.
    static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var index = 0
        let words = bytes.count / 8
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            for word in 0..<words {
                let value = raw.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self)
                hash = (hash ^ value) &* 0xBF58_476D_1CE4_E5B9
                hash = (hash << 31) | (hash >> 33)
            }
        }
        index = words * 8
        while index < bytes.count {
            hash = (hash ^ UInt64(bytes[index])) &* 0x94D0_49BB_1331_11EB
            index += 1
        }
        return hash
    }

    static func readUInt64(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(buffer[offset + index]) << UInt64(index * 8) }
        return value
    }
}
