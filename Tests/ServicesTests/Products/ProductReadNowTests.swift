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
    XCTAssertEqual(
      try catalog.listNow(ProductListQuery(limit: 7, sort: .priceAsc))?.bytes, text(first))
    let cursor = first.nextCursor
    let second = try await catalog.list(ProductListQuery(cursor: cursor, limit: 7, sort: .priceAsc))
    XCTAssertEqual(
      try catalog.listNow(ProductListQuery(cursor: cursor, limit: 7, sort: .priceAsc))?.bytes,
      text(second))
    let third = try await catalog.get(id: "3")
    XCTAssertEqual(try catalog.getNow(id: "3")?.bytes, text(third))

    let made = try await catalog.create(ProductDraft(nameKo: "지금 읽기", price: 5))
    XCTAssertEqual(try catalog.getNow(id: made.id)?.bytes, text(made))
    for price in 6...30 {
      let updated = try await catalog.update(
        id: made.id, ProductPatch(price: price), expectedVersion: nil)
      XCTAssertEqual(try catalog.getNow(id: made.id)?.bytes, text(updated))
      let page = try await catalog.list(ProductListQuery(limit: 1))
      XCTAssertEqual(page.items, [updated])
      XCTAssertEqual(try catalog.listNow(ProductListQuery(limit: 1))?.bytes, text(page))
    }
    try await catalog.delete(id: made.id)
    XCTAssertThrowsError(try catalog.getNow(id: made.id)) { error in
      XCTAssertEqual(error as? NotFound, NotFound(resource: "product", id: made.id))
    }
  }

  /// The JSON written straight from the rows is the text of the values the
  /// connection's reads make: every column, NULLs, text that needs escaping,
  /// a demo picture and a stored URL, every sort's cursor, the last page.
  func testRowsWrittenAsJSONAreTheValuesText() async throws {
    let catalog = SQLiteProductBackend(path: folder + "/catalog.sqlite", origin: "test")
    let suppliers = try await catalog.suppliers()
    let drafts = [
      ProductDraft(nameKo: "따옴표 \"와\" 역슬래시 \\ 탭\t", nameEn: "Quote \u{1}", price: 0),
      ProductDraft(
        nameKo: "이미지 😀", nameEn: nil, price: 2_147_483_647, supplierId: suppliers[0].id,
        imageUrl: "https://example.com/a%20b.png?x=1&y=\"2\""),
      ProductDraft(nameKo: "No supplier", nameEn: "</script>", price: 7, imageUrl: nil),
    ]
    var made: [Product] = []
    for draft in drafts { made.append(try await catalog.create(draft)) }
    for product in made + [try await catalog.get(id: "1")] {
      XCTAssertEqual(try catalog.getNow(id: product.id)?.bytes, text(product), product.id)
    }
    for sort in ProductSort.allCases {
      var cursor: String?
      repeat {
        let query = ProductListQuery(cursor: cursor, limit: 17, sort: sort)
        let page = try await catalog.list(query)
        XCTAssertEqual(
          try catalog.listNow(query)?.bytes, text(page), "\(sort) after \(cursor ?? "-")")
        cursor = page.nextCursor
      } while cursor != nil
      let filtered = ProductListQuery(limit: 3, supplierId: suppliers[0].id, sort: sort)
      let filteredPage = try await catalog.list(filtered)
      XCTAssertEqual(try catalog.listNow(filtered)?.bytes, text(filteredPage), "\(sort)")
    }
    let none = ProductListQuery(limit: 3, supplierId: "999999")
    let nonePage = try await catalog.list(none)
    XCTAssertEqual(try catalog.listNow(none)?.bytes, text(nonePage))
  }

  private func text(_ product: Product) -> [UInt8] { product.json.serialized() }
  private func text(_ page: ProductPage) -> [UInt8] { page.json.serialized() }

  /// A search may count many rows: it is left to the connection's thread.
  func testASearchIsNotReadNow() async throws {
    let catalog = SQLiteProductBackend(path: folder + "/catalog.sqlite", origin: "test")
    _ = try await catalog.get(id: "1")
    XCTAssertNil(try catalog.listNow(ProductListQuery(limit: 5, query: "우유")))
  }
}
