import Protocol
import Synchronization

/// The shared catalog: products and suppliers in a PostgreSQL database that
/// any number of daemons, on any number of machines, use at once.
///
/// Same methods, cursors, search and errors as the embedded catalog. Every
/// change sends a notification from a trigger at commit; each daemon listens
/// on its own connection, tells its client about other daemons' changes, and
/// after a broken connection sends `resync`. While the database cannot be
/// reached, calls fail with `UpstreamFailure.unavailable` (-32020,
/// retryable) and the next call connects again.
public final class PostgresProductBackend: ProductBackend, ProductSeeding {
  public var kind: String { "postgres" }

  private let url: String
  private let milliseconds: String
  /// The connections, made on first use (each starts a thread of its own and
  /// connects at its first call): searches, other reads and writes each go
  /// on their own, so that a `get` or a page never waits behind a search
  /// that counts nor a read behind a commit (an fsync).
  private let lazyConnections = Mutex<Connections?>(nil)
  private struct Connections {
    let reads: PostgresConnection
    let searches: PostgresConnection
    let writes: PostgresConnection
    /// Creates that arrive together share one transaction (see `createBatch`).
    let creates: PostgresGroupCommit<NewProduct, Product>
  }
  /// A create's draft, with its supplier's row id.
  private struct NewProduct: Sendable {
    let draft: ProductDraft
    let supplier: Int64?
  }
  private let listener: PostgresListener
  /// Tells this daemon's changes from others' in notifications.
  private let origin: String
  /// Whether the listener was started (by the first `externalChanges`).
  private let isWatching = Atomic<Bool>(false)
  /// Calls wait until the listener's first attempt ended, so a client hears of
  /// every change made after its first products request was answered.
  private let listenerStart = Mutex(ListenerStart.notStarted)
  private enum ListenerStart {
    case notStarted
    case starting([CheckedContinuation<Void, Never>])
    case done
  }
  private let external:
    (
      stream: AsyncStream<[ProductChange]>,
      continuation: AsyncStream<[ProductChange]>.Continuation
    )

  /// - Parameters:
  ///   - url: a `postgres://` URL (libpq's environment fills what it leaves out).
  ///   - origin: this daemon's id, written with its changes.
  ///   - statementTimeout: the longest a statement may run before the server cancels it.
  ///   - log: failures of the listening connection.
  ///   - images: where this daemon keeps the demo products' pictures.
  public init(
    url: String, origin: String, statementTimeout: Duration,
    log: @escaping @Sendable (String) -> Void = { _ in }, images: DemoProductImages
  ) {
    self.images = images
    let (seconds, attoseconds) = statementTimeout.components
    milliseconds = String(max(seconds * 1000 + attoseconds / 1_000_000_000_000_000, 1))
    self.url = url
    listener = PostgresListener(url: url, channel: PostgresCatalogSchema.channel)
    self.origin = origin
    self.log = log
    external = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1_000))
  }

  /// The connections; each new session gets the statement timeout and this
  /// daemon's origin, then brings the schema up to date. Its statements are
  /// short and many daemons send them: no parallel workers (starting them
  /// cost more than they saved, measured in Benchmarks/README.md, "Figures
  /// behind the code's constants").
  private func connections() throws -> Connections {
    try lazyConnections.withLock { stored in
      if let stored { return stored }
      let (milliseconds, origin) = (milliseconds, origin)
      images.populateInBackground()
      let configure: PostgresConnection.Configure = { session in
        try session.execute(
          """
          SELECT set_config('statement_timeout', $1, false), set_config('catalogd.origin', $2, false),
            set_config('max_parallel_workers_per_gather', '0', false)
          """,
          [milliseconds, origin])
        try session.migrate(Self.migrations)
      }
      let writes = try PostgresConnection(url: url, configure: configure)
      let made = Connections(
        reads: try PostgresConnection(url: url, configure: configure),
        searches: try PostgresConnection(url: url, configure: configure), writes: writes,
        creates: PostgresGroupCommit(maxBatchSize: 500) { products in
          await Self.createBatch(products, on: writes)
        })
      stored = made
      return made
    }
  }

  private let log: @Sendable (String) -> Void

  deinit {
    listener.stop()
    external.continuation.finish()
  }

  /// The demo products' pictures in this daemon's data dir.
  private let images: DemoProductImages

  /// The schema and the demo catalog; version 6 gives the demo products
  /// (the first rows, still of their demo names) their pictures.
  static let migrations = {
    [
      PostgresMigration(version: 1, sql: PostgresCatalogSchema.version1),
      PostgresMigration(version: 2) { session in
        for name in DemoCatalog.suppliers {
          try session.execute("INSERT INTO suppliers (name) VALUES ($1)", [name])
        }
        try insert(DemoCatalog.items(), into: session, origin: nil, withImages: false)
      },
      PostgresMigration(version: 3, sql: PostgresCatalogSchema.version3),
      PostgresMigration(version: 4, sql: PostgresCatalogSchema.version4),
      PostgresMigration(version: 5, sql: PostgresCatalogSchema.version5),
      PostgresMigration(version: 6) { session in
        try session.executeScript(PostgresCatalogSchema.version6)
        let items = DemoCatalog.items()
        // Nothing a client shows changed: no products/changed for the demo products
        // (the trigger is off for this transaction only; DDL is transactional).
        try session.execute("ALTER TABLE products DISABLE TRIGGER products_updated")
        try session.execute(
          """
          UPDATE products p SET image_url = d.url
          FROM unnest($1::bigint[], $2::text[], $3::text[]) AS d(id, name, url)
          WHERE p.id = d.id AND p.name_ko = d.name AND p.image_url IS NULL
          """,
          [
            PostgresArray.literal(items.indices.map { String($0 + 1) }),
            PostgresArray.literal(items.map(\.nameKo)),
            PostgresArray.literal(items.map { DemoProductImages.storedValue(kind: $0.kind) }),
          ])
        try session.execute("ALTER TABLE products ENABLE TRIGGER products_updated")
      },
    ]
  }()

  /// Match counts of recent searches.
  private let searchCounts = Mutex(SearchCounts<PostgresKeptCount>())

  /// How long the change log keeps rows after every snapshot saw them: five
  /// times as long as a kept count is brought up to date from it
  /// (`PostgresKeptCount.snapshotLifetimeNanoseconds`), for the margin.
  static let logKept = "5 minutes"
  /// How often this daemon prunes the change log, after a write.
  static let pruneIntervalNanoseconds: UInt64 = 30_000_000_000
  /// The most log rows one prune removes, so that it holds up the writes
  /// behind it only briefly; a prune that removed this many runs again after
  /// the next write.
  static let pruneBatch = 20_000
  /// When this daemon last pruned (`monotonicNanoseconds`), 0 for never.
  private let lastPrune = Mutex<UInt64>(0)

  /// How a body uses the connection (see `PostgresConnection`).
  private enum Access {
    /// Read-only statements outside a transaction, each its own snapshot.
    case statements
    /// The same, for a search.
    case search
    case write
  }

  /// Runs `body` on the connection; a database that cannot serve becomes
  /// `UpstreamFailure.unavailable`, a missing supplier `InvalidArgument`.
  private func database<T: Sendable>(
    _ access: Access, supplier: Int64? = nil,
    _ body: @escaping @Sendable (PostgresSession) throws -> T
  ) async throws -> T {
    await listenerStarted()
    do {
      let connections = try connections()
      switch access {
      case .statements: return try await connections.reads.readStatements(body)
      case .search: return try await connections.searches.readStatements(body)
      case .write:
        let result = try await connections.writes.write(body)
        pruneChangeLogIfDue(connections.writes)
        return result
      }
    } catch {
      throw Self.serviceError(error, supplier: supplier)
    }
  }

  /// A database that cannot serve, or a transaction that lost every retry of
  /// a race, becomes `UpstreamFailure.unavailable` (retryable), a missing
  /// supplier `InvalidArgument`; other errors stay as they are.
  private static func serviceError(_ error: any Error, supplier: Int64?) -> any Error {
    guard let error = error as? PostgresError else { return error }
    if error.isRetryable {
      return UpstreamFailure.unavailable(service: "products", reason: "database: \(error.message)")
    }
    if error.sqlState == "23503" {
      return InvalidArgument(
        field: "supplierId", reason: "no supplier with id \(supplier.map { String($0) } ?? "?")")
    }
    return error
  }

  private func listenerStarted() async {
    guard listenerStart.withLock({ if case .starting = $0 { true } else { false } }) else { return }
    await withCheckedContinuation { waiter in
      let waits = listenerStart.withLock { state in
        guard case .starting(let waiters) = state else { return false }
        state = .starting(waiters + [waiter])
        return true
      }
      if !waits { waiter.resume() }
    }
  }

  private func listenerDidStart() {
    let waiters = listenerStart.withLock { state -> [CheckedContinuation<Void, Never>] in
      defer { state = .done }
      guard case .starting(let waiters) = state else { return [] }
      return waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  // MARK: - Reads

  public func list(_ query: ProductListQuery) async throws -> ProductPage {
    guard let resolved = try ProductListFilter(query) else {
      return ProductPage(items: [], nextCursor: nil, totalCount: 0)
    }
    let (filter, cursor, supplier) = (resolved.digest, resolved.cursor, resolved.supplier)
    let statements = PostgresProductListSQL(query: query, filter: resolved)
    // No name holds U+0000 (PostgreSQL's text cannot), so nothing matches it.
    if statements.text?.unicodeScalars.contains("\u{0}") == true {
      return ProductPage(items: [], nextCursor: nil, totalCount: 0)
    }
    let countKey = SearchKey(text: statements.text, supplier: supplier)
    let access: Access = statements.text == nil ? .statements : .search
    let (rows, total) = try await database(access) { [self] session in
      var kept = statements.text == nil ? nil : searchCounts.withLock { $0.latest(countKey) }
      if statements.text != nil && kept == nil {
        // Never counted: count first, so that the page's plan is chosen from
        // the count. If the catalog changes meanwhile, the page brings the
        // count up to date.
        let count = statements.searchCount
        if let row = try session.execute(count.sql, count.parameters).first {
          kept = try Self.keptCount(row.int(1), products: row.int(0), row, at: 2)
        }
      }
      let page = statements.page(
        after: cursor,
        plan: kept.map { statements.plan(matches: $0.count, products: $0.products) },
        kept: kept, now: monotonicNanoseconds())
      // Without text the page's plan is the same whatever the values.
      let result =
        statements.text == nil
        ? try session.executePrepared(page.sql, page.parameters)
        : try session.execute(page.sql, page.parameters)
      guard let head = result.first else { return ([ProductRow](), 0) }
      let total = try head.isNull(Self.columnCount) ? kept?.count ?? 0 : head.int(Self.columnCount)
      if statements.text != nil {
        let counted = try Self.keptCount(
          total, products: kept?.products ?? 0, head, at: Self.columnCount + 1)
        searchCounts.withLock { $0.store(counted, for: countKey) }
      }
      let rows = try result.rows.filter { !$0.isNull(0) }.map(Self.product)
      return (rows, total)
    }
    return images.resolved(
      ProductRow.page(
        rows, limit: query.limit, sort: query.sort, filter: filter, totalCount: total))
  }

  /// A search's `count`, kept with `PostgresProductListSQL.keptColumns`,
  /// which start at `column` of `row`.
  private static func keptCount(
    _ count: Int, products: Int, _ row: PostgresRow, at column: Int
  ) throws(PostgresError) -> PostgresKeptCount {
    PostgresKeptCount(
      count: count, products: products, version: try row.int64(column),
      unlogged: try row.int64(column + 1), snapshot: try row.text(column + 2),
      at: monotonicNanoseconds())
  }

  public func get(id: String) async throws -> Product {
    guard let rowID = ProductRow.rowID(id) else { throw NotFound(resource: "product", id: id) }
    let found = try await database(.statements) { session in
      try session.executePrepared(Self.selectProduct + " WHERE p.id = $1::bigint", [String(rowID)])
        .first.map(Self.product)
    }
    guard let found else { throw NotFound(resource: "product", id: id) }
    return images.resolved(found.product)
  }

  public func handedOut(imageURL url: String) async throws -> Bool {
    if images.isPicture(url) { return true }
    return try await database(.statements) { session in
      try !session.executePrepared(
        "SELECT 1 FROM products WHERE image_url = $1 AND image_url NOT LIKE 'catalogd-demo:%'",
        [url]
      ).rows.isEmpty
    }
  }

  public func suppliers() async throws -> [Supplier] {
    try await database(.statements) { session in
      try session.executePrepared("SELECT id, name FROM suppliers ORDER BY name COLLATE \"C\", id")
        .rows
        .map { row throws(PostgresError) in
          Supplier(id: String(try row.int64(0)), name: try row.text(1))
        }
    }
  }

  // MARK: - Writes

  public func create(_ draft: ProductDraft) async throws -> Product {
    let supplier = try ProductRow.supplierRowID(draft.supplierId)
    await listenerStarted()
    let opened: Connections
    do {
      opened = try connections()
    } catch {
      throw Self.serviceError(error, supplier: supplier)
    }
    let product = try await opened.creates.submit(NewProduct(draft: draft, supplier: supplier))
    pruneChangeLogIfDue(opened.writes)
    return images.resolved(product)
  }

  /// Prunes the change log (`PostgresCatalogSchema.version5`) on `writes` once
  /// `pruneIntervalNanoseconds` have passed since this daemon last did. Every
  /// daemon that writes prunes what every daemon wrote, so the log holds
  /// about `logKept` of writes, whoever made them.
  private func pruneChangeLogIfDue(_ writes: PostgresConnection) {
    let now = monotonicNanoseconds()
    let isDue = lastPrune.withLock { last in
      guard last == 0 || now &- last >= Self.pruneIntervalNanoseconds else { return false }
      last = now
      return true
    }
    guard isDue else { return }
    let log = log
    Task { [weak self] in
      do {
        let removed = try await writes.write { session in
          try session.execute(
            "SELECT catalog_log_prune($1::interval, $2::bigint)",
            [Self.logKept, String(Self.pruneBatch)]
          ).first?.int(0) ?? 0
        }
        if removed == Self.pruneBatch { self?.lastPrune.withLock { $0 = 0 } }
      } catch {
        log("could not prune the products change log: \(error)")
      }
    }
  }

  /// Inserts the creates of one group commit in one statement and one
  /// transaction. If it fails for a reason of one product (its supplier
  /// deleted meanwhile, say), nothing was written, and each is inserted
  /// alone so that only that one fails. If the database could not serve, all
  /// fail: the commit may or may not have happened, so none is tried again.
  private static func createBatch(_ products: [NewProduct], on connection: PostgresConnection) async
    -> [Result<Product, any Error>]
  {
    do {
      return try await connection.write { session in try insert(products, into: session) }
        .map { .success($0) }
    } catch {
      let isUnavailable = (error as? PostgresError)?.isUnavailable ?? false
      guard products.count > 1, !isUnavailable else {
        return products.map { .failure(serviceError(error, supplier: $0.supplier)) }
      }
    }
    var results: [Result<Product, any Error>] = []
    for product in products {
      do {
        let inserted = try await connection.write { try insert([product], into: $0) }
        results.append(.success(inserted[0]))
      } catch {
        results.append(.failure(serviceError(error, supplier: product.supplier)))
      }
    }
    return results
  }

  /// Inserts `products` in one statement and returns them in their order.
  /// They are inserted by supplier, so that every writer takes the rows of
  /// `product_counts` in one order (no deadlock between daemons), and share
  /// one creation time.
  private static func insert(_ products: [NewProduct], into session: PostgresSession) throws
    -> [Product]
  {
    var columns: [[String?]] = Array(repeating: [], count: 6)
    for product in products {
      let draft = product.draft
      columns[0].append(draft.nameKo)
      columns[1].append(draft.nameEn)
      columns[2].append(String(draft.price))
      columns[3].append(product.supplier.map { String($0) })
      columns[4].append(ProductSearch.text(nameKo: draft.nameKo, nameEn: draft.nameEn))
      columns[5].append(draft.imageUrl)
    }
    let rows = try session.execute(
      """
      WITH p AS (
        INSERT INTO products
          (name_ko, name_en, price, supplier_id, created_at, updated_at, search_text, image_url)
        SELECT k, e, pr, s, clock.now, clock.now, t, i
        FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::text[])
          WITH ORDINALITY AS item(k, e, pr, s, t, i, n), \(now)
        ORDER BY coalesce(s, 0), n
        RETURNING *
      )
      \(selectColumns) FROM p LEFT JOIN suppliers s ON s.id = p.supplier_id ORDER BY p.id
      """, columns.map(PostgresArray.literal)
    ).rows.map(Self.product)
    // Each product goes back to a draft with its values; drafts alike are alike.
    var byValues: [CreatedValues: [Product]] = [:]
    for row in rows.reversed() {
      byValues[CreatedValues(row.product), default: []].append(row.product)
    }
    return try products.map { product throws(PostgresError) in
      let values = CreatedValues(product.draft, supplier: product.supplier)
      guard let found = byValues[values]?.popLast() else {
        throw PostgresError(kind: .statement, message: "INSERT returned no row for a product")
      }
      return found
    }
  }

  /// What a create sets, to tell the inserted rows apart.
  private struct CreatedValues: Hashable {
    let nameKo: String
    let nameEn: String?
    let price: Int
    let supplier: String?
    let imageUrl: String?

    init(_ product: Product) {
      (nameKo, nameEn, price, supplier, imageUrl) =
        (product.nameKo, product.nameEn, product.price, product.supplier?.id, product.imageUrl)
    }

    init(_ draft: ProductDraft, supplier: Int64?) {
      (nameKo, nameEn, price, self.supplier, imageUrl) =
        (draft.nameKo, draft.nameEn, draft.price, supplier.map { String($0) }, draft.imageUrl)
    }
  }

  public func update(id: String, _ patch: ProductPatch, expectedVersion: Int?) async throws
    -> Product
  {
    guard let rowID = ProductRow.rowID(id) else { throw NotFound(resource: "product", id: id) }
    let supplier: Int64?? = try patch.supplierId.map { value in try ProductRow.supplierRowID(value)
    }
    return try await database(.write, supplier: supplier ?? nil) { [images] session in
      guard
        let current = try session.execute(
          "SELECT version, name_ko, name_en FROM products WHERE id = $1::bigint FOR UPDATE",
          [String(rowID)]
        ).first
      else { throw NotFound(resource: "product", id: id) }
      let version = try current.int(0)
      if let expectedVersion, expectedVersion != version {
        throw ProductsError.conflict(currentVersion: version)
      }
      let nameKo = try patch.nameKo ?? current.text(1)
      let nameEn = patch.nameEn ?? current.values[2]
      var assignments = [
        "version = version + 1", "updated_at = (SELECT now FROM \(Self.now))",
        "search_text = $2",
      ]
      var parameters: [String?] = [
        String(rowID), ProductSearch.text(nameKo: nameKo, nameEn: nameEn),
      ]
      func assign(_ column: String, _ value: String?, cast: String = "") {
        parameters.append(value)
        assignments.append("\(column) = $\(parameters.count)\(cast)")
      }
      if let nameKo = patch.nameKo { assign("name_ko", nameKo) }
      if let nameEn = patch.nameEn { assign("name_en", nameEn) }
      if let price = patch.price { assign("price", String(price), cast: "::bigint") }
      if let supplier { assign("supplier_id", supplier.map { String($0) }, cast: "::bigint") }
      if let imageUrl = patch.imageUrl { assign("image_url", imageUrl) }
      // Only fixed column names are joined into the SQL; every value is bound.
      let updated = try session.execute(
        """
        WITH p AS (
          UPDATE products SET \(assignments.joined(separator: ", ")) WHERE id = $1::bigint RETURNING *
        )
        \(Self.selectColumns) FROM p LEFT JOIN suppliers s ON s.id = p.supplier_id
        """, parameters
      ).first
      guard let updated else { throw NotFound(resource: "product", id: id) }
      return try images.resolved(Self.product(updated).product)
    }
  }

  public func delete(id: String) async throws {
    guard let rowID = ProductRow.rowID(id) else { throw NotFound(resource: "product", id: id) }
    let deleted = try await database(.write) { session in
      try session.execute("DELETE FROM products WHERE id = $1::bigint", [String(rowID)]).affected
    }
    guard deleted > 0 else { throw NotFound(resource: "product", id: id) }
  }

  // MARK: - Rows

  /// The server's clock in microseconds since the epoch, one value per
  /// statement: creation times from many machines share one clock.
  static let now =
    "(SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint AS now) AS clock"

  /// The columns of `selectColumns`, which `product` reads.
  static let columnCount = 10

  static let selectColumns = """
    SELECT p.id, p.name_ko, p.name_en, p.price, p.supplier_id, s.name, p.created_at, p.updated_at,
      p.version, p.image_url
    """

  static let selectProduct =
    selectColumns + " FROM products p LEFT JOIN suppliers s ON s.id = p.supplier_id"

  static func product(_ row: PostgresRow) throws(PostgresError) -> ProductRow {
    let created = try row.int64(6)
    let supplier =
      row.isNull(4) ? nil : Supplier(id: String(try row.int64(4)), name: try row.text(5))
    return ProductRow(
      product: Product(
        id: String(try row.int64(0)), nameKo: try row.text(1), nameEn: row.values[2],
        price: try row.int(3), supplier: supplier,
        createdAt: RFC3339.string(microseconds: created),
        updatedAt: RFC3339.string(microseconds: try row.int64(7)), version: try row.int(8),
        imageUrl: row.values[9]),
      createdMicroseconds: created)
  }

  // MARK: - Demo data

  public func seed(count: Int, progress: @Sendable (Int) -> Void) async throws {
    let batchSize = 20_000
    var inserted = 0
    let origin = origin
    while inserted < count {
      let batch = min(batchSize, count - inserted)
      let items = DemoCatalog.bulkItems(
        count: batch, seed: UInt64(inserted + 1), first: inserted, of: count)
      try await database(.write) { session in
        try Self.insert(items, into: session, origin: origin, withImages: true)
      }
      inserted += batch
      progress(inserted)
    }
  }

  /// Inserts `items` in one statement, with the per-row trigger work done
  /// once for all: counts added by supplier, and (with an `origin`) one
  /// `resync` notification instead of one per product.
  private static func insert(
    _ items: [DemoCatalog.Item], into session: PostgresSession, origin: String?,
    withImages: Bool
  ) throws {
    try session.execute("SELECT set_config('catalogd.bulk', 'on', true)")
    // The first seeding runs before the image column exists (version 6 adds it).
    let imageColumn = withImages ? ", image_url" : ""
    let imageValue = withImages ? ", i" : ""
    let imageArray = withImages ? ", $7::text[]" : ""
    var columns: [[String?]] = Array(repeating: [], count: withImages ? 7 : 6)
    var bySupplier: [Int64: Int] = [:]
    for item in items {
      let supplier = item.supplier.map { Int64($0 + 1) }
      columns[0].append(item.nameKo)
      columns[1].append(item.nameEn)
      columns[2].append(String(item.price))
      columns[3].append(supplier.map { String($0) })
      columns[4].append(String(-Int64(item.ageSeconds) * 1_000_000))
      columns[5].append(ProductSearch.text(nameKo: item.nameKo, nameEn: item.nameEn))
      if withImages { columns[6].append(DemoProductImages.storedValue(kind: item.kind)) }
      bySupplier[supplier ?? 0, default: 0] += 1
    }
    try session.execute(
      """
      INSERT INTO products
        (name_ko, name_en, price, supplier_id, created_at, updated_at, search_text\(imageColumn))
      SELECT k, e, pr, s, clock.now + age, clock.now + age, t\(imageValue)
      FROM unnest(
        $1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::text[]\(imageArray))
        AS item(k, e, pr, s, age, t\(imageValue)), \(now)
      """, columns.map(PostgresArray.literal))
    bySupplier[-1] = items.count
    for (supplier, added) in bySupplier {
      try session.execute(
        "SELECT product_counts_add($1::bigint, $2::bigint)", [String(supplier), String(added)])
    }
    try session.execute("SELECT set_config('catalogd.bulk', 'off', true)")
    if let origin {
      try session.execute(
        "SELECT pg_notify($1, 'resync 0 ' || $2)", [PostgresCatalogSchema.channel, origin])
    }
  }

  // MARK: - Other daemons' changes

  /// Other daemons' changes, from the first call on (the daemon asks right
  /// after `initialize`): the listener connects then and keeps listening.
  public func externalChanges() -> AsyncStream<[ProductChange]> {
    if !isWatching.exchange(true, ordering: .relaxed) { startWatching() }
    return external.stream
  }

  public func waitUntilWatching() async {
    await listenerStarted()
  }

  private func startWatching() {
    // The listener's events wait here, the wake-up in the stream: the
    // consumer takes all that arrived meanwhile, to read their products in
    // one query and hand them on together.
    let pending = Mutex(PendingEvents())
    let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let log = log
    listenerStart.withLock { $0 = .starting([]) }
    listener.start(
      onEvent: { event in
        pending.withLock { $0.append(event) }
        wake.yield()
      },
      onFailure: { log("the products database is unreachable, retrying: \($0.message)") })
    let origin = origin
    let continuation = external.continuation
    Task { [weak self] in
      for await _ in wakes {
        let events = pending.withLock { $0.take() }
        if events.contains(.started) { self?.listenerDidStart() }
        guard let changes = await self?.changes(for: events, origin: origin) else { return }
        if !changes.isEmpty { continuation.yieldOrResync(changes) }
      }
    }
  }

  /// The listener's events not yet handled, at most `limit`: beyond it they
  /// give way to a resync (`reconnected`: anything may have been missed).
  private struct PendingEvents {
    static let limit = 10_000
    private var events: [PostgresListener.Event] = []

    mutating func append(_ event: PostgresListener.Event) {
      if events.count >= Self.limit {
        // `started` is kept: calls wait for it.
        events = (events.contains(.started) ? [.started] : []) + [.reconnected]
      }
      events.append(event)
    }

    mutating func take() -> [PostgresListener.Event] {
      defer { events = [] }
      return events
    }
  }

  /// What notifications mean to this daemon's client, in order: nothing for
  /// its own changes (reported as they are made), else the changes, with the
  /// products as they are now for creates and updates (live feeds place them
  /// by them), read in one query.
  private func changes(for events: [PostgresListener.Event], origin: String) async
    -> [ProductChange]
  {
    let changes = events.compactMap { Self.change(for: $0, origin: origin) }
    // The id of a create's or an update's product, which is read.
    func read(_ change: ProductChange) -> String? {
      change.reason == .created || change.reason == .updated ? change.id : nil
    }
    let ids = Set(changes.compactMap(read))
    guard !ids.isEmpty else { return changes }
    // A product that cannot be read is unknown: its change means a resync, as before.
    let products = (try? await self.products(ids: ids)) ?? [:]
    return changes.map { change in
      guard let id = read(change) else { return change }
      return ProductChange(reason: change.reason, id: id, product: products[id])
    }
  }

  /// One notification's change, without its product; nil for this daemon's
  /// own changes, for `started` and for a payload it does not understand.
  private static func change(for event: PostgresListener.Event, origin: String) -> ProductChange? {
    switch event {
    case .started: return nil
    case .reconnected: return ProductChange(reason: .resync, id: nil)
    case .notification(let payload):
      let parts = payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
      guard parts.count == 3, let reason = ProductChange.Reason(rawValue: String(parts[0])),
        parts[2] != origin
      else { return nil }
      guard reason != .resync else { return ProductChange(reason: .resync, id: nil) }
      return ProductChange(reason: reason, id: String(parts[1]))
    }
  }

  /// The products of `ids` that exist, by id, as `get` answers them.
  private func products(ids: Set<String>) async throws -> [String: Product] {
    let rowIDs = ids.compactMap(ProductRow.rowID)
    guard !rowIDs.isEmpty else { return [:] }
    let list = "{" + rowIDs.map(String.init).joined(separator: ",") + "}"
    let rows = try await database(.statements) { session in
      try session.executePrepared(Self.selectProduct + " WHERE p.id = ANY($1::bigint[])", [list])
        .rows.map(Self.product)
    }
    return Dictionary(
      rows.map { ($0.product.id, images.resolved($0.product)) },
      uniquingKeysWith: { first, _ in first })
  }
}
