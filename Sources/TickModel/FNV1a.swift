/// FNV-1a, 64 bits: a short stable name for a path or an item (not a
/// protection against anyone choosing collisions).
package enum FNV1a {
    package static func hash(_ text: String) -> UInt64 { text.withUTF8Bytes { hash($0) } }

    package static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
