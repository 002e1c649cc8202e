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
}
