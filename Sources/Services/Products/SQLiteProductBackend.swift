import FoundationEssentials
import Protocol
import Synchronization

/// The embedded catalog: one SQLite file in the data dir, shared safely by
/// every daemon that opens it.
///
/// The file is opened on first use (a daemon's session asks for other
/// daemons' changes at `initialize`, which opens it in the background), so
/// starting never waits for it. A fresh file gets the demo catalog. Creates from many
/// callers are committed together (group commit): each is durable
/// (`synchronous=FULL`) before it is answered. Changes made by other daemons
/// are noticed through `PRAGMA data_version` and the `changes` log.
public final class SQLiteProductBackend: ProductBackend {
  public var kind: String { "embedded" }

  /// The catalog file.
  public let path: String
  /// Tells this daemon's own changes from other daemons' in the `changes` log.
  private let origin: String
  /// How often to look for other daemons' changes.
  private let pollInterval: Duration
  /// The connection, made on first use (it starts a thread of its own).
  private let lazyConnection = Mutex<SQLiteConnection?>(nil)
  /// When `externalChanges` was first asked for: other daemons' changes
  /// from then on are reported.
  private let watchedSince = Mutex<Int64?>(nil)
  /// Recent search counts; counting a broad search costs far more than its page.
  private let searchCounts = Mutex(SearchCounts<KeptCount>())
  /// A search's match count and the newest `search_changes` row it counts
  /// (see `CatalogSchema.version3`).
  private struct KeptCount {
    let count: Int
    let seq: Int64
  }
  /// The stream of other daemons' changes (a poll's at a time), and its continuation.
  private let external:
    (
      stream: AsyncStream<[ProductChange]>,
      continuation: AsyncStream<[ProductChange]>.Continuation
    )

  public init(path: String, origin: String, pollInterval: Duration = .milliseconds(200)) {
    self.path = path
    readers = SQLiteThreadReaders(path: path)
    images = DemoProductImages(
      dataDirectory: String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]))
    self.origin = origin
    self.pollInterval = pollInterval
    // Polls, not changes: up to a hundred polls' changes wait for a slow consumer.
    external = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(100))
  }

  deinit { external.continuation.finish() }

  /// The pictures of the demo products, beside the catalog file.
  private let images: DemoProductImages
  /// The read-only connections of the threads that answer reads at once.
  private let readers: SQLiteThreadReaders
  /// Set once the file has its schema: from then on the readers may open it.
  private let isMigrated = Atomic(false)

  /// The schema, then the demo catalog on a fresh file; version 4 gives the
  /// demo products (the first rows, still of their demo names) their pictures.
  static let migrations = {
    [
      SQLiteMigration(version: 1, sql: CatalogSchema.version1),
      SQLiteMigration(version: 2) { database in try seed(database) },
      SQLiteMigration(version: 3, sql: CatalogSchema.version3),
      SQLiteMigration(version: 4) { database in
        try database.execute(CatalogSchema.version4)
        for (offset, item) in DemoCatalog.items().enumerated() {
          try database.run(
            "UPDATE products SET image_url = ? WHERE id = ? AND name_ko = ? AND image_url IS NULL",
            [
              .text(DemoProductImages.storedValue(kind: item.kind)), .integer(Int64(offset + 1)),
              .text(item.nameKo),
            ])
        }
      },
    ]
  }()

  func connection() throws -> SQLiteConnection {
    let (connection, isNew) = try lazyConnection.withLock { stored in
      if let stored { return (stored, false) }
      // The data dir is made on first use, like the file in it.
      let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
      if !folder.isEmpty {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      }
      let made = try SQLiteConnection(path: path) { [weak self] database in
        try database.migrate(Self.migrations)
        self?.isMigrated.store(true, ordering: .releasing)
      }
      // The demo products list at once; their pictures follow.
      images.populateInBackground()
      stored = made
      return (made, true)
    }
    if isNew { startWatching(connection) }
    return connection
  }

  // MARK: - Reads

  public func list(_ query: ProductListQuery) async throws -> ProductPage {
    guard let resolved = try ProductListFilter(query) else {
      return ProductPage(items: [], nextCursor: nil, totalCount: 0)
    }
    let (filter, cursor, supplier) = (resolved.digest, resolved.cursor, resolved.supplier)
    let statements = ProductListSQL(query: query, filter: resolved)
    let countKey = SearchKey(text: statements.text, supplier: supplier)
    let (rows, total) = try await connection().read { [self] database in
      let count = statements.count
      guard statements.text != nil else {
        let page = try Self.unsearchedPage(statements, after: cursor, in: database)
        return (try database.query(page.sql, page.parameters, row: Self.product), page.total)
      }
      let log =
        try database.queryOne(
          """
          SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'search_changes'), 0),
            (SELECT through FROM search_changes_pruned)
          """, []
        ) { (newest: try $0.int64(0), pruned: try $0.int64(1)) } ?? (newest: 0, pruned: 0)
      let kept = searchCounts.withLock { $0.latest(countKey) }
      let matches: Int
      if let kept, kept.seq == log.newest {
        matches = kept.count
      } else if let kept, log.pruned <= kept.seq, kept.seq < log.newest {
        // The log still holds every row after the kept count's.
        let changes = statements.loggedChanges(after: kept.seq)
        let added = try database.queryOne(changes.sql, changes.parameters) { try $0.int(0) } ?? 0
        matches = kept.count + added
      } else {
        matches = try database.queryOne(count.sql, count.parameters) { try $0.int(0) } ?? 0
      }
      searchCounts.withLock { $0.store(KeptCount(count: matches, seq: log.newest), for: countKey) }
      let products =
        try database.queryOne(
          "SELECT n FROM product_counts WHERE supplier_id = ?", [.integer(supplier ?? -1)]
        ) {
          try $0.int(0)
        } ?? 0
      let page = statements.page(
        after: cursor, plan: statements.textPlan(matches: matches, total: products))
      return (try database.query(page.sql, page.parameters, row: Self.product), matches)
    }
    return images.resolved(
      ProductRow.page(
        rows, limit: query.limit, sort: query.sort, filter: filter, totalCount: total))
  }

  /// A page without search text: its total is one row of the kept counts,
  /// its rows one index range (the query returned, to be read).
  private static func unsearchedPage(
    _ statements: ProductListSQL, after cursor: ProductCursor?, in database: SQLiteDatabase
  ) throws -> (total: Int, sql: String, parameters: [SQLiteValue]) {
    let count = statements.count
    let total = try database.queryOne(count.sql, count.parameters) { try $0.int(0) } ?? 0
    let page = statements.page(after: cursor, plan: .scan)
    return (total, page.sql, page.parameters)
  }

  /// A page without search text, read on this thread (a search may count many
  /// rows, too long to hold up the thread that reads the client's requests)
  /// and written as JSON straight from the rows.
  public func listNow(_ query: ProductListQuery) throws -> EncodedJSON? {
    guard isMigrated.load(ordering: .acquiring) else { return nil }
    guard let resolved = try ProductListFilter(query) else {
      return EncodedJSON(ProductPage(items: [], nextCursor: nil, totalCount: 0).json)
    }
    let statements = ProductListSQL(query: query, filter: resolved)
    guard statements.text == nil else { return nil }
    let images = images
    return try readers.read { database in
      let page = try Self.unsearchedPage(statements, after: resolved.cursor, in: database)
      var output = JSONBuffer(capacity: 64 + query.limit * 512)
      try database.withStatement(page.sql) { statement in
        try statement.bind(page.parameters)
        try ProductRowJSON.writePage(
          statement, limit: query.limit, sort: query.sort, filter: resolved.digest,
          totalCount: page.total, images: images, into: &output)
      }
      return EncodedJSON(writtenBy: output.bytes)
    }
  }

  /// `get` on this thread's own read-only connection, written as JSON
  /// straight from the row.
  public func getNow(id: String) throws -> EncodedJSON? {
    guard isMigrated.load(ordering: .acquiring) else { return nil }
    guard let rowID = ProductRow.rowID(id) else { throw NotFound(resource: "product", id: id) }
    let images = images
    guard
      let found = try readers.readStatement({ database in
        try database.withStatement(Self.selectProductByID) { statement -> [UInt8]? in
          try statement.bind([.integer(rowID)])
          guard try statement.step() else { return nil }
          var output = JSONBuffer(capacity: 512)
          try statement.withColumns { try ProductRowJSON.write($0, images: images, into: &output) }
          return output.bytes
        }
      })
    else { return nil }
    guard let found else { throw NotFound(resource: "product", id: id) }
    return EncodedJSON(writtenBy: found)
  }

  public func get(id: String) async throws -> Product {
    guard let rowID = ProductRow.rowID(id) else { throw NotFound(resource: "product", id: id) }
    let found = try await connection().read { database in
      try database.queryOne(
        Self.selectProductByID, [.integer(rowID)], row: Self.product)
    }
    guard let found else { throw NotFound(resource: "product", id: id) }
    return images.resolved(found.product)
  }

  public func handedOut(imageURL url: String) async throws -> Bool {
    if images.isPicture(url) { return true }
    return try await connection().read { database in
      try database.queryOne(
        "SELECT 1 FROM products WHERE image_url = ? AND image_url NOT GLOB 'catalogd-demo:*'",
        [.text(url)]
      ) { _ in true } ?? false
    }
  }

  public func suppliers() async throws -> [Supplier] {
    try await connection().read { database in
      try database.query("SELECT id, name FROM suppliers ORDER BY name, id", []) { row in
        Supplier(id: String(try row.int64(0)), name: try row.text(1))
      }
    }
  }

  // MARK: - Writes

  public func create(_ draft: ProductDraft) async throws -> Product {
    let supplier = try ProductRow.supplierRowID(draft.supplierId)
    let origin = origin
    let images = images
    return try await connection().writeBatched { database in
      images.resolved(try Self.insert(draft, supplier: supplier, origin: origin, into: database))
    }
  }

  /// Adds the product `draft` describes and logs its creation; returns it as
  /// stored. Tests call it to make many creates in one transaction.
  static func insert(
    _ draft: ProductDraft, supplier: Int64?, origin: String, into database: SQLiteDatabase
  ) throws -> Product {
    if let supplier { try requireSupplier(database, supplier) }
    let now = RFC3339.nowMicroseconds()
    try database.run(
      """
      INSERT INTO products
        (name_ko, name_en, price, supplier_id, created_at, updated_at, search_text, image_url)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        .text(draft.nameKo), SQLiteValue(draft.nameEn), .integer(Int64(draft.price)),
        SQLiteValue(supplier), .integer(now), .integer(now),
        .text(ProductSearch.text(nameKo: draft.nameKo, nameEn: draft.nameEn)),
        SQLiteValue(draft.imageUrl),
      ])
    let id = database.lastInsertRowID
    try logChange(database, .created, id: id, origin: origin)
    return try fetch(database, id: id)
  }

  public func update(id: String, _ patch: ProductPatch, expectedVersion: Int?) async throws
    -> Product
  {
    guard let rowID = ProductRow.rowID(id) else { throw NotFound(resource: "product", id: id) }
    let supplier: Int64?? = try patch.supplierId.map { value in try ProductRow.supplierRowID(value)
    }
    let (origin, images) = (origin, images)
    return try await connection().write { database in
      guard
        let current = try database.queryOne(
          "SELECT version FROM products WHERE id = ?", [.integer(rowID)], row: { try $0.int64(0) })
      else { throw NotFound(resource: "product", id: id) }
      if let expectedVersion, Int64(expectedVersion) != current {
        throw ProductsError.conflict(currentVersion: Int(current))
      }
      if case .some(.some(let supplier)) = supplier { try Self.requireSupplier(database, supplier) }
      var assignments = ["version = version + 1", "updated_at = ?"]
      var parameters: [SQLiteValue] = [.integer(RFC3339.nowMicroseconds())]
      if let nameKo = patch.nameKo {
        assignments.append("name_ko = ?")
        parameters.append(.text(nameKo))
      }
      if let nameEn = patch.nameEn {
        assignments.append("name_en = ?")
        parameters.append(SQLiteValue(nameEn))
      }
      if let price = patch.price {
        assignments.append("price = ?")
        parameters.append(.integer(Int64(price)))
      }
      if let supplier {
        assignments.append("supplier_id = ?")
        parameters.append(SQLiteValue(supplier))
      }
      if let imageUrl = patch.imageUrl {
        assignments.append("image_url = ?")
        parameters.append(SQLiteValue(imageUrl))
      }
      // Only fixed column names are joined into the SQL; every value is bound.
      try database.run(
        "UPDATE products SET \(assignments.joined(separator: ", ")) WHERE id = ?",
        parameters + [.integer(rowID)])
      let product = try Self.fetch(database, id: rowID)
      if patch.nameKo != nil || patch.nameEn != nil {
        try database.run(
          "UPDATE products SET search_text = ? WHERE id = ?",
          [
            .text(ProductSearch.text(nameKo: product.nameKo, nameEn: product.nameEn)),
            .integer(rowID),
          ])
      }
      try Self.logChange(database, .updated, id: rowID, origin: origin)
      return images.resolved(product)
    }
  }

  public func delete(id: String) async throws {
    guard let rowID = ProductRow.rowID(id) else { throw NotFound(resource: "product", id: id) }
    let origin = origin
    try await connection().write { database in
      guard try database.run("DELETE FROM products WHERE id = ?", [.integer(rowID)]) > 0 else {
        throw NotFound(resource: "product", id: id)
      }
      try Self.logChange(database, .deleted, id: rowID, origin: origin)
    }
  }

  private static func requireSupplier(_ database: SQLiteDatabase, _ id: Int64) throws {
    guard
      try database.queryOne(
        "SELECT 1 FROM suppliers WHERE id = ?", [.integer(id)], row: { _ in true }) != nil
    else { throw InvalidArgument(field: "supplierId", reason: "no supplier with id \(id)") }
  }

  private static func logChange(
    _ database: SQLiteDatabase, _ reason: ProductChange.Reason, id: Int64, origin: String
  ) throws {
    try database.run(
      "INSERT INTO changes (reason, product_id, origin, at) VALUES (?, ?, ?, ?)",
      [.text(reason.rawValue), .integer(id), .text(origin), .integer(RFC3339.nowMicroseconds())])
  }

  // MARK: - Rows

  /// A product's columns as `product(_:)` reads them, from `products p`
  /// joined with `suppliers s`.
  static let productColumns = """
    p.id, p.name_ko, p.name_en, p.price, p.supplier_id, s.name, p.created_at, p.updated_at,
      p.version, p.image_url
    """

  static let selectProduct = """
    SELECT \(productColumns)
    FROM products p LEFT JOIN suppliers s ON s.id = p.supplier_id
    """

  static let selectProductByID = selectProduct + " WHERE p.id = ?"

  @Sendable static func product(_ row: SQLiteRow) throws -> ProductRow {
    let created = try row.int64(6)
    let supplier =
      try row.isNull(4) ? nil : Supplier(id: String(try row.int64(4)), name: try row.text(5))
    return ProductRow(
      product: Product(
        id: String(try row.int64(0)), nameKo: try row.text(1),
        nameEn: try row.isNull(2) ? nil : try row.text(2), price: Int(try row.int64(3)),
        supplier: supplier, createdAt: RFC3339.string(microseconds: created),
        updatedAt: RFC3339.string(microseconds: try row.int64(7)), version: Int(try row.int64(8)),
        imageUrl: try row.isNull(9) ? nil : try row.text(9)),
      createdMicroseconds: created)
  }

  private static func fetch(_ database: SQLiteDatabase, id: Int64) throws -> Product {
    guard
      let row = try database.queryOne(
        selectProductByID, [.integer(id)], row: product)
    else { throw NotFound(resource: "product", id: String(id)) }
    return row.product
  }

  // MARK: - Demo data

  /// Fills a fresh catalog with the demo suppliers and products.
  private static func seed(_ database: SQLiteDatabase) throws {
    for name in DemoCatalog.suppliers {
      try database.run("INSERT INTO suppliers (name) VALUES (?)", [.text(name)])
    }
    try insert(DemoCatalog.items(), into: database)
  }

  /// Adds `count` generated products (`DemoCatalog.bulkItems`) in large
  /// transactions, reporting progress after each; for benchmarks and load tests.
  public func seed(count: Int, progress: @Sendable (Int) -> Void) async throws {
    let connection = try connection()
    let batchSize = 20_000
    var inserted = 0
    while inserted < count {
      let batch = min(batchSize, count - inserted)
      let items = DemoCatalog.bulkItems(
        count: batch, seed: UInt64(inserted + 1), first: inserted, of: count)
      try await connection.write { database in
        try Self.insert(items, into: database, withImages: true)
      }
      inserted += batch
      progress(inserted)
    }
    try await connection.checkpoint()
  }

  /// Inserts `items`, each with its kind's picture `withImages` (the first
  /// seeding runs before the column exists; version 4 adds them).
  private static func insert(
    _ items: [DemoCatalog.Item], into database: SQLiteDatabase, withImages: Bool = false
  ) throws {
    let now = RFC3339.nowMicroseconds()
    let columns = withImages ? ", image_url" : ""
    let values = withImages ? ", ?" : ""
    for item in items {
      let created = now - Int64(item.ageSeconds) * 1_000_000
      var parameters: [SQLiteValue] = [
        .text(item.nameKo), SQLiteValue(item.nameEn), .integer(Int64(item.price)),
        SQLiteValue(item.supplier.map { Int64($0 + 1) }), .integer(created), .integer(created),
        .text(ProductSearch.text(nameKo: item.nameKo, nameEn: item.nameEn)),
      ]
      if withImages { parameters.append(.text(DemoProductImages.storedValue(kind: item.kind))) }
      try database.run(
        """
        INSERT INTO products
          (name_ko, name_en, price, supplier_id, created_at, updated_at, search_text\(columns))
        VALUES (?, ?, ?, ?, ?, ?, ?\(values))
        """, parameters)
    }
  }

  // MARK: - Other daemons' changes

  /// Other daemons' changes from the first call on (the daemon asks at
  /// `initialize`). The catalog is opened in the background to watch it; one
  /// that cannot be opened says why at its first request.
  public func externalChanges() -> AsyncStream<[ProductChange]> {
    watchedSince.withLock { $0 = $0 ?? RFC3339.nowMicroseconds() }
    Task { [weak self] in _ = try? self?.connection() }
    return external.stream
  }

  /// Polls `PRAGMA data_version` (it changes when another connection commits)
  /// and reads the new entries of the `changes` log made by other daemons,
  /// from the moment watching was asked for, each with its product as it is
  /// now, in one query: a poll's changes are yielded together, one element
  /// of the stream. A failed poll (the file busy for longer than the busy
  /// timeout) is tried again at the next interval.
  private func startWatching(_ connection: SQLiteConnection) {
    let origin = origin
    let continuation = external.continuation
    let interval = pollInterval
    let images = images
    let since = watchedSince.withLock { $0 } ?? RFC3339.nowMicroseconds()
    Task { [weak self] in
      var watch: (lastSeq: Int64, lastVersion: Int64)?
      while self != nil, !Task.isCancelled {
        do {
          guard let current = watch else {
            watch = try await connection.read { database in
              let seq = try database.queryOne(
                "SELECT coalesce(max(seq), 0) FROM changes WHERE at < ?", [.integer(since)]
              ) { try $0.int64(0) }
              return (seq ?? 0, -1)
            }
            continue
          }
          let poll = try await connection.read { database in
            try Self.poll(database, after: current, origin: origin)
          }
          if let poll {
            watch = (poll.maxSeq, poll.version)
            if poll.entries.count == Self.pollLimit {
              // Too many to tell one by one: the clients reload what they show.
              continuation.yield([ProductChange(reason: .resync, id: nil)])
            } else {
              let changes = poll.entries.compactMap { entry in
                entry.reason.map { reason in
                  ProductChange(
                    reason: reason, id: String(entry.id),
                    product: entry.product.map(images.resolved))
                }
              }
              if !changes.isEmpty { continuation.yieldOrResync(changes) }
            }
          }
        } catch {
          // Reported changes may have been missed while the file could not be read.
          if watch != nil { continuation.yield([ProductChange(reason: .resync, id: nil)]) }
        }
        try? await Task.sleep(for: interval)
      }
    }
  }

  /// The most log entries one poll reads: more mean a resync.
  static let pollLimit = 1_000

  /// One entry of the `changes` log, with its product as the poll read it
  /// (nil for a delete, or when the product is gone by then).
  private struct LoggedChange: Sendable {
    /// Nil for a reason this daemon does not know (skipped; it still counts
    /// toward the poll's limit).
    let reason: ProductChange.Reason?
    let id: Int64
    let product: Product?
  }

  /// The other daemons' log entries after `after.lastSeq`, joined with their
  /// products, and the newest seq and `data_version`; nil when the version
  /// did not move (nobody else committed).
  private static func poll(
    _ database: SQLiteDatabase, after: (lastSeq: Int64, lastVersion: Int64), origin: String
  ) throws -> (entries: [LoggedChange], maxSeq: Int64, version: Int64)? {
    let version = try database.dataVersion()
    guard version != after.lastVersion else { return nil }
    let entries = try database.query(
      """
      SELECT \(productColumns), c.reason, c.product_id
      FROM changes c
      LEFT JOIN products p ON p.id = c.product_id AND c.reason != 'deleted'
      LEFT JOIN suppliers s ON s.id = p.supplier_id
      WHERE c.seq > ? AND c.origin != ? ORDER BY c.seq LIMIT ?
      """,
      [.integer(after.lastSeq), .text(origin), .integer(Int64(pollLimit))]
    ) { row in
      LoggedChange(
        reason: ProductChange.Reason(rawValue: try row.text(10)), id: try row.int64(11),
        product: try row.isNull(0) ? nil : try product(row).product)
    }
    let maxSeq = try database.queryOne("SELECT coalesce(max(seq), 0) FROM changes", []) {
      try $0.int64(0)
    }
    return (entries, maxSeq ?? 0, version)
  }
}
