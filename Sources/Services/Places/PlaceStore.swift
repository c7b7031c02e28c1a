import FoundationEssentials
import Protocol
import Synchronization

/// The embedded places backend: the places in one SQLite file of the data
/// dir (`places.sqlite`), searched through an in-memory `PlaceIndex`.
///
/// Nothing happens at start: the file opens (and a fresh one gets the demo
/// places) at the first call, and the index is built at the first search,
/// from the rows in id order (its build time is in Benchmarks/README.md).
/// Searches then run on the index alone and read only the rows of the page
/// they return, in place (`PlacePageReader`).
///
/// Separate connections for reading and for imports, so a long import never
/// stalls the map. After an import the index is rebuilt before the import
/// returns. A file changed by another
/// process (another daemon's import) is noticed within `recheckInterval`
/// through `PRAGMA data_version`, and the index rebuilt.
public final class PlaceStore: PlaceBackend {
  public var kind: String { "embedded" }

  /// The database file.
  public let path: String
  /// How imports lay out the rows new to a file (`PlaceRowOrder`): files
  /// made with another order are made again by the benchmarks.
  public static let rowOrder = PlaceRowOrder.name
  /// How many demo places a fresh file gets.
  private let demoCount: Int
  /// The index's grid resolution for every category; nil fits each to its density.
  private let cellsPerDegree: Int?
  /// How long a search trusts the index before checking the file's version.
  private let recheckInterval: Duration
  /// The reader and writer connections, made on first use.
  private let lazyConnections = Mutex<Connections?>(nil)
  /// The index being built or built, and when the file was last checked.
  private let indexState = Mutex<IndexState>(IndexState())
  /// Reads a page's rows on the searching thread.
  private let pageReader: PlacePageReader

  private struct Connections: Sendable {
    /// Gets, index builds and version checks (a page's rows go through `pageReader`).
    let reader: SQLiteConnection
    /// Imports.
    let writer: SQLiteConnection
  }

  private struct IndexState {
    /// The build of the current index (running or finished); nil before the
    /// first search and after a failed build.
    var build: Task<LoadedIndex, any Error>?
    /// What `build` gave, once it finished: searches that find it here and
    /// no version check due answer without awaiting anything.
    var loaded: LoadedIndex?
    /// When a search last compared the file's version with the index's.
    var lastCheck = ContinuousClock.now
  }

  /// An index with what it was built from.
  public struct LoadedIndex: Sendable {
    public let index: PlaceIndex
    /// The row key of each point number.
    let keys: [Int64]
    /// `PRAGMA data_version` of the reader when the rows were read.
    let dataVersion: Int64
    /// The JSON of the rows searches found with this index.
    let rows = PlaceRowCache()
    /// Time spent reading the rows from SQLite, and building the index from them.
    public let readDuration: Duration
    public let buildDuration: Duration

    /// Bytes held in memory for searches: the index and the row keys (the
    /// rows' JSON is bounded apart, by `PlaceRowCache.budgetBytes`).
    public var memoryBytes: Int { index.memoryBytes + keys.capacity * 8 }
  }

  /// - Parameters:
  ///   - path: the database file; its folder is made on first use.
  ///   - demoCount: how many demo places a fresh file gets (0 for none).
  public init(
    path: String, demoCount: Int = DemoPlaces.defaultCount,
    cellsPerDegree: Int? = nil,
    recheckInterval: Duration = .seconds(1)
  ) {
    self.path = path
    self.demoCount = demoCount
    self.cellsPerDegree = cellsPerDegree
    self.recheckInterval = recheckInterval
    pageReader = PlacePageReader(path: path)
  }

  /// The schema, then the demo places on a fresh file.
  static func migrations(demoCount: Int) -> [SQLiteMigration] {
    [
      SQLiteMigration(version: 1, sql: PlaceSchema.version1),
      SQLiteMigration(version: 2) { database in
        let rowOrder = try PlaceRowOrder(database)
        try DemoPlaces.generate(count: demoCount) { try rowOrder.add($0) }
        try rowOrder.finish()
      },
    ]
  }

  private func connections() throws -> Connections {
    try lazyConnections.withLock { stored in
      if let stored { return stored }
      let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
      if !folder.isEmpty {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      }
      let migrations = Self.migrations(demoCount: demoCount)
      let made = Connections(
        reader: try SQLiteConnection(path: path) { database in
          try database.migrate(migrations)
        },
        writer: try SQLiteConnection(path: path) { database in
          try database.migrate(migrations)
          // An import of a million rows updates two B-trees in random order.
          try database.execute("PRAGMA cache_size = -65536")
        })
      stored = made
      return made
    }
  }

  /// Opens the file now (creating it with the demo places if needed), so a
  /// bad path shows at once rather than at the first request.
  public func open() async throws {
    try await connections().reader.open()
  }

  // MARK: - Reads

  public func search(_ search: PlaceSearch) async throws -> PlaceSearchResult {
    let (page, totalCount) = find(search, in: try await loadedIndex())
    var items: [Place] = []
    if !page.isEmpty {
      // The index's build opened the file (and made it, if new) first.
      let byKey = try pageReader.places(keys: page.map(\.key))
      items.reserveCapacity(page.count)
      for (key, distance) in page {
        // A row another process removed meanwhile is left out.
        guard var place = byKey[key] else { continue }
        place.distance = distance
        items.append(place)
      }
    }
    return PlaceSearchResult(items: items, meta: search.meta(totalCount: totalCount))
  }

  /// The same page as `search`, written as its JSON text straight from the
  /// rows (`PlaceRowJSON`).
  public func searchJSON(_ search: PlaceSearch) async throws -> [UInt8] {
    try json(search, try await loadedIndex())
  }

  /// `searchJSON` from the index in memory, when it is built and no check of
  /// the file's version is due (the searching thread reads the page's rows
  /// itself, see `PlacePageReader`).
  public func searchJSONNow(_ search: PlaceSearch) throws -> [UInt8]? {
    let loaded = indexState.withLock { state in
      state.lastCheck.duration(to: .now) < recheckInterval ? state.loaded : nil
    }
    guard let loaded else { return nil }
    return try json(search, loaded)
  }

  private func json(_ search: PlaceSearch, _ loaded: LoadedIndex) throws -> [UInt8] {
    let (page, totalCount) = find(search, in: loaded)
    var output = JSONBuffer(capacity: 256 + page.count * 512)
    JSONWriter.writeLiteral(#"{"items":["#, into: &output)
    // A row another process removed meanwhile is left out.
    try pageReader.writePlaces(page, cache: loaded.rows, into: &output)
    JSONWriter.writeLiteral(#"],"meta":"#, into: &output)
    search.meta(totalCount: totalCount).write(into: &output)
    output.append(UInt8(ascii: "}"))
    return output.bytes
  }

  /// The row keys and distances of a search's page, and its match count.
  private func find(_ search: PlaceSearch, in loaded: LoadedIndex) -> (
    page: [(key: Int64, distance: Int?)], totalCount: Int
  ) {
    let found = loaded.index.search(PlaceIndex.Query(search))
    let window = search.window.clamped(to: 0..<found.hits.count)
    return (found.hits[window].map { (loaded.keys[$0.point], $0.distance) }, found.totalCount)
  }

  public func get(id: String) async throws -> Place {
    let found = try await connections().reader.read { database in
      try database.queryOne(
        "SELECT \(PlaceSchema.columns) FROM places WHERE id = ?", [.text(id)], row: Self.keyedPlace)
    }
    guard let found else { throw NotFound(resource: "place", id: id) }
    return found.1
  }

  /// How many places the file holds.
  public func count() async throws -> Int {
    try await connections().reader.read { database in
      try database.queryOne("SELECT count(*) FROM places") { try $0.int(0) } ?? 0
    }
  }

  @Sendable static func keyedPlace(_ row: SQLiteRow) throws -> (Int64, Place) {
    let code = try row.text(3)
    guard let category = PlaceCategory(code: code) else {
      throw SQLiteError(code: 1, message: "unknown category group code \(code) in places")
    }
    return (
      try row.int64(0),
      Place(
        id: try row.text(1), placeName: try row.text(2), category: category,
        categoryName: try row.text(4), phone: try row.text(5), addressName: try row.text(6),
        roadAddressName: try row.text(7), x: try row.double(8), y: try row.double(9),
        placeUrl: try row.text(10))
    )
  }

  // MARK: - The index

  /// The current index, built on first use, rebuilt when the file changed
  /// under it. For benchmarks: `readDuration`, `buildDuration`, `memoryBytes`.
  public func loadedIndex() async throws -> LoadedIndex {
    let build = indexState.withLock { state in
      if let build = state.build { return build }
      let build = makeBuild()
      state.build = build
      state.lastCheck = .now
      return build
    }
    let loaded: LoadedIndex
    do {
      loaded = try await build.value
    } catch {
      indexState.withLock { state in
        if state.build == build { (state.build, state.loaded) = (nil, nil) }
      }
      throw error
    }
    indexState.withLock { state in
      if state.build == build { state.loaded = loaded }
    }
    let isDue = indexState.withLock { state in
      guard state.lastCheck.duration(to: .now) >= recheckInterval else { return false }
      state.lastCheck = .now
      return true
    }
    guard isDue else { return loaded }
    let version = try await connections().reader.read { database in try database.dataVersion() }
    guard version != loaded.dataVersion else { return loaded }
    return try await rebuild(replacing: build)
  }

  /// Builds a new index and makes it the current one, unless a newer build
  /// replaced `replaced` meanwhile (then that one is used).
  @discardableResult
  private func rebuild(replacing replaced: Task<LoadedIndex, any Error>?) async throws
    -> LoadedIndex
  {
    // The build starts inside the lock, after every commit that preceded
    // the call: the last build set reads them all.
    let build = indexState.withLock { state in
      if let current = state.build, current != replaced { return current }
      let build = makeBuild()
      // Searches wait for the new index rather than answer from the old one.
      (state.build, state.loaded) = (build, nil)
      state.lastCheck = .now
      return build
    }
    let loaded = try await build.value
    indexState.withLock { state in
      if state.build == build { state.loaded = loaded }
    }
    return loaded
  }

  private func makeBuild() -> Task<LoadedIndex, any Error> {
    let cellsPerDegree = cellsPerDegree
    return Task { [self] in
      let clock = ContinuousClock()
      let started = clock.now
      let rows = try await connections().reader.read { database in
        try Self.indexRows(database)
      }
      let read = clock.now
      let index = PlaceIndex(rows.points, cellsPerDegree: cellsPerDegree)
      return LoadedIndex(
        index: index, keys: rows.keys, dataVersion: rows.dataVersion,
        readDuration: read - started, buildDuration: clock.now - read)
    }
  }

  /// What the index is built from, read in one snapshot.
  private struct IndexRows: Sendable {
    var points: [PlaceIndex.Point] = []
    var keys: [Int64] = []
    var dataVersion: Int64 = 0
  }

  private static func indexRows(_ database: SQLiteDatabase) throws -> IndexRows {
    var rows = IndexRows()
    rows.dataVersion = try database.dataVersion()
    let count = try database.queryOne("SELECT count(*) FROM places") { try $0.int(0) } ?? 0
    rows.points.reserveCapacity(count)
    rows.keys.reserveCapacity(count)
    try database.withStatement(PlaceSchema.selectIndexed) { statement in
      while try statement.step() {
        let ordinal = try statement.int64(1)
        guard ordinal >= 0, let category = PlaceCategory(rawValue: UInt8(clamping: ordinal))
        else { continue }
        rows.keys.append(try statement.int64(0))
        rows.points.append(
          PlaceIndex.Point(
            category: category, x: try statement.double(2), y: try statement.double(3)))
      }
    }
    return rows
  }

  // MARK: - Import

  public func importPlaces(
    path: String, progress: @escaping @Sendable (PlaceImportProgress) -> Void
  ) async throws -> PlaceImportResult {
    let importer = PlaceImporter(path: path, progress: progress)
    let result = try await connections().writer.write { database in
      try importer.run(database)
    }
    // An index in use is rebuilt now, so that searches after the import's
    // answer see it; none yet, the first search builds it.
    if result.imported > 0, let current = indexState.withLock({ $0.build }) {
      do {
        try await rebuild(replacing: current)
      } catch {
        // The rows are committed, so the import succeeded; the failed build
        // is dropped by the next search, which builds the index again.
      }
    }
    return result
  }
}
