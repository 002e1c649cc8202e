// The processor's prefetch hint, which Swift has no way to write: a
// request to start loading the cache line that holds an address, for a
// read soon. It never faults and changes nothing a program can see, so it
// is safe at any address; only how soon a later load is answered changes.
#ifndef TICK_CPREFETCH_H
#define TICK_CPREFETCH_H

static inline void tick_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
