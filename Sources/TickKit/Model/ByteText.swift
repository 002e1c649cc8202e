
/// Byte-wise tests and comparisons of UTF-8 text, for the hot paths that
/// sort or check thousands of names on every query.
///
/// For ASCII text, `compare` orders exactly as `String`'s `<` does (both
/// compare by code point, and ASCII needs no normalisation), so callers use
/// it only after `isASCII` holds for both sides.
enum ByteText {
    /// True when every byte is below 0x80; eight bytes at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }

    /// Negative, zero or positive as `left` sorts before, with or after
    /// `right`, byte by byte (a prefix sorts first).
    static func compare(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        let length = min(left.count, right.count)
        if length > 0 {
            let common = Posix.compareBytes(left.baseAddress!, right.baseAddress!, length)
            if common != 0 { return Int(common) }
        }
        return left.count - right.count
    }
}
