/// FNV-1a, 64 bits: a short stable name for a path or an item (not a
/// protection against anyone choosing collisions).
package enum FNV1a {
    package static func hash(_ text: String) -> UInt64 { text.withUTF8Bytes { hash($0) } }

    package static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hasher = Hasher()
        for byte in bytes { hasher.combine(byte) }
        return hasher.value
    }

    /// A hash fed piece by piece: the same value as `hash` of the pieces
    /// joined, without joining them.
    package struct Hasher {
        package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

        package init() {}

        // Not generic: a generic function called from another module runs
        // unspecialized, an iterator call and a copy per byte.
        package mutating func combine(_ bytes: UnsafeBufferPointer<UInt8>) {
            for byte in bytes { combine(byte) }
        }

        package mutating func combine(_ text: String) {
            text.withUTF8Bytes { combine($0) }
        }

        package mutating func combine(_ byte: UInt8) {
            value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
        }
    }
}
