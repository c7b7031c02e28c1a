#include "CSQLiteShim.h"

#include <sqlite3.h>

int csqlite_disable_memory_statistics(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

void csqlite_read_columns(sqlite3_stmt *statement, int32_t count, csqlite_column *columns) {
  for (int32_t index = 0; index < count; index++) {
    csqlite_column *column = &columns[index];
    // One call into the statement for the column's value, then the value's
    // cheap readers: each `sqlite3_column_*` call looks the column up again.
    // The value is "unprotected" (SQLite's term): safe where one thread uses
    // the connection, as here.
    sqlite3_value *value = sqlite3_column_value(statement, index);
    column->type = sqlite3_value_type(value);
    switch (column->type) {
    case SQLITE_INTEGER:
      column->integer = sqlite3_value_int64(value);
      break;
    case SQLITE_FLOAT:
      column->real = sqlite3_value_double(value);
      break;
    case SQLITE_TEXT:
      // The pointer first, then the size (the order SQLite documents).
      column->bytes = sqlite3_value_text(value);
      column->length = sqlite3_value_bytes(value);
      break;
    case SQLITE_BLOB:
      column->bytes = sqlite3_value_blob(value);
      column->length = sqlite3_value_bytes(value);
      break;
    default:
      break;
    }
  }
}
