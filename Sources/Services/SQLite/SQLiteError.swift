import CSQLite

/// A failed SQLite call: its result code, SQLite's message and the statement
/// that failed.
///
/// The parameters bound to the statement are never part of the error: they may
/// hold the user's data, and errors end up in logs.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_BUSY_SNAPSHOT`, …).
  public let extendedCode: Int32
  /// SQLite's message (`sqlite3_errmsg`), or ours for a misuse this wrapper detects.
  public let message: String
  /// The SQL text that failed; nil when no statement was involved (opening a file).
  public let sql: String?

  /// An error with the given (primary or extended) result code.
  public init(code: Int32, message: String, sql: String? = nil) {
    self.extendedCode = code
    self.message = message
    self.sql = sql
  }

  /// The primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, …): the low
  /// eight bits of `extendedCode`.
  public var code: Int32 { extendedCode & 0xFF }

  /// Another connection holds the lock the call needed (`SQLITE_BUSY`, or
  /// `SQLITE_LOCKED` within one process) even after the busy timeout.
  public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

  /// The disk (or the file's size limit) is full: nothing of the failed write was kept.
  public var isFull: Bool { code == SQLITE_FULL }

  /// A UNIQUE, NOT NULL, CHECK, FOREIGN KEY or PRIMARY KEY constraint failed.
  public var isConstraint: Bool { code == SQLITE_CONSTRAINT }

  public var description: String {
    let name = String(cString: sqlite3_errstr(extendedCode))
    var text = "SQLite error \(extendedCode) (\(name)): \(message)"
    if let sql {
      text += " [SQL: \(sql)]"
    }
    return text
  }
}

extension SQLiteError {
  /// Throws the connection's current error unless `resultCode` is `SQLITE_OK`.
  ///
  /// Call it right after the failing call, on the connection's thread: SQLite
  /// keeps one error message per connection.
  static func check(_ resultCode: Int32, _ connection: OpaquePointer?, sql: String?) throws {
    guard resultCode != SQLITE_OK else { return }
    throw SQLiteError(resultCode, connection, sql: sql)
  }

  /// The error for `resultCode`, with the connection's message.
  init(_ resultCode: Int32, _ connection: OpaquePointer?, sql: String?) {
    let message: String
    if let connection, let text = sqlite3_errmsg(connection) {
      message = String(cString: text)
    } else {
      message = String(cString: sqlite3_errstr(resultCode))
    }
    self.init(code: resultCode, message: message, sql: sql)
  }

  /// A misuse of this wrapper (a wrong bind, a missing column), `SQLITE_MISUSE`
  /// or the given code.
  static func misuse(_ message: String, sql: String?, code: Int32 = SQLITE_MISUSE) -> SQLiteError {
    SQLiteError(code: code, message: message, sql: sql)
  }
}
