#ifndef HEALTHVAULT_CSQLCIPHER_SHIM_H
#define HEALTHVAULT_CSQLCIPHER_SHIM_H
// SQLCipher's own sqlite3.h, never the system's plain SQLite header; SQLITE_HAS_CODEC exposes
// sqlite3_key and sqlite3_rekey.
#define SQLITE_HAS_CODEC 1
#include <sqlcipher/sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline void (*healthvault_sqlite_transient(void))(void *) { return SQLITE_TRANSIENT; }
#endif
