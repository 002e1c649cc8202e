import CPrefetch

/// Asks the processor to start loading memory that will be read soon
/// (the cache line holding an address), so that a loop over scattered
/// records waits for several at once rather than for each in turn.
///
/// Guarantees: a hint only. It never faults, reads nothing a caller can
/// see and changes no result, at any address (nil included); it changes
/// only how soon a later load is answered.
///
/// A public type with package members, `@inlinable`: Swift 6.3 inlines
/// those of a public type into other modules (a call for each hint would
/// cost about what the hint saves).
public enum Prefetch {
    /// Starts loading the cache line that holds `address`.
    @inlinable @inline(__always)
    package static func line(at address: UnsafeRawPointer?) {
        guard let address else { return }
        tick_prefetch(address)
    }

    /// Starts loading the first `lines` cache lines of the object whose
    /// reference lies at `reference` (its header, with its reference
    /// count, and its first fields): a loop over thousands of objects
    /// scattered in memory asks for one several steps ahead, and waits for
    /// several at once rather than for each. The reference is read as an
    /// address: a reference read as one may be retained and released,
    /// which reads the object at once.
    @inlinable @inline(__always)
    package static func object(referencedAt reference: UnsafeRawPointer, lines: Int = 4) {
        object(at: reference.load(as: UnsafeRawPointer.self), lines: lines)
    }

    /// Starts loading the first `lines` cache lines of the object at `start`.
    @inlinable @inline(__always)
    package static func object(at start: UnsafeRawPointer, lines: Int = 4) {
        for line in 0..<lines { tick_prefetch(start + line * 64) }
    }
}
