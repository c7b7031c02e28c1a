import CSQLite

/// One step of a schema: the SQL (or code) that takes the database from
/// version `version - 1` (or any earlier) to `version`, recorded in
/// `PRAGMA user_version`.
public struct SQLiteMigration: Sendable {
  /// The schema version after this step; versions start at 1 and increase.
  public let version: Int
  /// Applies the step inside the migration's transaction.
  let apply: @Sendable (SQLiteDatabase) throws -> Void

  /// A step that runs a script (several statements are fine).
  public init(version: Int, sql: String) {
    self.version = version
    self.apply = { try $0.execute(sql) }
  }

  /// A step that runs code (to move data row by row, for instance).
  public init(version: Int, _ apply: @escaping @Sendable (SQLiteDatabase) throws -> Void) {
    self.version = version
    self.apply = apply
  }
}

extension SQLiteDatabase {
  /// `PRAGMA user_version`: the schema version `migrate` recorded.
  public func userVersion() throws -> Int {
    try queryOne("PRAGMA user_version") { try $0.int(0) } ?? 0
  }

  /// Applies the migrations whose version is above the file's `user_version`,
  /// in order, each in its own IMMEDIATE transaction that also records its
  /// version: a step is applied entirely or not at all, and running `migrate`
  /// again (or from two processes at once) applies nothing twice.
  ///
  /// Throws, without changing anything, when the versions do not increase or
  /// the file is at a version above the last one (a newer build wrote it).
  /// `PRAGMA foreign_keys` cannot change inside a transaction: a step that
  /// rebuilds a table should check `PRAGMA foreign_key_check` itself.
  ///
  /// - Returns: the schema version after migrating.
  @discardableResult
  public func migrate(_ migrations: [SQLiteMigration]) throws -> Int {
    var previous = 0
    for migration in migrations {
      guard migration.version > previous else {
        throw SQLiteError.misuse(
          "migration versions must start at 1 and increase: \(migration.version) after \(previous)",
          sql: nil)
      }
      previous = migration.version
    }
    let current = try userVersion()
    guard current <= previous else {
      throw SQLiteError(
        code: SQLITE_ERROR,
        message:
          "\(path) is at schema version \(current), newer than this build's \(previous)")
    }
    for migration in migrations where migration.version > current {
      try transaction(.immediate) {
        // Another connection may have migrated since the first reading.
        guard try userVersion() < migration.version else { return }
        try migration.apply(self)
        try execute("PRAGMA user_version = \(migration.version)")
      }
    }
    return try userVersion()
  }
}
