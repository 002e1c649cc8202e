// The heap in 2 MB pages. Written in C: Swift has no thread-local
// variables, and what is asked of the allocator here (mallopt, sbrk) is C's.
//
// Why: a warm listing of 5,000 notes touches some 3,000 fresh 4 KB pages of
// heap, and in this VM each first touch is a page fault of 1.3-3 us; freeing
// them at exit costs again. In 2 MB pages the same memory takes a fault per
// 2 MB. glibc does this itself with `glibc.malloc.hugetlb=1`, but that is
// read only from the environment when the process starts.
//
// How: glibc's main arena is the `brk` heap; every other arena lives in
// heaps of HEAP_MAX_SIZE (64 MB on 64-bit), each aligned to that size, made
// read-write as they grow (`heap_for_ptr` in glibc's arena.c). A heap marked
// MADV_HUGEPAGE while still mostly untouched is faulted in 2 MB at a time.
// Nothing here is needed for correctness: if a guess about the layout were
// wrong, the advice would land on other memory, where it only changes how
// that memory is paged.
#include "CSystemCalls.h"

#include <stdlib.h> // defines __GLIBC__ with glibc

#if defined(__linux__) && defined(__GLIBC__)
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const uintptr_t hugePage = (uintptr_t)2 << 20;
/// glibc's HEAP_MAX_SIZE on 64-bit: the size and alignment of a thread arena's heap.
static const uintptr_t threadHeapSize = (uintptr_t)64 << 20;
/// How far a heap grows at a time (glibc's default, 128 KB, is a few pages:
/// too small a step for a huge page). Each arena keeps up to this much free
/// memory at its top: with 32 MB a word query at 50,000 notes peaked at
/// 210 MB, with 8 MB at 121 MB.
static const size_t growthStep = (size_t)8 << 20;
/// A block small enough to come from an arena (glibc's mmap threshold,
/// fixed at 128 KB once M_TOP_PAD is set), too large for its per-thread
/// cache or fast bins: malloc takes it from the calling thread's arena.
static const size_t probeSize = 4096;

/// Set last by `tick_heap_pages_start` (release), read first by every
/// thread (acquire): `mainThread` and `mainHeapMarkedEnd` are written before
/// it. (A test starts it while other threads may already be at work.)
static atomic_int enabled;
static pthread_t mainThread;
/// The end of the main heap's part marked so far (main thread only).
static uintptr_t mainHeapMarkedEnd;

static uintptr_t alignDown(uintptr_t address) { return address & ~(hugePage - 1); }

/// Whether transparent huge pages may be asked for: the kernel's setting is
/// `always` or `madvise` (not `never`, and not missing).
static int kernelOffersHugePages(void) {
    int file = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
    if (file < 0) return 0;
    char setting[128];
    ssize_t length = read(file, setting, sizeof setting - 1);
    close(file);
    if (length <= 0) return 0;
    setting[length] = 0;
    return strstr(setting, "[always]") != NULL || strstr(setting, "[madvise]") != NULL;
}

/// Marks [start, end) of the main heap (from the huge page it begins in).
static void markMainHeap(uintptr_t start, uintptr_t end) {
    uintptr_t first = alignDown(start);
    if (end > first) madvise((void *)first, end - first, MADV_HUGEPAGE);
}

int tick_heap_pages_start(void) {
    if (atomic_load_explicit(&enabled, memory_order_acquire)) return 1;
    if (!kernelOffersHugePages() || mallopt(M_TOP_PAD, (int)growthStep) == 0) return 0;
    mainThread = pthread_self();
    // The main heap grows now, by a step: blocks are taken until it does.
    uintptr_t before = (uintptr_t)sbrk(0);
    void *blocks[64];
    int count = 0;
    while ((uintptr_t)sbrk(0) == before && count < 64) {
        void *block = malloc(60 << 10);
        if (block == NULL) break;
        blocks[count++] = block;
    }
    mainHeapMarkedEnd = (uintptr_t)sbrk(0);
    for (int index = 0; index < count; index++) free(blocks[index]);
    if (mainHeapMarkedEnd > before) markMainHeap(before, mainHeapMarkedEnd);
    atomic_store_explicit(&enabled, 1, memory_order_release);
    return 1;
}

void tick_heap_pages_enter_thread(void) {
    static _Thread_local int marked;
    if (!atomic_load_explicit(&enabled, memory_order_acquire)) return;
    if (pthread_equal(pthread_self(), mainThread)) {
        // The main heap grows by `brk`, each step a new mapping to mark.
        uintptr_t end = (uintptr_t)sbrk(0);
        if (end > mainHeapMarkedEnd) {
            markMainHeap(mainHeapMarkedEnd, end);
            mainHeapMarkedEnd = end;
        }
        return;
    }
    if (marked) return;
    marked = 1;
    void *probe = malloc(probeSize);
    if (probe == NULL) return;
    uintptr_t address = (uintptr_t)probe;
    // Below the break: the thread shares the main arena (when there are
    // more threads than arenas), whose heap is marked on the main thread.
    // (The mmap area, where the other heaps lie, is above it.)
    if (address >= (uintptr_t)sbrk(0)) {
        // The whole heap, grown or not: growing keeps the mark. (Its first
        // huge page, which the arena's first blocks already touched, keeps
        // its small pages: made whole again with MADV_COLLAPSE, it cost
        // about as much as it saved, timed in turn, and 2 MB a thread.)
        uintptr_t heap = address & ~(threadHeapSize - 1);
        madvise((void *)heap, threadHeapSize, MADV_HUGEPAGE);
    }
    free(probe);
}

#else

int tick_heap_pages_start(void) { return 0; }
void tick_heap_pages_enter_thread(void) {}

#endif
