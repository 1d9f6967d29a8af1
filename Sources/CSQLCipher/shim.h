#ifndef HEALTHVAULT_CSQLCIPHER_SHIM_H
#define HEALTHVAULT_CSQLCIPHER_SHIM_H
// SQLCipher's own sqlite3.h, never the system's plain SQLite header; SQLITE_HAS_CODEC exposes
// sqlite3_key and sqlite3_rekey.
#define SQLITE_HAS_CODEC 1
#include <sqlcipher/sqlite3.h>
#include <fcntl.h>
#include <unistd.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline void (*healthvault_sqlite_transient(void))(void *) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic, which Swift cannot call: closing this connection must never
// checkpoint the WAL into the database (a failed open leaves every file as it was).
static inline int healthvault_no_checkpoint_on_close(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}
#include <string.h>

// Statistics intervals, for SQL (docs/STATISTICS.md). `boundaries` is a blob of n >= 2 native
// doubles in increasing order: interval i is [b[i], b[i+1]).
//
// hv_interval(boundaries, t, closing): the interval holding the instant t (closing = 0), or the
// one whose end t may be, [b[i] < t <= b[i+1]] (closing = 1, for a sample's end date). -1 before
// the first boundary, n - 1 past the last one, NULL for a malformed call.
static inline void healthvault_interval(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    const unsigned char *blob = (const unsigned char *)sqlite3_value_blob(argv[0]);
    int bytes = sqlite3_value_bytes(argv[0]);
    if (blob == 0 || bytes < 2 * (int)sizeof(double) || bytes % (int)sizeof(double) != 0
        || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(context);
        return;
    }
    int n = bytes / (int)sizeof(double);
    double t = sqlite3_value_double(argv[1]);
    int closing = sqlite3_value_int(argv[2]);
    // The number of boundaries b with b <= t (b < t when closing), minus one.
    int low = 0, high = n;
    while (low < high) {
        int middle = low + (high - low) / 2;
        double b;
        memcpy(&b, blob + (size_t)middle * sizeof(double), sizeof(double));
        if (closing ? b < t : b <= t) low = middle + 1; else high = middle;
    }
    sqlite3_result_int(context, low - 1);
}

// hv_boundary(boundaries, i): b[i], or NULL outside the blob.
static inline void healthvault_boundary(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    const unsigned char *blob = (const unsigned char *)sqlite3_value_blob(argv[0]);
    int bytes = sqlite3_value_bytes(argv[0]);
    sqlite3_int64 i = sqlite3_value_int64(argv[1]);
    if (blob == 0 || i < 0 || i >= bytes / (sqlite3_int64)sizeof(double)) {
        sqlite3_result_null(context);
        return;
    }
    double b;
    memcpy(&b, blob + (size_t)i * sizeof(double), sizeof(double));
    sqlite3_result_double(context, b);
}

static inline int healthvault_register_functions(sqlite3 *db) {
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    int code = sqlite3_create_function_v2(db, "hv_interval", 3, flags, 0, healthvault_interval, 0, 0, 0);
    if (code != SQLITE_OK) return code;
    return sqlite3_create_function_v2(db, "hv_boundary", 2, flags, 0, healthvault_boundary, 0, 0, 0);
}
/// Whether another process has the database whose wal-index is `shm_path` open: SQLite's unix
/// VFS holds a read lock on the wal-index's "dead man switch" byte (offset 128) for as long as a
/// connection has it open, and the first connection to open it, finding no such lock, rebuilds
/// the wal-index from the log (recovery). 1 when a lock of another process is there, 0 when none
/// (or there is no such file).
static inline int healthvault_shm_in_use(const char *shm_path) {
    int fd = open(shm_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    struct flock lock;
    memset(&lock, 0, sizeof lock);
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    lock.l_start = 128;
    lock.l_len = 1;
    int in_use = fcntl(fd, F_GETLK, &lock) == 0 && lock.l_type != F_UNLCK;
    close(fd);
    return in_use;
}

#endif
