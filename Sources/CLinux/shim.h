#ifndef HEALTHVAULT_CLINUX_SHIM_H
#define HEALTHVAULT_CLINUX_SHIM_H
// Linux calls Swift cannot make directly (prctl is variadic), wrapped with fixed arguments, and
// stat(2) without its struct.
#include <malloc.h>
#include <sys/prctl.h>
#include <sys/stat.h>

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

/// What `path` names, by stat(2) (a symbolic link followed), never opening it: 1 a regular file
/// (its size in `size`), 2 a folder, 3 a named pipe, 4 a character device, 5 a block device, 6 a
/// socket, 7 anything else; 0 when nothing is there or it cannot be examined. (Swift reaches
/// `struct stat`'s members through whichever module its build saw declare it first.)
static inline int healthvault_file_kind(const char *path, long long *size) {
    struct stat info;
    if (stat(path, &info) != 0) return 0;
    *size = (long long)info.st_size;
    switch (info.st_mode & S_IFMT) {
    case S_IFREG: return 1;
    case S_IFDIR: return 2;
    case S_IFIFO: return 3;
    case S_IFCHR: return 4;
    case S_IFBLK: return 5;
    case S_IFSOCK: return 6;
    default: return 7;
    }
}
#endif
