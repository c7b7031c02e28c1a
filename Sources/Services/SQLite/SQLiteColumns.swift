import CSQLite
import CSQLiteShim

/// The columns of a statement's current row, read from SQLite in one call
/// (`SQLiteStatement.withColumns`), for rows read many at a time: read one
/// at a time, each column costs two to three calls into SQLite that each
/// look it up again, and a check of its index. Reads check the index and the
/// storage class as the statement's own reads do, with the same errors;
/// valid only during `withColumns`.
public struct SQLiteColumns {
  private let columns: UnsafeBufferPointer<csqlite_column>
  /// The statement on the row, for errors. It outlives `withColumns`, so it
  /// is not counted: a reference counted at each read cost more than the read.
  private unowned(unsafe) let statement: SQLiteStatement

  init(_ columns: UnsafeBufferPointer<csqlite_column>, of statement: SQLiteStatement) {
    self.columns = columns
    self.statement = statement
  }

  /// The column at `index`, its storage class checked against `accepted`
  /// and `alsoAccepted`.
  private func column(
    _ index: Int, accepting accepted: Int32, or alsoAccepted: Int32? = nil, as wanted: String
  ) throws -> csqlite_column {
    guard index >= 0, index < columns.count else {
      throw SQLiteError.misuse(
        "column index \(index) is out of range 0..<\(columns.count)", sql: statement.sql,
        code: SQLITE_RANGE)
    }
    let column = columns[index]
    guard column.type == accepted || column.type == alsoAccepted else {
      throw statement.mismatch(index, holds: column.type, wanted: wanted)
    }
    return column
  }

  /// The column's INTEGER value.
  public func int64(_ index: Int) throws -> Int64 {
    try column(index, accepting: SQLITE_INTEGER, as: "INTEGER").integer
  }

  /// The column's INTEGER value, or nil when it is NULL.
  public func nullableInt64(_ index: Int) throws -> Int64? {
    let column = try column(index, accepting: SQLITE_INTEGER, or: SQLITE_NULL, as: "INTEGER")
    return column.type == SQLITE_NULL ? nil : column.integer
  }

  /// The column's TEXT value.
  public func text(_ index: Int) throws -> String {
    String(decoding: try textBytes(index), as: UTF8.self)
  }

  /// The bytes of the column's TEXT value (UTF-8, as stored: not checked),
  /// valid only during `withColumns`.
  public func textBytes(_ index: Int) throws -> UnsafeBufferPointer<UInt8> {
    Self.bytes(of: try column(index, accepting: SQLITE_TEXT, as: "TEXT"))
  }

  /// `textBytes`, or nil when the column is NULL.
  public func nullableTextBytes(_ index: Int) throws -> UnsafeBufferPointer<UInt8>? {
    let column = try column(index, accepting: SQLITE_TEXT, or: SQLITE_NULL, as: "TEXT")
    return column.type == SQLITE_NULL ? nil : Self.bytes(of: column)
  }

  private static func bytes(of column: csqlite_column) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(
      start: column.bytes?.assumingMemoryBound(to: UInt8.self), count: Int(column.length))
  }
}

@available(*, unavailable, message: "a row belongs to the connection's one thread")
extension SQLiteColumns: Sendable {}
