import Protocol
import Synchronization

/// Reads the rows of a search's page, by key, on the searching thread.
///
/// A page is at most 45 rows fetched by primary key: less work than the hop
/// onto an `SQLiteConnection`'s thread and back costs (two thread wake-ups;
/// figures in Benchmarks/README.md).
/// So this connection is used in place, under a lock, by whichever thread
/// searches. Its page cache is larger than SQLite's default (2 MB), so the
/// rows of the areas a map keeps showing are read from memory: the file of
/// a million places has about 60,000 pages of 4 KB, and a page of results
/// touches one or two per row, which the default would keep evicting. (Mapping the file instead
/// was as fast but made the process's resident size grow by the whole file.)
///
/// What it gives up: a cold file makes the first searches wait for the disk
/// on a thread of Swift's pool rather than on the connection's own thread.
/// Reads only; each query is its own read transaction, so the rows it reads
/// are those committed before it (rows a page takes from its index's
/// `PlaceRowCache` are as of that index).
///
/// `Sendable` through the mutex: the connection (not `Sendable`, opened
/// without SQLite's own mutex) is only touched while it is held.
final class PlacePageReader: Sendable {
  /// The page cache, in KiB (`PRAGMA cache_size` takes a negative size).
  static let cacheKilobytes = 32 << 10

  private let path: String
  private let database = Mutex<SQLiteDatabase?>(nil)

  /// - Parameter path: a places file that exists and has the schema (the
  ///   store's reader connection made it before any search).
  init(path: String) {
    self.path = path
  }

  /// The places with `keys`, by key; a key with no row is left out.
  func places(keys: [Int64]) throws -> [Int64: Place] {
    guard !keys.isEmpty else { return [:] }
    let rows = try database.withLock { stored in
      try opened(&stored).query(
        Self.select(count: keys.count), keys.map { .integer($0) }, row: PlaceStore.keyedPlace)
    }
    return Dictionary(rows, uniquingKeysWith: { first, _ in first })
  }

  /// Writes the JSON objects of the places of `page`, in its order, each
  /// with its distance, separated by commas: the items of a search's reply.
  /// Rows in `cache` are copied from it; the others are read in one
  /// statement, written as JSON (`PlaceRowJSON`) and cached. A key with no
  /// row is left out.
  func writePlaces(
    _ page: [(key: Int64, distance: Int?)], cache: PlaceRowCache, into output: inout JSONBuffer
  ) throws {
    // Rows read here, nil for a key with no row. Each turn adds the keys
    // the cache missed, so it ends: a second one comes only when other
    // searches filled a generation in between and rows left.
    var read: [Int64: PlaceRowCache.Entry?] = [:]
    while true {
      let missing = cache.write(page, known: read, into: &output)
      if missing.isEmpty { return }
      let found = try entries(keys: missing)
      cache.insert(found)
      for key in missing { read.updateValue(found[key], forKey: key) }
    }
  }

  /// The JSON objects of the rows with `keys`, by key, read in one statement
  /// (so from one snapshot).
  private func entries(keys: [Int64]) throws -> [Int64: PlaceRowCache.Entry] {
    try database.withLock { stored in
      try opened(&stored).withStatement(Self.select(count: keys.count)) { statement in
        var entries: [Int64: PlaceRowCache.Entry] = [:]
        entries.reserveCapacity(keys.count)
        var scratch: [UInt8] = []
        scratch.reserveCapacity(1_024)
        try statement.bind(keys.map { .integer($0) })
        let row = SQLiteRow(statement)
        while try statement.step() {
          entries[try row.int64(0)] = try PlaceRowJSON.entry(row, scratch: &scratch)
        }
        return entries
      }
    }
  }

  /// One statement per page size (1–45 keys): each stays in the statement
  /// cache. Its text is made once: making it again for every page cost
  /// more than the statement cache's lookup.
  private static func select(count: Int) -> String {
    count < selects.count ? selects[count] : makeSelect(count: count)
  }

  private static let selects = (0...PlaceSearch.maxPageable).map(makeSelect)

  /// The keys as a `VALUES` list joined to the table, not `key IN (…)`:
  /// SQLite opens, fills and closes a temporary B-tree of an `IN` list's
  /// values at each run (a profile of searches showed it), while it reads
  /// a `VALUES` list in place, seeking each row in the list's order.
  private static func makeSelect(count: Int) -> String {
    let keys = Array(repeating: "(?)", count: count).joined(separator: ", ")
    return
      "SELECT \(PlaceSchema.columns) FROM (VALUES \(keys)) AS page CROSS JOIN places ON places.key = page.column1"
  }

  /// The connection, opened on first use; called with the mutex held.
  private func opened(_ stored: inout SQLiteDatabase?) throws -> SQLiteDatabase {
    if let stored { return stored }
    let database = try SQLiteDatabase(path: path, readOnly: false)
    try database.execute("PRAGMA cache_size = -\(Self.cacheKilobytes)")
    stored = database
    return database
  }
}
