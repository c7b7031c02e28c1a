/// How `BEGIN` takes its locks.
public enum SQLiteTransactionKind: String, Sendable {
  /// Takes the read lock at the first read and the write lock at the first write
  /// (which may then fail with `SQLITE_BUSY`): for reads.
  case deferred = "DEFERRED"
  /// Takes the write lock at once, waiting up to the busy timeout: for writes.
  case immediate = "IMMEDIATE"
  /// As immediate in WAL mode.
  case exclusive = "EXCLUSIVE"
}

extension SQLiteTransactionKind {
  var beginStatement: String {
    switch self {
    case .deferred: "BEGIN DEFERRED"
    case .immediate: "BEGIN IMMEDIATE"
    case .exclusive: "BEGIN EXCLUSIVE"
    }
  }
}
