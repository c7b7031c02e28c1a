/// The prepared statements of one connection, keyed by SQL text, so that a
/// statement the services run again and again is parsed and planned once.
///
/// A statement in use (a query whose row closure runs the same SQL again) is
/// never handed out twice: the second user gets a fresh, uncached statement.
final class SQLiteStatementCache {
  /// The cached statements by their SQL text.
  private var statements: [String: SQLiteStatement] = [:]
  /// How many statements it keeps; past it, one not in use is dropped.
  let capacity: Int

  init(capacity: Int) {
    self.capacity = max(capacity, 0)
  }

  /// How many statements are cached.
  var count: Int { statements.count }

  /// The statements handed out last and before it: callers pass the same
  /// `static let` texts again and again (a list page runs its count and its
  /// page in turn), which `==` matches by their storage alone, without
  /// hashing the text as the dictionary does.
  private var last: SQLiteStatement?
  private var previous: SQLiteStatement?

  /// The cached statement for `sql`, prepared on a miss; nil when the cached
  /// one is in use (the caller prepares a transient one).
  func statement(for sql: String, connection: OpaquePointer) throws -> SQLiteStatement? {
    if let last, last.sql == sql {
      return last.isInUse ? nil : last
    }
    if let previous, previous.sql == sql {
      swap(&last, &self.previous)
      return previous.isInUse ? nil : previous
    }
    if let cached = statements[sql] {
      previous = last
      last = cached
      return cached.isInUse ? nil : cached
    }
    guard capacity > 0 else { return nil }
    let statement = try SQLiteStatement(connection: connection, sql: sql, persistent: true)
    if statements.count >= capacity,
      let victim = statements.first(where: { !$0.value.isInUse })?.key
    {
      statements[victim] = nil
    }
    statements[sql] = statement
    previous = last
    last = statement
    return statement
  }

  /// Drops (and so finalizes, unless in use) every statement.
  func removeAll() {
    last = nil
    previous = nil
    statements.removeAll()
  }
}
