import CSQLite
import CSQLiteShim

/// One SQLite connection (`sqlite3 *`): opened in `init`, closed in `deinit`
/// or by `close()`.
///
/// Not `Sendable`: it is opened with `SQLITE_OPEN_NOMUTEX`, so one thread at a
/// time may use it. In the daemon, an `SQLiteConnection` actor owns it and runs
/// every call on its own thread.
///
/// Opening sets WAL journaling (readers never block the writer), the
/// `synchronous` level (FULL by default: a commit is durable when it returns),
/// `foreign_keys=ON` and a busy timeout, and enables extended result codes.
public final class SQLiteDatabase {
  /// How to open a database.
  public struct Options: Sendable {
    /// Open read-only: no journal mode change, writes fail with `SQLITE_READONLY`.
    public var readOnly: Bool
    /// `PRAGMA synchronous`.
    public var synchronous: Synchronous
    /// How long a call waits for another connection's lock before `SQLITE_BUSY`.
    public var busyTimeoutMilliseconds: Int32
    /// How many prepared statements the cache keeps (0 turns it off).
    public var statementCacheCapacity: Int

    public init(
      readOnly: Bool = false, synchronous: Synchronous = .full,
      busyTimeoutMilliseconds: Int32 = 5000, statementCacheCapacity: Int = 128
    ) {
      self.readOnly = readOnly
      self.synchronous = synchronous
      self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
      self.statementCacheCapacity = statementCacheCapacity
    }
  }

  /// `PRAGMA synchronous` levels. In WAL mode, NORMAL may lose the last
  /// commits on a power cut (never corrupts); FULL syncs the WAL at every commit.
  public enum Synchronous: String, Sendable {
    case off = "OFF"
    case normal = "NORMAL"
    case full = "FULL"
    case extra = "EXTRA"
  }

  /// The file's path as given (or `:memory:`).
  public let path: String
  /// Whether it was opened read-only.
  public let isReadOnly: Bool
  /// The `sqlite3` connection; nil once closed.
  private var connection: OpaquePointer?
  /// Prepared statements by SQL text.
  private let cache: SQLiteStatementCache
  /// How many savepoints `savepoint` has open, to name the next one.
  var savepointDepth = 0

  /// SQLite's set-up, done before the process's first connection: memory
  /// statistics off, since nothing reads them and they take a process-wide
  /// mutex at each of SQLite's allocations (several a read).
  private static let configured: Void = { _ = csqlite_disable_memory_statistics() }()

  /// Opens (creating it unless read-only) the database at `path`.
  public convenience init(path: String, readOnly: Bool) throws {
    try self.init(path: path, options: Options(readOnly: readOnly))
  }

  /// Opens (creating it unless `options.readOnly`) the database at `path`.
  public init(path: String, options: Options = Options()) throws {
    _ = Self.configured
    self.path = path
    self.isReadOnly = options.readOnly
    self.cache = SQLiteStatementCache(capacity: options.statementCacheCapacity)
    let access =
      options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    var connection: OpaquePointer?
    let code = sqlite3_open_v2(
      path, &connection, access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
    guard code == SQLITE_OK, let connection else {
      // Even a failed open may allocate a connection, which holds the message.
      let error = SQLiteError(code, connection, sql: nil)
      sqlite3_close_v2(connection)
      throw SQLiteError(code: error.extendedCode, message: "\(error.message): \(path)")
    }
    self.connection = connection
    // The connection is closed at once on failure, whenever `deinit` runs.
    do {
      try SQLiteError.check(
        sqlite3_busy_timeout(connection, options.busyTimeoutMilliseconds), connection, sql: nil)
      if !options.readOnly {
        try switchToWAL(within: options.busyTimeoutMilliseconds)
      }
      // Pragmas take no parameters; the values come from enums and numbers.
      try execute("PRAGMA synchronous = \(options.synchronous.rawValue)")
      try execute("PRAGMA foreign_keys = ON")
    } catch {
      close()
      throw error
    }
  }

  deinit {
    close()
  }

  /// `PRAGMA journal_mode = WAL`, which needs the file to itself and, unlike
  /// other statements, does not wait for it (SQLite runs no busy handler
  /// there): daemons opening a new file together could fail with "database
  /// is locked". WAL is a property of the file, so once any of them switched
  /// it the pragma has nothing to do; until then it is tried again, with a
  /// growing pause, within the busy timeout.
  private func switchToWAL(within milliseconds: Int32) throws {
    var waited: Int32 = 0
    var pause: Int32 = 1
    while true {
      do {
        try execute("PRAGMA journal_mode = WAL")
        return
      } catch let error as SQLiteError where error.isBusy && waited < milliseconds {
        sqlite3_sleep(pause)
        waited += pause
        pause = min(pause * 2, 50)
      }
    }
  }

  /// Finalizes the cached statements and closes the connection. Later calls
  /// throw `SQLITE_MISUSE`. Statements the caller still holds keep the
  /// connection alive until they are released (`sqlite3_close_v2`).
  public func close() {
    cache.removeAll()
    if let connection {
      sqlite3_close_v2(connection)
    }
    connection = nil
  }

  /// Whether `close()` has run.
  public var isClosed: Bool { connection == nil }

  /// The open connection, or the error for using a closed one.
  func openConnection() throws -> OpaquePointer {
    guard let connection else {
      throw SQLiteError.misuse("the database is closed", sql: nil)
    }
    return connection
  }

  // MARK: Statements

  /// A new statement for `sql`, outside the cache, owned by the caller.
  public func prepare(_ sql: String) throws -> SQLiteStatement {
    try SQLiteStatement(connection: openConnection(), sql: sql, persistent: false)
  }

  /// Runs `body` with the cached statement for `sql`, reset and with its
  /// bindings cleared afterwards (so it holds no read snapshot and no values).
  ///
  /// For many rows through one statement: bind, `step`, `reset`, repeat.
  public func withStatement<T>(_ sql: String, _ body: (SQLiteStatement) throws -> T) throws -> T {
    let connection = try openConnection()
    let statement =
      try cache.statement(for: sql, connection: connection)
      ?? SQLiteStatement(connection: connection, sql: sql, persistent: false)
    statement.isInUse = true
    defer {
      statement.reset()
      statement.clearBindings()
      statement.isInUse = false
    }
    return try body(statement)
  }

  /// How many statements the cache holds.
  var cachedStatementCount: Int { cache.count }

  /// Runs a script: every statement in `sql`, in order, without parameters
  /// (schema, pragmas). Rows are discarded; the first error stops it.
  public func execute(_ sql: String) throws {
    let connection = try openConnection()
    try sql.withCString { start in
      var next: UnsafePointer<CChar>? = start
      while let current = next, current.pointee != 0 {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, current, -1, 0, &statement, &next)
        guard code == SQLITE_OK else {
          sqlite3_finalize(statement)
          // The rest of the script, from the statement that failed.
          let rest = String(cString: current)
          throw SQLiteError(code, connection, sql: String(rest.drop { $0.isWhitespace }))
        }
        guard let statement else { continue }  // white space or a comment
        defer { sqlite3_finalize(statement) }
        var step = sqlite3_step(statement)
        while step == SQLITE_ROW {
          step = sqlite3_step(statement)
        }
        guard step == SQLITE_DONE else {
          let text = sqlite3_sql(statement).map { String(cString: $0) } ?? String(cString: current)
          throw SQLiteError(step, connection, sql: text)
        }
      }
    }
  }

  /// Runs one statement with positional parameters (`?`) to its end and returns
  /// how many rows it inserted, updated or deleted.
  @discardableResult
  public func run(_ sql: String, _ parameters: [SQLiteValue] = []) throws -> Int {
    try withStatement(sql) { statement in
      try statement.bind(parameters)
      while try statement.step() {}
      return changes
    }
  }

  /// Runs one statement with named parameters (`:name`) to its end and returns
  /// how many rows it inserted, updated or deleted.
  @discardableResult
  public func run(_ sql: String, _ parameters: [String: SQLiteValue]) throws -> Int {
    try withStatement(sql) { statement in
      try statement.bind(parameters)
      while try statement.step() {}
      return changes
    }
  }

  /// Every row of a query, each made into a `T` by `row`.
  public func query<T>(
    _ sql: String, _ parameters: [SQLiteValue] = [], row: (SQLiteRow) throws -> T
  ) throws -> [T] {
    try withStatement(sql) { statement in
      try statement.bind(parameters)
      return try Self.rows(of: statement, row)
    }
  }

  /// Every row of a query with named parameters, each made into a `T` by `row`.
  public func query<T>(
    _ sql: String, _ parameters: [String: SQLiteValue], row: (SQLiteRow) throws -> T
  ) throws -> [T] {
    try withStatement(sql) { statement in
      try statement.bind(parameters)
      return try Self.rows(of: statement, row)
    }
  }

  /// The first row of a query made into a `T`, or nil when there is none.
  public func queryOne<T>(
    _ sql: String, _ parameters: [SQLiteValue] = [], row: (SQLiteRow) throws -> T
  ) throws -> T? {
    try withStatement(sql) { statement in
      try statement.bind(parameters)
      return try statement.step() ? row(SQLiteRow(statement)) : nil
    }
  }

  /// The first row of a query with named parameters made into a `T`, or nil.
  public func queryOne<T>(
    _ sql: String, _ parameters: [String: SQLiteValue], row: (SQLiteRow) throws -> T
  ) throws -> T? {
    try withStatement(sql) { statement in
      try statement.bind(parameters)
      return try statement.step() ? row(SQLiteRow(statement)) : nil
    }
  }

  private static func rows<T>(of statement: SQLiteStatement, _ row: (SQLiteRow) throws -> T)
    throws -> [T]
  {
    var rows: [T] = []
    let current = SQLiteRow(statement)
    while try statement.step() {
      rows.append(try row(current))
    }
    return rows
  }

  // MARK: State

  /// The rowid of the last successful INSERT on this connection (0 if none).
  public var lastInsertRowID: Int64 {
    connection.map { sqlite3_last_insert_rowid($0) } ?? 0
  }

  /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
  public var changes: Int {
    connection.map { Int(sqlite3_changes64($0)) } ?? 0
  }

  /// Rows changed since the connection opened.
  public var totalChanges: Int {
    connection.map { Int(sqlite3_total_changes64($0)) } ?? 0
  }

  /// Whether a transaction is open (`sqlite3_get_autocommit` is off).
  public var isInTransaction: Bool {
    connection.map { sqlite3_get_autocommit($0) == 0 } ?? false
  }

  /// `PRAGMA data_version`: changes whenever another connection (in this
  /// process or another) commits to the file, never for this connection's own
  /// commits. Compare two readings to learn whether cached data is stale.
  public func dataVersion() throws -> Int64 {
    try queryOne("PRAGMA data_version") { try $0.int64(0) } ?? 0
  }

  /// `PRAGMA journal_mode`: "wal" for a file opened read-write.
  public func journalMode() throws -> String {
    try queryOne("PRAGMA journal_mode") { try $0.text(0) } ?? ""
  }

  /// `PRAGMA integrity_check`: "ok", or the problems found, one per line.
  public func integrityCheck() throws -> String {
    try query("PRAGMA integrity_check") { try $0.text(0) }.joined(separator: "\n")
  }
}

@available(*, unavailable, message: "a connection is used by one thread; share an SQLiteConnection")
extension SQLiteDatabase: Sendable {}
