/// A search's match count on the shared catalog, with what it takes to bring
/// it up to date in the next search's statement (`PostgresProductListSQL.page`):
/// nothing while the catalog's version is the same; the change log's rows
/// since its snapshot while that snapshot is recent and no unlogged change
/// came between; else a count.
struct PostgresKeptCount {
  /// How long a kept snapshot is brought up to date from the change log. The
  /// daemons prune the log of rows older than `PostgresProductBackend.logKept`,
  /// so this must stay well below it; beyond it the search counts again.
  static let snapshotLifetimeNanoseconds: UInt64 = 60_000_000_000

  let count: Int
  /// How many products the search looked through (all, or the supplier's), when known.
  let products: Int
  /// The sum of `catalog_changes` in the snapshot counted in.
  let version: Int64
  /// `catalog_unlogged_changes` in that snapshot.
  let unlogged: Int64
  /// `pg_current_snapshot()` of the statement that counted, as text.
  let snapshot: String
  /// When the count arrived (`monotonicNanoseconds`).
  let at: UInt64

  /// Whether the change log still holds every row this snapshot did not see.
  func isRecent(now: UInt64) -> Bool {
    now &- at < Self.snapshotLifetimeNanoseconds
  }
}
