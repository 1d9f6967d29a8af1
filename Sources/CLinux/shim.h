#ifndef HEALTHVAULT_CLINUX_SHIM_H
#define HEALTHVAULT_CLINUX_SHIM_H
// Linux calls Swift cannot make directly (prctl is variadic), wrapped with fixed arguments.
#include <malloc.h>
#include <sys/prctl.h>

/// PR_SET_DUMPABLE: 0 forbids core files, and opening /proc/PID/mem or ptrace by other processes
/// of the same user.
static inline int healthvault_set_dumpable(int dumpable) {
    return prctl(PR_SET_DUMPABLE, (unsigned long)dumpable, 0UL, 0UL, 0UL);
}

static inline int healthvault_dumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0UL, 0UL, 0UL, 0UL);
}

/// glibc's allocator: at most `arenas` heaps however many threads allocate, allocations of
/// `mmap_threshold` bytes or more in their own mappings, returned to the system when freed (a fixed
/// threshold: glibc otherwise raises it as large blocks are freed, and keeps them in the heap), and
/// a heap's free top returned to the system beyond `trim_threshold` bytes. Returns 1 when all three
/// were set.
static inline int healthvault_tune_heap(int arenas, int mmap_threshold, int trim_threshold) {
    return mallopt(M_ARENA_MAX, arenas) == 1 && mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1
        && mallopt(M_TRIM_THRESHOLD, trim_threshold) == 1;
}
#endif
