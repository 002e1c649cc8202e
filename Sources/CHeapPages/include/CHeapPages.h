// The C library's heap in 2 MB pages (Linux, glibc): what glibc's
// `glibc.malloc.hugetlb=1` tunable does, which only the GLIBC_TUNABLES
// environment variable can ask for, before the process starts.
// docs/PERFORMANCE.md says what it changes and why.
#ifndef TICK_CHEAPPAGES_H
#define TICK_CHEAPPAGES_H

/// Asks for the heap in 2 MB pages: lets each heap grow in steps of 8 MB
/// (`M_TOP_PAD`), grows the main thread's heap by a step at once and marks
/// it for huge pages (`MADV_HUGEPAGE`). Does nothing where the kernel's
/// transparent huge pages are off, or on another system than Linux with
/// glibc. Call it once, first thing in `main`, before any other thread
/// allocates; it returns whether huge pages were asked for.
int tick_heap_pages_start(void);

/// Marks the heap of the calling thread's malloc arena for huge pages, the
/// first time a thread calls it (later calls cost a thread-local read);
/// on the main thread, the part its heap grew since it was last marked.
/// Call it where a thread begins work that allocates (each parallel work
/// item, each queued job). Does nothing unless `tick_heap_pages_start`
/// asked for huge pages.
void tick_heap_pages_enter_thread(void);

#endif
