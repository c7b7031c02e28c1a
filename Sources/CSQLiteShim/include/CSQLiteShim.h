// Non-variadic wrappers of the system SQLite's variadic calls, which Swift
// cannot make.

#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#ifdef __cplusplus
extern "C" {
#endif

/// Turns off SQLite's memory statistics (`SQLITE_CONFIG_MEMSTATUS`), which
/// take a process-wide mutex at every allocation SQLite makes. Only takes
/// effect before SQLite's first use in the process; returns SQLite's result
/// code (`SQLITE_MISUSE` after that).
int csqlite_disable_memory_statistics(void);

#ifdef __cplusplus
}
#endif

#endif
