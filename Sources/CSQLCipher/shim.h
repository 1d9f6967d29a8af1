#ifndef HEALTHVAULT_CSQLCIPHER_SHIM_H
#define HEALTHVAULT_CSQLCIPHER_SHIM_H
// SQLCipher's own sqlite3.h, never the system's plain SQLite header; SQLITE_HAS_CODEC exposes
// sqlite3_key and sqlite3_rekey.
#define SQLITE_HAS_CODEC 1
#include <sqlcipher/sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline void (*healthvault_sqlite_transient(void))(void *) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic, which Swift cannot call: closing this connection must never
// checkpoint the WAL into the database (a failed open leaves every file as it was).
static inline int healthvault_no_checkpoint_on_close(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}
#endif
