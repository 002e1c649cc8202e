/// A growable buffer of output bytes, for writing JSON piece by piece.
///
/// Written by hand because a query prints tens of thousands of items, each
/// of some hundred small pieces (a comma, six spaces, a key, a value), and
/// `[UInt8].append` checks uniqueness and capacity on every call; here a
/// piece is reserved once and copied. The memory is freed with the value,
/// unless `release()` hands it over.
public struct ByteOutput: ~Copyable {
    // Usable from inline: the appends below are inlined into the writers
    // of the modules above (a call per byte written was a fifth of a query's time).
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    /// How many bytes are written.
    @usableFromInline package internal(set) var count = 0
    @usableFromInline var capacity: Int

    package init(capacity: Int = 4096) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    /// An empty buffer in memory that `release()` handed over before, so
    /// that writing into it touches no fresh pages.
    package init(reusing storage: Storage) {
        base = storage.base
        capacity = storage.capacity
    }

    deinit { base.deallocate() }

    /// Makes room for `extra` more bytes.
    @inlinable @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    @usableFromInline mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inlinable @inline(__always)
    package mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inlinable
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Inlined whole: with a literal, the length is a constant and the
    /// copy a few moves (a call for each property name was a twentieth of
    /// an iCalendar export).
    @inlinable @inline(__always)
    package mutating func append(_ text: StaticString) {
        guard text.hasPointerRepresentation else { return text.withUTF8Buffer { append($0) } }
        let length = text.utf8CodeUnitCount
        reserve(length)
        (base + count).update(from: text.utf8Start, count: length)
        count += length
    }

    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends the first `count` (at most 32) of the 32 bytes at `source`,
    /// all of which must be readable: two 16-byte copies, no call.
    @inlinable @inline(__always)
    package mutating func appendShort(_ source: UnsafeRawPointer, count bytes: Int) {
        reserve(32)
        let destination = UnsafeMutableRawPointer(base + count)
        destination.storeBytes(of: source.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
        (destination + 16).storeBytes(of: (source + 16).loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
        count += bytes
    }

    /// Appends the low `digits` (1 to 16) hex digits of `value`,
    /// lowercase, the first digit first (`String(value, radix: 16)`
    /// zero-padded, without a `String`). All sixteen are worked out at
    /// once, eight to a word, with no branch: a digit at a time, whether a
    /// digit is a letter was a branch the processor guessed wrong about
    /// once in three digits (a twentieth of an iCalendar export, whose
    /// every UID is sixteen digits); a table in a `static let` cost a
    /// `swift_once` call a digit.
    package mutating func appendHex(_ value: UInt64, digits: Int) {
        precondition((1...16).contains(digits), "1 to 16 hex digits")
        /// The eight digits of `half`, the first in the word's highest byte.
        func spelled(_ half: UInt64) -> UInt64 {
            // Each nibble spread into a byte of its own, in order.
            var nibbles = (half | half << 16) & 0x0000_FFFF_0000_FFFF
            nibbles = (nibbles | nibbles << 8) & 0x00FF_00FF_00FF_00FF
            nibbles = (nibbles | nibbles << 4) & 0x0F0F_0F0F_0F0F_0F0F
            // 1 in each byte whose nibble is 10 or more: 'a' lies 39 past '9' + 1.
            let letters = (nibbles &+ 0x0606_0606_0606_0606) >> 4 & 0x0101_0101_0101_0101
            return nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 39
        }
        reserve(16)
        let destination = UnsafeMutableRawPointer(base + count)
        destination.storeBytes(of: spelled(value >> 32).bigEndian, as: UInt64.self)
        (destination + 8).storeBytes(of: spelled(value & 0xFFFF_FFFF).bigEndian, as: UInt64.self)
        if digits < 16 { destination.copyMemory(from: destination + (16 - digits), byteCount: digits) }
        count += digits
    }

    /// Appends a number in decimal (`String(value)` would allocate for
    /// every number printed; `DecimalDigits` writes the digits).
    package mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        let digits = DecimalDigits.count(value.magnitude)
        reserve(digits)
        DecimalDigits.write(value.magnitude, to: base + count, count: digits)
        count += digits
    }

    /// Appends a number that has at most five decimals (an urgency) as
    /// `String(value)` writes it (`12.7`, `11.0`, `-1.8`, `8.34286`),
    /// without `String`'s general conversion for every item of a query.
    package mutating func appendFiveDecimals(_ value: Double) {
        let scaled = Int((value * 100_000).rounded())
        guard value.isFinite, abs(scaled) < 1 << 50 else {
            append(Array(String(value).utf8))
            return
        }
        if scaled < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(Int(scaled.magnitude / 100_000))
        append(UInt8(ascii: "."))
        var fraction = Int(scaled.magnitude % 100_000)
        var digits = 5
        while digits > 1, fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        var divisor = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            append(UInt8(0x30 + fraction / divisor % 10))
            divisor /= 10
        }
    }

    /// Appends `count` copies of `byte`.
    package mutating func append(_ byte: UInt8, count repeats: Int) {
        guard repeats > 0 else { return }
        reserve(repeats)
        (base + count).initialize(repeating: byte, count: repeats)
        count += repeats
    }

    /// The bytes written so far.
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Calls `body` with the bytes written so far, where they lie.
    package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Forgets the bytes written after the first `kept`, keeping the memory.
    package mutating func removeAll(after kept: Int) {
        precondition(kept >= 0 && kept <= count, "kept bytes out of range")
        count = kept
    }

    /// Memory handed over by `release()`: `count` bytes written, room for
    /// `capacity`. Give it back to `init(reusing:)` or `deallocate()` it.
    package struct Storage: @unchecked Sendable {
        // Sendable: owned by whoever holds it, one at a time.
        let base: UnsafeMutablePointer<UInt8>
        let count: Int
        let capacity: Int

        package var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }
        /// The bytes written, as memory the holder now owns (deallocated through its base address).
        package var allocation: UnsafeMutableBufferPointer<UInt8> { UnsafeMutableBufferPointer(start: base, count: count) }
        package func deallocate() { base.deallocate() }
    }

    /// Hands over the memory: the caller must deallocate it, or reuse it.
    package consuming func release() -> Storage {
        let result = Storage(base: base, count: count, capacity: capacity)
        discard self
        return result
    }
}

/// The decimal digits of a number, written into memory a caller has made
/// room in (`ByteOutput.appendDecimal`, the relative dates' words): worked
/// out last first, each a division by the constant 10 (a multiplication).
/// (Finding the first digit's power of ten first took a division by a
/// variable, a slow instruction, for every digit.)
package enum DecimalDigits {
    /// How many digits `value` has (1 for 0).
    package static func count(_ value: UInt) -> Int {
        var digits = 1
        var power: UInt = 10
        while digits < 20, value >= power {
            digits += 1
            power = power &* 10
        }
        return digits
    }

    /// Writes the `digits` (`count(value)`) digits of `value` into the
    /// uninitialized bytes at `start`.
    package static func write(_ value: UInt, to start: UnsafeMutablePointer<UInt8>, count digits: Int) {
        var rest = value
        var position = start + digits
        repeat {
            position -= 1
            position.initialize(to: UInt8(truncatingIfNeeded: 0x30 + rest % 10))
            rest /= 10
        } while rest > 0
    }
}
