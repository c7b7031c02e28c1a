import FoundationEssentials
import Protocol
import XCTest

@testable import Services

/// Changes of the catalog noticed together (one poll of another daemon's)
/// reach each products feed as one event: one `itemsChanged` per feed, whose
/// steps leave its items as the catalog lists them.
final class ProductsFeedBatchTests: XCTestCase {
  private var folder: TestFolder!

  override func setUpWithError() throws {
    folder = try TestFolder.make("products-feed-batch")
  }

  override func tearDown() {
    folder.delete()
  }

  func testABatchOfChangesIsOneItemsChangedPerFeed() async throws {
    let backend = SQLiteProductBackend(path: folder.absolute("catalog.sqlite"), origin: "test")
    let service = ProductsService(backend: backend)
    let engine = FeedEngine()
    let log = FeedEventLog()
    var feeds: [(id: String, sort: ProductSort)] = []
    for sort in [ProductSort.newest, .priceAsc, .name] {
      let source = ProductsFeedSource(service: service, query: ProductListQuery(sort: sort))
      let id = try await engine.open(source: source, pageSize: 10)
      _ = try await engine.loadMore(id, notify: log.notify)
      feeds.append((id, sort))
    }
    let loaded = try await engine.items(feeds[0].id, start: 0, end: 10)
    log.clear()

    // Names and prices that sort first: every feed places them in its window.
    var changes: [ProductChange] = []
    for number in 0..<30 {
      let product = try await backend.create(ProductDraft(nameKo: "!묶음 \(number)", price: number))
      changes.append(ProductChange(reason: .created, id: product.id, product: product))
    }
    let moved = try XCTUnwrap(loaded[3].objectValue?["id"]?.stringValue)
    let updated = try await backend.update(id: moved, ProductPatch(price: 0), expectedVersion: nil)
    changes.append(ProductChange(reason: .updated, id: moved, product: updated))
    let gone = try XCTUnwrap(loaded[5].objectValue?["id"]?.stringValue)
    try await backend.delete(id: gone)
    changes.append(ProductChange(reason: .deleted, id: gone))

    let events = FeedSourceEvent.events(changes)
    XCTAssertEqual(events.count, 1, "no resync: every change says what happened")
    for event in events { await engine.apply(event, notify: log.notify) }

    XCTAssertEqual(log.all.count, feeds.count, "one notification per feed: \(log.all)")
    XCTAssertTrue(log.all.allSatisfy { $0.hasPrefix("changed g0 ") }, "\(log.all)")
    for (id, sort) in feeds {
      let items = try await engine.items(id, start: 0, end: 1_000)
      let listed = try await service.list(ProductListQuery(limit: items.count, sort: sort))
      XCTAssertEqual(items, listed.items.map(\.json), "feed sorted by \(sort)")
    }
  }

  /// A feed too large to copy at every change is published after a batch
  /// of changes (one copy for many), so reads go on from its snapshot.
  func testALargeFeedIsPublishedAfterABatchButNotAfterOneChange() async throws {
    let backend = SQLiteProductBackend(path: folder.absolute("catalog.sqlite"), origin: "test")
    try await backend.seed(count: FeedEngine.eagerSnapshotItems + 100) { _ in }
    let service = ProductsService(backend: backend)
    let engine = FeedEngine()
    let id = try await engine.open(
      source: ProductsFeedSource(service: service, query: ProductListQuery()), pageSize: 100)
    while try await engine.status(id).count <= FeedEngine.eagerSnapshotItems {
      _ = try await engine.loadMore(id, notify: { _ in })
    }
    _ = try await engine.items(id, start: 0, end: 1)
    XCTAssertTrue(published(engine, id), "answered by the engine: published")

    func created(_ name: String) async throws -> ProductChange {
      let product = try await backend.create(ProductDraft(nameKo: name, price: 1))
      return ProductChange(reason: .created, id: product.id, product: product)
    }
    for event in FeedSourceEvent.events([try await created("하나")]) {
      await engine.apply(event, notify: { _ in })
    }
    XCTAssertFalse(published(engine, id), "one change: the engine answers next")
    let batch = [try await created("둘"), try await created("셋")]
    for event in FeedSourceEvent.events(batch) { await engine.apply(event, notify: { _ in }) }
    XCTAssertTrue(published(engine, id), "a batch: published at once")
    var answered: EncodedJSON?
    XCTAssertTrue(engine.itemsNow(id, start: 0, end: 3) { answered = $0 })
    let first = try JSONParser.parse(try XCTUnwrap(answered).bytes)
    XCTAssertEqual(
      first["items"]?.arrayValue?.compactMap { $0["nameKo"]?.stringValue }, ["셋", "둘", "하나"])
  }

  private func published(_ engine: FeedEngine, _ id: String) -> Bool {
    engine.itemsNow(id, start: 0, end: 1) { _ in }
  }

  func testAChangeThatDoesNotSayWhatHappenedAddsOneResync() {
    let product = Product(
      id: "7", nameKo: "사과", nameEn: nil, price: 1, supplier: nil, createdAt: nil, updatedAt: nil,
      version: 1)
    let events = FeedSourceEvent.events([
      ProductChange(reason: .created, id: "7", product: product),
      ProductChange(reason: .created, id: "8"),
      ProductChange(reason: .deleted, id: "9"),
      ProductChange(reason: .created, id: "10"),
    ])
    XCTAssertEqual(events.count, 2)
    guard case .changed(let topic, let records) = events.first else {
      return XCTFail("the changes first: \(events)")
    }
    XCTAssertEqual(topic, "products")
    XCTAssertEqual(records.map(\.id), ["7", "9"])
    guard case .resync(let resynced) = events.last else { return XCTFail("then a resync") }
    XCTAssertEqual(resynced, "products")
    XCTAssertTrue(FeedSourceEvent.events([]).isEmpty)
  }
}
