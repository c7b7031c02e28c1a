/// The current row of a query, for the `row:` closures of `query` and
/// `queryOne`: column reads only, valid only during the closure.
///
/// Indexes start at 0; names are matched case-insensitively. The reads throw
/// on a wrong index, name or storage class (see `SQLiteStatement`).
public struct SQLiteRow {
  /// The statement positioned on the row.
  private let statement: SQLiteStatement

  init(_ statement: SQLiteStatement) {
    self.statement = statement
  }

  public var columnCount: Int { statement.columnCount }
  public func columnName(at index: Int) throws -> String { try statement.columnName(at: index) }

  public func isNull(_ index: Int) throws -> Bool { try statement.isNull(index) }
  public func int64(_ index: Int) throws -> Int64 { try statement.int64(index) }
  public func int(_ index: Int) throws -> Int { try statement.int(index) }
  public func bool(_ index: Int) throws -> Bool { try statement.bool(index) }
  public func double(_ index: Int) throws -> Double { try statement.double(index) }
  public func text(_ index: Int) throws -> String { try statement.text(index) }
  public func blob(_ index: Int) throws -> [UInt8] { try statement.blob(index) }
  public func withText<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) throws
    -> T
  { try statement.withText(index, body) }
  public func value(_ index: Int) throws -> SQLiteValue { try statement.value(index) }
  public func nullableInt64(_ index: Int) throws -> Int64? { try statement.nullableInt64(index) }
  public func withNullableText<T>(
    _ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T
  ) throws -> T? { try statement.withNullableText(index, body) }

  public func isNull(_ name: String) throws -> Bool { try statement.isNull(name) }
  public func int64(_ name: String) throws -> Int64 { try statement.int64(name) }
  public func int(_ name: String) throws -> Int { try statement.int(name) }
  public func bool(_ name: String) throws -> Bool { try statement.bool(name) }
  public func double(_ name: String) throws -> Double { try statement.double(name) }
  public func text(_ name: String) throws -> String { try statement.text(name) }
  public func blob(_ name: String) throws -> [UInt8] { try statement.blob(name) }
  public func value(_ name: String) throws -> SQLiteValue { try statement.value(name) }
}

@available(*, unavailable, message: "a row belongs to the connection's one thread")
extension SQLiteRow: Sendable {}
