extension SQLiteDatabase {
  /// Runs `body` in a transaction: committed when it returns, rolled back when
  /// it (or the commit) throws. Inside another transaction it becomes a
  /// savepoint, so nested calls roll back alone.
  @discardableResult
  public func transaction<T>(_ kind: SQLiteTransactionKind = .deferred, _ body: () throws -> T)
    throws -> T
  {
    if isInTransaction {
      return try savepoint(body)
    }
    try run(kind.beginStatement)
    do {
      let result = try body()
      try run("COMMIT")
      return result
    } catch {
      rollback()
      throw error
    }
  }

  /// Runs `body` in a savepoint: released when it returns, rolled back to (and
  /// released) when it throws, leaving the enclosing transaction open. Outside a
  /// transaction, the savepoint is one.
  @discardableResult
  public func savepoint<T>(_ body: () throws -> T) throws -> T {
    let name = "catalogd_savepoint_\(savepointDepth)"
    try run("SAVEPOINT \(name)")
    savepointDepth += 1
    defer { savepointDepth -= 1 }
    do {
      let result = try body()
      try run("RELEASE \(name)")
      return result
    } catch {
      // Some errors (SQLITE_FULL, SQLITE_IOERR, …) roll the whole transaction
      // back; then the savepoint is gone and there is nothing left to undo.
      if isInTransaction {
        do {
          try run("ROLLBACK TO \(name)")
          try run("RELEASE \(name)")
        } catch {
          // The body's error is the one to report; a failed rollback of a
          // savepoint leaves the enclosing transaction to fail at its commit.
        }
      }
      throw error
    }
  }

  /// Rolls the open transaction back, if any. The caller is already failing
  /// with a better error than a failed rollback could give.
  func rollback() {
    guard isInTransaction else { return }
    do {
      try run("ROLLBACK")
    } catch {
      // Nothing more to do: SQLite rolls back when the connection closes.
    }
  }
}
