import FoundationEssentials
import Protocol
import XCTest

@testable import Services

/// Changes of the catalog noticed together (one poll of another daemon's)
/// reach each products feed as one event: one `itemsChanged` per feed, whose
/// steps leave its items as the catalog lists them.
final class ProductsFeedBatchTests: XCTestCase {
  var folder = ""

  override func setUp() {
    folder = FileManager.default.temporaryDirectory.path + "/products-feed-batch-\(UUID())"
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: folder)
  }

  func testABatchOfChangesIsOneItemsChangedPerFeed() async throws {
    let backend = SQLiteProductBackend(path: folder + "/catalog.sqlite", origin: "test")
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
