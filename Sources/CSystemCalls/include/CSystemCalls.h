// What TickSystem needs of the C library that Swift cannot call itself:
// functions Swift's Glibc module does not declare (GNU extensions, called
// directly: a static executable has no symbols for `dlsym` to find), the
// heap in 2 MB pages, which keeps a flag per thread, a thread started on
// another core (its CPU set is a C macro type), and the spin-wait hint.
#ifndef TICK_CSYSTEMCALLS_H
#define TICK_CSYSTEMCALLS_H

#include <stddef.h>

// MARK: GNU calls (LinuxCalls.c). Where the C library has none, each fails
// with ENOSYS.

/// `renameat2(folder, first, folder, second, RENAME_EXCHANGE)`: swaps the
/// two names atomically; 0, or -1 with errno set.
int tick_exchange_names(int folder, const char *first, const char *second);

/// `flistxattr`, `fgetxattr` and `fsetxattr` of the open file `file`.
long tick_list_attributes(int file, char *names, size_t size);
long tick_get_attribute(int file, const char *name, void *value, size_t size);
int tick_set_attribute(int file, const char *name, const void *value, size_t size);

// MARK: The heap in 2 MB pages (HeapPages.c): what glibc's
// `glibc.malloc.hugetlb=1` tunable does, which only the GLIBC_TUNABLES
// environment variable can ask for, before the process starts.
// docs/PERFORMANCE.md says what it changes and why.

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

// MARK: A thread started elsewhere (ThreadStart.c).

/// Starts a detached thread that calls `body(context)`, on another core
/// than the calling thread's where the process may run on more than one:
/// Linux (in the VM tick is measured in: 20 threads of 20) placed a new
/// thread on its creator's core, where it waited until the creator slept
/// or the scheduler moved one of them (up to 4 ms), though another core
/// was idle. Once running, the thread may run on any core again. 0, or
/// the error `pthread_create` gave.
int tick_thread_start_elsewhere(void (*body)(void *), void *context);

/// Tells the processor the thread is waiting in a loop (`pause` on x86,
/// `yield` on ARM): it spends less of the core, and of a core that shares
/// its execution units, on the wait.
static inline void tick_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

#endif
