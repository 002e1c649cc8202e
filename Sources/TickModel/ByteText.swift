import TickSystem

/// Byte-wise tests and comparisons of UTF-8 text, for the hot paths that
/// sort or check thousands of names on every query.
///
/// For ASCII text, `compare` orders exactly as `String`'s `<` does (both
/// compare by code point, and ASCII needs no normalisation), so callers use
/// it only after `isASCII` holds for both sides.
package enum ByteText {
    /// True when every byte is below 0x80; eight bytes at a time.
    package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            if WordBytes.highBit(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }

    /// True when every byte is printable ASCII (0x20 to 0x7E): text that
    /// is its own visible form, a column a byte. Eight bytes at a time.
    package static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if WordBytes.below(0x20, word) | WordBytes.above(0x7E, word) != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] < 0x20 || bytes[index] > 0x7E { return false }
            index += 1
        }
        return true
    }

    /// Negative, zero or positive as `left` sorts before, with or after
    /// `right`, byte by byte (a prefix sorts first).
    package static func compare(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        let length = min(left.count, right.count)
        if length > 0 {
            let common = Posix.compareBytes(left.baseAddress!, right.baseAddress!, length)
            if common != 0 { return Int(common) }
        }
        return left.count - right.count
    }

    /// `byte` with A–Z lowercased.
    @inline(__always)
    package static func foldedASCII(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// True when `text`, its ASCII letters lowercased, contains `needle`
    /// (ASCII, lowercased already). An empty needle is always found.
    package static func containsASCIICaseFolded(_ text: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !needle.isEmpty else { return true }
        guard text.count >= needle.count else { return false }
        let folded = foldedASCII
        let first = needle[0]
        for start in 0...(text.count - needle.count) where folded(text[start]) == first {
            var offset = 1
            while offset < needle.count, folded(text[start + offset]) == needle[offset] { offset += 1 }
            if offset == needle.count { return true }
        }
        return false
    }

    /// True when `text`, its ASCII letters lowercased, is `folded` (ASCII,
    /// lowercased already).
    package static func equalASCIICaseFolded(_ text: UnsafeBufferPointer<UInt8>, _ folded: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.count == folded.count else { return false }
        for index in 0..<text.count where foldedASCII(text[index]) != folded[index] { return false }
        return true
    }
}

extension String {
    /// Calls `body` with the text's UTF-8 bytes: in place when they are
    /// stored contiguously (a native string), else from a copy. A loop over
    /// the buffer is several times faster than one over `utf8`, which
    /// checks for other storage at every byte; listings and exports scan
    /// every cell and value.
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}
