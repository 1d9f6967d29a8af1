#ifndef HEALTHVAULT_CLINUX_SHIM_H
#define HEALTHVAULT_CLINUX_SHIM_H
// Linux calls Swift cannot make directly (prctl is variadic), wrapped with fixed arguments.
#include <sys/prctl.h>

/// PR_SET_DUMPABLE: 0 forbids core files, and opening /proc/PID/mem or ptrace by other processes
/// of the same user.
static inline int healthvault_set_dumpable(int dumpable) {
    return prctl(PR_SET_DUMPABLE, (unsigned long)dumpable, 0UL, 0UL, 0UL);
}

static inline int healthvault_dumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0UL, 0UL, 0UL, 0UL);
}
#endif
