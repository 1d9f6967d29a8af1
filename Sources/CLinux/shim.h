#ifndef HEALTHVAULT_CLINUX_SHIM_H
#define HEALTHVAULT_CLINUX_SHIM_H
// Linux calls Swift cannot make directly (prctl is variadic), wrapped with fixed arguments, and
// stat(2) without its struct.
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

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
static inline int healthvault_mode_kind(mode_t mode) {
    switch (mode & S_IFMT) {
    case S_IFREG: return 1;
    case S_IFDIR: return 2;
    case S_IFIFO: return 3;
    case S_IFCHR: return 4;
    case S_IFBLK: return 5;
    case S_IFSOCK: return 6;
    default: return 7;
    }
}

static inline int healthvault_file_kind(const char *path, long long *size) {
    struct stat info;
    if (stat(path, &info) != 0) return 0;
    *size = (long long)info.st_size;
    return healthvault_mode_kind(info.st_mode);
}

/// Opens `path` for reading without waiting (O_NONBLOCK: a named pipe put there since it was
/// examined does not wait for a writer), then examines what was opened with fstat(2): a regular
/// file's descriptor is returned, blocking again, with its size in `size` and 1 in `kind`; for
/// anything else the descriptor is closed, `kind` says what it was (as healthvault_file_kind) and
/// -1 is returned with errno 0. -1 with errno set when it cannot be opened.
static inline int healthvault_open_regular(const char *path, long long *size, int *kind) {
    int descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (descriptor < 0) return -1;
    struct stat info;
    if (fstat(descriptor, &info) != 0) {
        int saved = errno;
        close(descriptor);
        errno = saved;
        return -1;
    }
    *kind = healthvault_mode_kind(info.st_mode);
    *size = (long long)info.st_size;
    if (*kind != 1) {
        close(descriptor);
        errno = 0;
        return -1;
    }
    int flags = fcntl(descriptor, F_GETFL);
    if (flags >= 0) fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK);
    return descriptor;
}
#endif
