/// Tests of the eight bytes of a 64-bit word at once, for scans that look
/// for a few byte values eight bytes at a time ("Bit Twiddling Hacks":
/// `haszero`, `hasless`, `hasmore`). Each returns a mask that is nonzero exactly when
/// some byte of the word passes the test; which byte, a caller finds byte
/// by byte (a borrow may also mark a byte after one that passes). Masks
/// are combined with `|` so that one branch tests several values.
///
/// A public type with package members: Swift 6.3 inlines the `@inlinable`
/// members of a public type into other modules, but not those of a
/// `package` type (they were a call per test, six per word in the
/// iCalendar export's scan).
public enum WordBytes {
    /// Nonzero when some byte of `word` is zero.
    @inlinable @inline(__always)
    package static func zero(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// Nonzero when some byte of `word` equals `byte`.
    @inlinable @inline(__always)
    package static func equal(_ byte: UInt8, _ word: UInt64) -> UInt64 {
        zero(word ^ (0x0101_0101_0101_0101 &* UInt64(byte)))
    }

    /// Nonzero when some byte of `word` is below `limit` (at most 0x80).
    @inlinable @inline(__always)
    package static func below(_ limit: UInt8, _ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101 &* UInt64(limit)) & ~word & 0x8080_8080_8080_8080
    }

    /// Nonzero when some byte of `word` is above `limit` (at most 0x7F).
    @inlinable @inline(__always)
    package static func above(_ limit: UInt8, _ word: UInt64) -> UInt64 {
        ((word &+ 0x0101_0101_0101_0101 &* UInt64(0x7F - limit)) | word) & 0x8080_8080_8080_8080
    }

    /// Nonzero when some byte of `word` has its high bit set (is not ASCII).
    @inlinable @inline(__always)
    package static func highBit(_ word: UInt64) -> UInt64 { word & 0x8080_8080_8080_8080 }
}
