import CSQLite
import CSQLiteShim

/// One prepared statement: prepared in `init`, finalized in `deinit`.
///
/// Not `Sendable`: a statement belongs to its connection, and the connection
/// to the one `SQLiteConnection` actor (or thread) that uses it.
///
/// Parameter indexes start at 1 and column indexes at 0, as in SQLite.
/// Column reads check the index and the storage class and throw instead of
/// converting silently: `int64` reads only INTEGER, `double` REAL or INTEGER,
/// `text` TEXT, `blob` BLOB or TEXT; NULL is never read as 0 or "" (check
/// `isNull`, or read `value`).
public final class SQLiteStatement {
  /// The SQL text, for errors.
  public let sql: String
  /// The `sqlite3_stmt`.
  let handle: OpaquePointer
  /// The `sqlite3` connection, for error messages. It outlives this statement:
  /// the database closes with `sqlite3_close_v2`, which waits for every statement.
  private let connection: OpaquePointer
  /// The column count of the row the last `step` produced (read once a row,
  /// not at every column read), or 0 when it produced none: column reads are
  /// defined only on a row.
  private var rowColumnCount = 0
  /// Column indexes by exact name, built on the first read by name, and the
  /// re-prepare count they are valid for (a schema change can re-prepare the
  /// statement with other columns).
  private var columnIndexes: (indexes: [String: Int], prepareCount: Int32)?
  /// Whether a `withStatement` call is using this (cached) statement now.
  var isInUse = false

  /// Prepares exactly one statement; `persistent` for the ones the statement
  /// cache keeps. Text holding several statements throws (use `execute` for
  /// scripts), so that nothing after the first `;` is silently ignored.
  init(connection: OpaquePointer, sql: String, persistent: Bool) throws {
    let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
    var statement: OpaquePointer?
    var extraStatement: OpaquePointer?
    let code = sql.withCString { text in
      var tail: UnsafePointer<CChar>?
      let code = sqlite3_prepare_v3(connection, text, -1, flags, &statement, &tail)
      if code == SQLITE_OK, let tail, tail.pointee != 0 {
        // Only white space and comments may follow; preparing them yields no statement.
        _ = sqlite3_prepare_v3(connection, tail, -1, 0, &extraStatement, nil)
      }
      return code
    }
    guard code == SQLITE_OK else {
      sqlite3_finalize(statement)
      throw SQLiteError(code, connection, sql: sql)
    }
    guard let statement else {
      throw SQLiteError.misuse("no SQL statement in the text", sql: sql)
    }
    if extraStatement != nil {
      sqlite3_finalize(extraStatement)
      sqlite3_finalize(statement)
      throw SQLiteError.misuse(
        "the text holds more than one statement; execute(_:) runs scripts", sql: sql)
    }
    self.handle = statement
    self.connection = connection
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(handle)
  }

  private func check(_ code: Int32) throws {
    try SQLiteError.check(code, connection, sql: sql)
  }

  // MARK: Parameters

  /// How many parameters the statement has (the largest index).
  public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

  /// Binds `value` to the parameter at `index` (from 1).
  public func bind(_ value: SQLiteValue, at index: Int) throws {
    guard index >= 1, index <= parameterCount else {
      throw SQLiteError.misuse(
        "parameter index \(index) is out of range 1...\(parameterCount)", sql: sql,
        code: SQLITE_RANGE)
    }
    let position = Int32(index)
    let code: Int32
    switch value {
    case .null:
      code = sqlite3_bind_null(handle, position)
    case .integer(let integer):
      code = sqlite3_bind_int64(handle, position, integer)
    case .real(let real):
      code = sqlite3_bind_double(handle, position, real)
    case .text(let text):
      var text = text
      code = text.withUTF8 { bytes in
        // A null pointer would bind NULL, not the empty string.
        guard let base = bytes.baseAddress, bytes.count > 0 else {
          return sqlite3_bind_text(handle, position, "", 0, sqliteTransient)
        }
        return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
          sqlite3_bind_text64(
            handle, position, $0, UInt64(bytes.count), sqliteTransient, UInt8(SQLITE_UTF8))
        }
      }
    case .blob(let bytes):
      code = bytes.withUnsafeBytes { buffer in
        // A null pointer would bind NULL, not the empty blob.
        guard let base = buffer.baseAddress, buffer.count > 0 else {
          return sqlite3_bind_zeroblob(handle, position, 0)
        }
        return sqlite3_bind_blob64(handle, position, base, UInt64(buffer.count), sqliteTransient)
      }
    }
    try check(code)
  }

  /// Binds `value` to the parameter called `name`: `:id`, `@id`, `$id`, or
  /// `id` for whichever of those the SQL uses.
  public func bind(_ value: SQLiteValue, named name: String) throws {
    try bind(value, at: parameterIndex(named: name))
  }

  /// Binds every parameter, in order; the count must match.
  public func bind(_ values: [SQLiteValue]) throws {
    guard values.count == parameterCount else {
      throw SQLiteError.misuse(
        "\(values.count) values given for \(parameterCount) parameters", sql: sql,
        code: SQLITE_RANGE)
    }
    for (offset, value) in values.enumerated() {
      try bind(value, at: offset + 1)
    }
  }

  /// Binds every named parameter; keys may omit the prefix (`id` for `:id`).
  /// A parameter without a value, or a value without a parameter, throws.
  public func bind(_ values: [String: SQLiteValue]) throws {
    var used = 0
    for index in stride(from: 1, through: parameterCount, by: 1) {
      guard let cName = sqlite3_bind_parameter_name(handle, Int32(index)) else {
        throw SQLiteError.misuse(
          "parameter \(index) has no name; bind an array", sql: sql, code: SQLITE_RANGE)
      }
      let name = String(cString: cName)
      guard let value = values[name] ?? values[String(name.dropFirst())] else {
        throw SQLiteError.misuse("no value for parameter \(name)", sql: sql, code: SQLITE_RANGE)
      }
      used += 1
      try bind(value, at: index)
    }
    guard used == values.count else {
      let names = values.keys.filter { (try? parameterIndex(named: $0)) == nil }.sorted()
      throw SQLiteError.misuse(
        "no parameter for \(names.joined(separator: ", "))", sql: sql, code: SQLITE_RANGE)
    }
  }

  private func parameterIndex(named name: String) throws -> Int {
    let candidates =
      name.first.map { ":@$".contains($0) } == true ? [name] : [":" + name, "@" + name, "$" + name]
    for candidate in candidates {
      let index = sqlite3_bind_parameter_index(handle, candidate)
      if index > 0 { return Int(index) }
    }
    throw SQLiteError.misuse("no parameter named \(name)", sql: sql, code: SQLITE_RANGE)
  }

  /// Sets every parameter back to NULL (`sqlite3_clear_bindings`).
  public func clearBindings() {
    sqlite3_clear_bindings(handle)
  }

  // MARK: Running

  /// Runs the statement to its next row: true when a row is ready, false when
  /// the statement is done.
  @discardableResult
  public func step() throws -> Bool {
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_ROW:
      rowColumnCount = Int(sqlite3_column_count(handle))
      return true
    case SQLITE_DONE:
      rowColumnCount = 0
      return false
    default:
      rowColumnCount = 0
      throw SQLiteError(code, connection, sql: sql)
    }
  }

  /// Rewinds the statement so that it can run again; bindings stay.
  ///
  /// A statement that stopped before `SQLITE_DONE` keeps its read transaction
  /// (and the WAL snapshot) open until it is reset.
  public func reset() {
    // Its code repeats the last `step` error, which `step` already threw.
    sqlite3_reset(handle)
    rowColumnCount = 0
  }

  /// Whether the statement only reads (`sqlite3_stmt_readonly`).
  public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

  // MARK: Columns

  /// How many columns a row of the result has.
  public var columnCount: Int { Int(sqlite3_column_count(handle)) }

  /// The name of the column at `index` (its `AS` alias when it has one).
  public func columnName(at index: Int) throws -> String {
    try checkColumn(index, needsRow: false)
    guard let name = sqlite3_column_name(handle, Int32(index)) else { return "" }
    return String(cString: name)
  }

  /// The index of the column called `name` (ASCII case-insensitively, as
  /// SQLite resolves names); the first one when several share it.
  public func columnIndex(named name: String) throws -> Int {
    let prepareCount = sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
    if columnIndexes?.prepareCount != prepareCount {
      var indexes: [String: Int] = [:]
      for index in 0..<columnCount {
        let columnName = try columnName(at: index)
        if indexes[columnName] == nil { indexes[columnName] = index }
      }
      columnIndexes = (indexes, prepareCount)
    }
    if let index = columnIndexes?.indexes[name] {
      return index
    }
    for index in 0..<columnCount
    where sqlite3_stricmp(sqlite3_column_name(handle, Int32(index)), name) == 0 {
      return index
    }
    throw SQLiteError.misuse("no column named \(name)", sql: sql, code: SQLITE_RANGE)
  }

  private func checkColumn(_ index: Int, needsRow: Bool = true) throws {
    let count = rowColumnCount > 0 ? rowColumnCount : columnCount
    guard index >= 0, index < count else {
      throw SQLiteError.misuse(
        "column index \(index) is out of range 0..<\(count)", sql: sql, code: SQLITE_RANGE)
    }
    guard rowColumnCount > 0 || !needsRow else {
      throw SQLiteError.misuse("no current row: step() did not return true", sql: sql)
    }
  }

  /// The storage class of the column's value, checked against `accepted`
  /// and `alsoAccepted` (two at most: not a variadic list, an array made at
  /// every column read).
  @discardableResult
  private func columnType(
    _ index: Int, accepting accepted: Int32, or alsoAccepted: Int32? = nil, as wanted: String
  ) throws -> Int32 {
    try checkColumn(index)
    let type = sqlite3_column_type(handle, Int32(index))
    guard type == accepted || type == alsoAccepted else {
      throw mismatch(index, holds: type, wanted: wanted)
    }
    return type
  }

  /// The error of a column read that finds a storage class it does not take.
  func mismatch(_ index: Int, holds type: Int32, wanted: String) -> SQLiteError {
    let name = (try? columnName(at: index)) ?? ""
    return SQLiteError.misuse(
      "column \(index) (\(name)) holds \(storageClassName(type)), not \(wanted)", sql: sql,
      code: SQLITE_MISMATCH)
  }

  /// Calls `body` with the current row's columns, read in one call into
  /// SQLite (`SQLiteColumns`): for rows read many at a time.
  public func withColumns<T>(_ body: (SQLiteColumns) throws -> T) throws -> T {
    try checkColumn(0)
    let count = rowColumnCount
    return try withUnsafeTemporaryAllocation(of: csqlite_column.self, capacity: count) { buffer in
      csqlite_read_columns(handle, Int32(count), buffer.baseAddress)
      return try body(SQLiteColumns(UnsafeBufferPointer(buffer), of: self))
    }
  }

  /// Whether the column's value is NULL.
  public func isNull(_ index: Int) throws -> Bool {
    try checkColumn(index)
    return sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
  }

  /// The column's INTEGER value.
  public func int64(_ index: Int) throws -> Int64 {
    try columnType(index, accepting: SQLITE_INTEGER, as: "INTEGER")
    return sqlite3_column_int64(handle, Int32(index))
  }

  /// The column's INTEGER value, or nil when it is NULL: one look at its
  /// type where `isNull` and then `int64` take two.
  public func nullableInt64(_ index: Int) throws -> Int64? {
    let type = try columnType(index, accepting: SQLITE_INTEGER, or: SQLITE_NULL, as: "INTEGER")
    return type == SQLITE_NULL ? nil : sqlite3_column_int64(handle, Int32(index))
  }

  /// The column's INTEGER value as an `Int`.
  public func int(_ index: Int) throws -> Int {
    Int(try int64(index))
  }

  /// The column's INTEGER value as a `Bool` (non-zero is true).
  public func bool(_ index: Int) throws -> Bool {
    try int64(index) != 0
  }

  /// The column's REAL value, or its INTEGER value converted.
  public func double(_ index: Int) throws -> Double {
    try columnType(index, accepting: SQLITE_FLOAT, or: SQLITE_INTEGER, as: "REAL")
    return sqlite3_column_double(handle, Int32(index))
  }

  /// The column's TEXT value.
  public func text(_ index: Int) throws -> String {
    try columnType(index, accepting: SQLITE_TEXT, as: "TEXT")
    return unsafeText(index)
  }

  /// Calls `body` with the bytes of the column's TEXT value (UTF-8, as
  /// stored: not checked), valid only during the call: for writing them
  /// somewhere without making a `String` of them first.
  public func withText<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) throws
    -> T
  {
    try columnType(index, accepting: SQLITE_TEXT, as: "TEXT")
    return try textBytes(index, body)
  }

  /// `withText`, or nil without calling `body` when the column is NULL: one
  /// look at its type where `isNull` and then `withText` take two.
  public func withNullableText<T>(
    _ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T
  ) throws -> T? {
    let type = try columnType(index, accepting: SQLITE_TEXT, or: SQLITE_NULL, as: "TEXT")
    return type == SQLITE_NULL ? nil : try textBytes(index, body)
  }

  private func textBytes<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T)
    rethrows -> T
  {
    // The pointer first, then the size (the order SQLite documents).
    guard let text = sqlite3_column_text(handle, Int32(index)) else {
      return try body(UnsafeBufferPointer(start: nil, count: 0))
    }
    let count = Int(sqlite3_column_bytes(handle, Int32(index)))
    return try body(UnsafeBufferPointer(start: text, count: count))
  }

  /// The column's BLOB value, or the UTF-8 bytes of its TEXT value.
  public func blob(_ index: Int) throws -> [UInt8] {
    try columnType(index, accepting: SQLITE_BLOB, or: SQLITE_TEXT, as: "BLOB")
    // The pointer first, then the size (the order SQLite documents).
    guard let bytes = sqlite3_column_blob(handle, Int32(index)) else { return [] }
    let count = Int(sqlite3_column_bytes(handle, Int32(index)))
    return Array(UnsafeRawBufferPointer(start: bytes, count: count))
  }

  /// The column's value, whatever its storage class.
  public func value(_ index: Int) throws -> SQLiteValue {
    try checkColumn(index)
    switch sqlite3_column_type(handle, Int32(index)) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, Int32(index)))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, Int32(index)))
    case SQLITE_TEXT: return .text(unsafeText(index))
    case SQLITE_BLOB: return .blob(try blob(index))
    default: return .null
    }
  }

  /// The TEXT at a checked index.
  private func unsafeText(_ index: Int) -> String {
    guard let text = sqlite3_column_text(handle, Int32(index)) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, Int32(index)))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  public func isNull(_ name: String) throws -> Bool { try isNull(columnIndex(named: name)) }
  public func int64(_ name: String) throws -> Int64 { try int64(columnIndex(named: name)) }
  public func int(_ name: String) throws -> Int { try int(columnIndex(named: name)) }
  public func bool(_ name: String) throws -> Bool { try bool(columnIndex(named: name)) }
  public func double(_ name: String) throws -> Double { try double(columnIndex(named: name)) }
  public func text(_ name: String) throws -> String { try text(columnIndex(named: name)) }
  public func blob(_ name: String) throws -> [UInt8] { try blob(columnIndex(named: name)) }
  public func value(_ name: String) throws -> SQLiteValue { try value(columnIndex(named: name)) }
}

@available(*, unavailable, message: "a statement belongs to the connection's one thread")
extension SQLiteStatement: Sendable {}

/// `SQLITE_TRANSIENT`, which Swift does not import: SQLite copies the bytes
/// before the bind call returns.
private let sqliteTransient = unsafeBitCast(
  OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

private func storageClassName(_ type: Int32) -> String {
  switch type {
  case SQLITE_INTEGER: "INTEGER"
  case SQLITE_FLOAT: "REAL"
  case SQLITE_TEXT: "TEXT"
  case SQLITE_BLOB: "BLOB"
  default: "NULL"
  }
}
