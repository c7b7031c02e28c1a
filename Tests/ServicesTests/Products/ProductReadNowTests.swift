import FoundationEssentials
import Protocol
import XCTest

@testable import Services

/// The embedded catalog's reads on the calling thread (`getNow`, `listNow`):
/// answered once the file has its schema, equal to the reads through the
/// writer's connection, and seeing every write that returned before them.
final class ProductReadNowTests: XCTestCase {
  var folder = ""

  override func setUp() {
    folder = FileManager.default.temporaryDirectory.path + "/read-now-tests-\(UUID())"
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: folder)
  }

  func testNothingIsReadNowBeforeTheFileHasItsSchema() throws {
    let catalog = SQLiteProductBackend(path: folder + "/catalog.sqlite", origin: "test")
    XCTAssertNil(try catalog.getNow(id: "1"))
    XCTAssertNil(try catalog.listNow(ProductListQuery(limit: 5)))
  }

  func testReadsNowEqualTheReadsThroughTheConnectionAndSeeEachWrite() async throws {
    let catalog = SQLiteProductBackend(path: folder + "/catalog.sqlite", origin: "test")
    let first = try await catalog.list(ProductListQuery(limit: 7, sort: .priceAsc))
    XCTAssertEqual(try catalog.listNow(ProductListQuery(limit: 7, sort: .priceAsc)), first)
    let cursor = first.nextCursor
    let second = try await catalog.list(ProductListQuery(cursor: cursor, limit: 7, sort: .priceAsc))
    XCTAssertEqual(
      try catalog.listNow(ProductListQuery(cursor: cursor, limit: 7, sort: .priceAsc)), second)
    let third = try await catalog.get(id: "3")
    XCTAssertEqual(try catalog.getNow(id: "3"), third)

    let made = try await catalog.create(ProductDraft(nameKo: "지금 읽기", price: 5))
    XCTAssertEqual(try catalog.getNow(id: made.id), made)
    for price in 6...30 {
      let updated = try await catalog.update(
        id: made.id, ProductPatch(price: price), expectedVersion: nil)
      XCTAssertEqual(try catalog.getNow(id: made.id), updated)
      XCTAssertEqual(try catalog.listNow(ProductListQuery(limit: 1))?.items, [updated])
    }
    try await catalog.delete(id: made.id)
    XCTAssertThrowsError(try catalog.getNow(id: made.id)) { error in
      XCTAssertEqual(error as? NotFound, NotFound(resource: "product", id: made.id))
    }
  }

  /// A search may count many rows: it is left to the connection's thread.
  func testASearchIsNotReadNow() async throws {
    let catalog = SQLiteProductBackend(path: folder + "/catalog.sqlite", origin: "test")
    _ = try await catalog.get(id: "1")
    XCTAssertNil(try catalog.listNow(ProductListQuery(limit: 5, query: "우유")))
  }
}
