/// One step of a database's schema, applied once, in version order, by
/// whichever daemon gets there first.
struct PostgresMigration: Sendable {
  let version: Int
  let body: @Sendable (PostgresSession) throws -> Void

  /// A step that runs a script of statements.
  init(version: Int, sql: String) {
    self.version = version
    body = { session in try session.executeScript(sql) }
  }

  /// A step that runs code (seeding data, say).
  init(version: Int, body: @escaping @Sendable (PostgresSession) throws -> Void) {
    self.version = version
    self.body = body
  }
}

extension PostgresSession {
  /// Brings the database up to the last of `migrations`, each in the one
  /// transaction that records it in `catalogd_migrations`. An advisory lock
  /// makes daemons that start together take turns: the first applies, the
  /// others find the work done.
  func migrate(_ migrations: [PostgresMigration]) throws {
    try execute("BEGIN")
    do {
      try execute("SELECT pg_advisory_xact_lock($1::bigint)", [String(Self.migrationLock)])
      try executeScript(
        """
        CREATE TABLE IF NOT EXISTS catalogd_migrations (
          version integer PRIMARY KEY,
          applied_at timestamptz NOT NULL DEFAULT now()
        )
        """)
      let current =
        try execute("SELECT coalesce(max(version), 0) FROM catalogd_migrations")
        .first?.int(0) ?? 0
      for migration in migrations where migration.version > current {
        try migration.body(self)
        try execute(
          "INSERT INTO catalogd_migrations (version) VALUES ($1::integer)",
          [String(migration.version)])
      }
      try execute("COMMIT")
    } catch {
      _ = try? execute("ROLLBACK")
      throw error
    }
  }

  /// The advisory lock key of migrations ("catalogd" in ASCII).
  static let migrationLock: Int64 = 0x6361_7461_6C6F_6764
}
