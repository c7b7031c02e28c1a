// Non-variadic wrappers of the system SQLite's variadic calls, which Swift
// cannot make, and a row's columns read in one call.

#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sqlite3_stmt;

/// Turns off SQLite's memory statistics (`SQLITE_CONFIG_MEMSTATUS`), which
/// take a process-wide mutex at every allocation SQLite makes. Only takes
/// effect before SQLite's first use in the process; returns SQLite's result
/// code (`SQLITE_MISUSE` after that).
int csqlite_disable_memory_statistics(void);

/// One column of a statement's current row as SQLite holds it: `type` is
/// its storage class (`SQLITE_INTEGER` …) and the member for that class is
/// set: `integer`, `real`, or `bytes` and `length` for TEXT (UTF-8, not
/// terminated) and BLOB. `bytes` stays valid until the statement steps,
/// resets or is finalized.
typedef struct csqlite_column {
  int64_t integer;
  double real;
  const void *bytes;
  int32_t length;
  int32_t type;
} csqlite_column;

/// Reads columns `0..<count` of `statement`'s current row into `columns`,
/// each as it is stored (no conversion). For the connection's one thread
/// only, as every use of the connection is.
void csqlite_read_columns(struct sqlite3_stmt *statement, int32_t count, csqlite_column *columns);

#ifdef __cplusplus
}
#endif

#endif
