import CSystemCalls

/// The C library's heap in 2 MB pages where the kernel offers them
/// (`CSystemCalls`; docs/PERFORMANCE.md): fewer page faults, and less to free
/// at exit. Asked for once by the command line, as it starts; then each
/// thread's heap is marked as the thread begins work (`Parallel` does it
/// for every work item, queued jobs for themselves). A process that never
/// asks (the tests, the fuzzers) keeps the C library's defaults, and
/// `enterThread` costs it one flag read.
public enum HeapPages {
    /// Asks for the heap in huge pages; true when they were asked for.
    /// Call it first thing in `main`, before any other thread allocates.
    @discardableResult
    public static func start() -> Bool { tick_heap_pages_start() != 0 }

    /// Marks the calling thread's heap for huge pages, the first time a
    /// thread calls it (the main thread: what its heap grew since).
    @inline(__always)
    package static func enterThread() { tick_heap_pages_enter_thread() }
}
