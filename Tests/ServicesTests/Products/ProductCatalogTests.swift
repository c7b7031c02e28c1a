import FoundationEssentials
import Protocol
import XCTest

@testable import Services

/// The embedded catalog on a real SQLite file in a temporary folder.
final class ProductCatalogTests: XCTestCase {
  var folder = ""

  override func setUp() {
    folder = FileManager.default.temporaryDirectory.path + "/catalog-tests-\(UUID())"
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: folder)
  }

  func backend(origin: String = "test") -> SQLiteProductBackend {
    SQLiteProductBackend(
      path: folder + "/catalog.sqlite", origin: origin, pollInterval: .milliseconds(20))
  }

  func testFreshCatalogHasTheDemoData() async throws {
    let catalog = backend()
    let page = try await catalog.list(ProductListQuery(limit: 5))
    XCTAssertEqual(page.totalCount, DemoCatalog.items().count)
    let suppliers = try await catalog.suppliers()
    XCTAssertEqual(suppliers.count, DemoCatalog.suppliers.count)
    XCTAssertNotNil(page.nextCursor)
  }

  /// Every sort walks the whole catalog in order, each product once.
  func testEverySortPagesThroughEachProductOnceInOrder() async throws {
    let catalog = backend()
    for sort in ProductSort.allCases {
      var seen: [Product] = []
      var cursor: String?
      repeat {
        let page = try await catalog.list(ProductListQuery(cursor: cursor, limit: 17, sort: sort))
        seen += page.items
        cursor = page.nextCursor
      } while cursor != nil
      XCTAssertEqual(seen.count, 300, "\(sort)")
      XCTAssertEqual(Set(seen.map(\.id)).count, 300, "\(sort)")
      for (earlier, later) in zip(seen, seen.dropFirst()) {
        let (a, b) = (earlier, later)
        XCTAssertTrue(Self.precedes(a, b, in: sort), "\(sort): \(a) before \(b)")
      }
    }
  }

  /// Whether `a` comes strictly before `b` in `sort` (ties broken by id, as the daemon does).
  static func precedes(_ a: Product, _ b: Product, in sort: ProductSort) -> Bool {
    let (idA, idB) = (Int(a.id) ?? 0, Int(b.id) ?? 0)
    switch sort {
    case .newest:
      let (createdA, createdB) = (a.createdAt ?? "", b.createdAt ?? "")
      return createdA > createdB || (createdA == createdB && idA > idB)
    case .priceAsc: return a.price < b.price || (a.price == b.price && idA < idB)
    case .priceDesc: return a.price > b.price || (a.price == b.price && idA > idB)
    case .name:
      // SQLite's BINARY collation: UTF-8 bytes, which is code point order.
      let (nameA, nameB) = (Array(a.nameKo.utf8), Array(b.nameKo.utf8))
      return nameA.lexicographicallyPrecedes(nameB) || (nameA == nameB && idA < idB)
    }
  }

  /// Inserts and deletes between pages: nothing repeats, nothing that stayed is skipped.
  func testPagingStaysCorrectWhileTheCatalogChanges() async throws {
    let catalog = backend()
    var seen: [String] = []
    var deleted: Set<String> = []
    var cursor: String?
    var round = 0
    repeat {
      let page = try await catalog.list(
        ProductListQuery(cursor: cursor, limit: 25, sort: .priceAsc))
      seen += page.items.map(\.id)
      cursor = page.nextCursor
      round += 1
      _ = try await catalog.create(
        ProductDraft(nameKo: "새 상품 \(round)", price: round * 997 % 40_000))
      if let victim = page.items.last {
        // A product not yet shown goes away: it must not appear later.
        let ahead = try await catalog.list(
          ProductListQuery(cursor: page.nextCursor, limit: 1, sort: .priceAsc))
        if let next = ahead.items.first, next.id != victim.id {
          try await catalog.delete(id: next.id)
          deleted.insert(next.id)
        }
      }
    } while cursor != nil
    XCTAssertEqual(seen.count, Set(seen).count, "a product was shown twice")
    XCTAssertTrue(deleted.isDisjoint(with: seen), "a deleted product was shown")
    let original = Set(1...300).map(String.init)
    XCTAssertTrue(Set(original).subtracting(deleted).isSubset(of: seen), "a product was skipped")
  }

  func testSearchFindsKoreanAndEnglishSubstrings() async throws {
    let catalog = backend()
    let milk = try await catalog.list(ProductListQuery(limit: 100, query: "우유"))
    XCTAssertGreaterThan(milk.totalCount, 0)
    XCTAssertTrue(milk.items.allSatisfy { $0.nameKo.contains("우유") })
    XCTAssertEqual(milk.items.count, min(milk.totalCount, 100))
    let english = try await catalog.list(ProductListQuery(limit: 100, query: "mACKer"))
    XCTAssertGreaterThan(english.totalCount, 0)
    XCTAssertTrue(
      english.items.allSatisfy {
        ($0.nameEn ?? "").lowercased().contains("macker") || $0.nameKo.contains("고등어")
      })
    let one = try await catalog.list(ProductListQuery(limit: 100, query: "김"))
    XCTAssertTrue(
      one.items.allSatisfy { $0.nameKo.contains("김") || ($0.nameEn ?? "").contains("김") })
    XCTAssertGreaterThan(one.totalCount, 0)
    let none = try await catalog.list(ProductListQuery(query: "없는상품이름"))
    XCTAssertEqual(none.totalCount, 0)
    XCTAssertEqual(none.items, [])
    // Characters that mean something to FTS5 or LIKE are searched as text.
    _ = try await catalog.list(ProductListQuery(query: "\"%_\\ OR *"))
  }

  /// Search counts are cached, but never outlive a write, ours or another daemon's.
  func testSearchCountsFollowEveryWrite() async throws {
    let mine = backend(origin: "a")
    let theirs = backend(origin: "b")
    let before = try await mine.list(ProductListQuery(query: "고등어")).totalCount
    _ = try await mine.create(ProductDraft(nameKo: "훈제 고등어", price: 1))
    let afterMine = try await mine.list(ProductListQuery(query: "고등어")).totalCount
    XCTAssertEqual(afterMine, before + 1)
    _ = try await theirs.create(ProductDraft(nameKo: "고등어 구이", price: 1))
    let afterTheirs = try await mine.list(ProductListQuery(query: "고등어")).totalCount
    XCTAssertEqual(afterTheirs, before + 2)
    let short = try await mine.list(ProductListQuery(query: "훈제")).totalCount
    _ = try await theirs.create(ProductDraft(nameKo: "훈제 연어", price: 1))
    let shortAfter = try await mine.list(ProductListQuery(query: "훈제")).totalCount
    XCTAssertEqual(shortAfter, short + 1)
  }

  func testCursorBelongsToItsSortAndFilters() async throws {
    let catalog = backend()
    let page = try await catalog.list(ProductListQuery(limit: 2, sort: .priceAsc))
    let cursor = try XCTUnwrap(page.nextCursor)
    for query in [
      ProductListQuery(cursor: cursor, sort: .priceDesc),
      ProductListQuery(cursor: cursor, query: "우유", sort: .priceAsc),
      ProductListQuery(cursor: "not-a-cursor", sort: .priceAsc),
    ] {
      do {
        _ = try await catalog.list(query)
        XCTFail("accepted \(query)")
      } catch let error as InvalidArgument {
        XCTAssertEqual(error.field, "cursor")
      }
    }
  }

  func testCreateUpdateDeleteAndVersions() async throws {
    let catalog = backend()
    let created = try await catalog.create(
      ProductDraft(nameKo: "테스트", nameEn: "Test", price: 1_000, supplierId: "1"))
    XCTAssertEqual(created.version, 1)
    XCTAssertEqual(created.supplier?.id, "1")
    let updated = try await catalog.update(
      id: created.id, ProductPatch(nameEn: .some(nil), price: 2_000, supplierId: .some(nil)),
      expectedVersion: 1)
    XCTAssertEqual(updated.version, 2)
    XCTAssertNil(updated.nameEn)
    XCTAssertNil(updated.supplier)
    XCTAssertEqual(updated.price, 2_000)
    do {
      _ = try await catalog.update(id: created.id, ProductPatch(price: 3), expectedVersion: 1)
      XCTFail("stale version accepted")
    } catch ProductsError.conflict(let current) {
      XCTAssertEqual(current, 2)
    }
    do {
      _ = try await catalog.create(ProductDraft(nameKo: "x", price: 1, supplierId: "999"))
      XCTFail("unknown supplier accepted")
    } catch let error as InvalidArgument {
      XCTAssertEqual(error.field, "supplierId")
    }
    try await catalog.delete(id: created.id)
    do {
      _ = try await catalog.get(id: created.id)
      XCTFail("deleted product found")
    } catch let error as NotFound {
      XCTAssertEqual(error.id, created.id)
    }
    let again = try await catalog.create(ProductDraft(nameKo: "다음", price: 1))
    XCTAssertNotEqual(again.id, created.id, "ids are never reused")
  }

  func testCountsFollowSuppliers() async throws {
    let catalog = backend()
    let before = try await catalog.list(ProductListQuery(supplierId: "1")).totalCount
    let product = try await catalog.create(ProductDraft(nameKo: "카운트", price: 1, supplierId: "1"))
    let afterCreate = try await catalog.list(ProductListQuery(supplierId: "1")).totalCount
    XCTAssertEqual(afterCreate, before + 1)
    _ = try await catalog.update(
      id: product.id, ProductPatch(supplierId: .some("2")), expectedVersion: nil)
    let afterMove = try await catalog.list(ProductListQuery(supplierId: "1")).totalCount
    XCTAssertEqual(afterMove, before)
  }

  /// A second catalog object on the same file (another daemon) reports the first one's changes.
  func testChangesOfAnotherDaemonAreReported() async throws {
    let mine = backend(origin: "a")
    let theirs = backend(origin: "b")
    _ = try await theirs.list(ProductListQuery(limit: 1))  // opens it and starts watching
    let changes = theirs.externalChanges()
    let product = try await mine.create(ProductDraft(nameKo: "다른 데몬", price: 5))
    _ = try await mine.update(id: product.id, ProductPatch(price: 6), expectedVersion: 1)
    // One poll or two: the changes in order either way.
    var seen: [ProductChange] = []
    for await batch in changes {
      XCTAssertFalse(batch.isEmpty)
      seen += batch
      if seen.count >= 2 { break }
    }
    XCTAssertEqual(seen.count, 2)
    XCTAssertEqual(seen.first?.reason, .created)
    XCTAssertEqual(seen.first?.id, product.id)
    XCTAssertEqual(seen.last?.reason, .updated)
    XCTAssertEqual(seen.last?.product?.price, 6)
  }

  /// Changes committed together by another daemon are read in one query and
  /// reported together, each with its product as the catalog holds it.
  func testAnotherDaemonsCommitIsReportedAsOneBatch() async throws {
    let mine = backend(origin: "a")
    let theirs = backend(origin: "b")
    _ = try await theirs.list(ProductListQuery(limit: 1))
    let changes = theirs.externalChanges()
    let first = try await mine.create(ProductDraft(nameKo: "먼저", price: 1))
    let made = try await mine.connection().write { database in
      try (0..<50).map { number in
        try SQLiteProductBackend.insert(
          ProductDraft(nameKo: "한꺼번에 \(number)", price: number, supplierId: "1"),
          supplier: 1, origin: "a", into: database)
      }
    }
    try await mine.delete(id: first.id)
    var batches: [[ProductChange]] = []
    for await batch in changes {
      batches.append(batch)
      if batches.joined().count >= 52 { break }
    }
    let seen = Array(batches.joined())
    XCTAssertEqual(seen.map(\.id), [first.id] + made.map(\.id) + [first.id])
    XCTAssertEqual(
      seen.map(\.reason), [.created] + Array(repeating: .created, count: 50) + [.deleted])
    XCTAssertEqual(seen.dropFirst().prefix(50).map(\.product), made)
    let together = Set(made.map(\.id))
    XCTAssertTrue(
      batches.contains { batch in together.isSubset(of: batch.compactMap(\.id)) },
      "the 50 creates of one commit come in one batch: \(batches.map(\.count))")
  }
}

final class ProductCursorTests: XCTestCase {
  func testRoundTripsAndIsBoundToItsFilters() throws {
    let filter = ProductCursor.filterDigest(query: "우유", supplierId: "3")
    for key in [
      ProductCursor.Key.integer(-42), .integer(1_795_294_198_004_947), .text("치즈 \"500g\""),
    ] {
      let sort: ProductSort = if case .text = key { .name } else { .newest }
      let cursor = ProductCursor(sort: sort, filter: filter, key: key, id: 77)
      XCTAssertEqual(
        try ProductCursor(decoding: cursor.encoded, sort: sort, filter: filter), cursor)
      XCTAssertTrue(
        cursor.encoded.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
      XCTAssertThrowsError(
        try ProductCursor(
          decoding: cursor.encoded, sort: sort,
          filter: ProductCursor.filterDigest(query: "우유", supplierId: nil)))
    }
  }

  /// The cursor's JSON is written straight into bytes: the same text as the
  /// `JSON` tree it was made from before, so cursors clients hold stay valid.
  func testEncodingIsTheJSONTreesText() {
    let keys: [ProductCursor.Key] = [
      .integer(0), .integer(-42), .integer(Int64.max), .integer(Int64.min),
      .text(""), .text("치즈 \"500g\"\\ \u{1}\n/"), .text("🧀"),
    ]
    let filters: [UInt64] = [
      0, 1, 0xF, 0x10, 0xABC, UInt64.max, ProductCursor.filterDigest(query: "우유", supplierId: "3"),
    ]
    for sort in ProductSort.allCases {
      for key in keys {
        for filter in filters {
          for id: Int64 in [0, 77, Int64.max] {
            let cursor = ProductCursor(sort: sort, filter: filter, key: key, id: id)
            let keyJSON: JSON =
              switch key {
              case .integer(let value): .number(JSONNumber(Int(value)))
              case .text(let value): .string(value)
              }
            let tree: JSON = [
              "s": JSON(sort.rawValue), "f": JSON(String(filter, radix: 16)), "k": keyJSON,
              "i": JSON(Int(id)),
            ]
            XCTAssertEqual(cursor.encoded, Base64URL.encode(tree.serialized()), "\(cursor)")
          }
        }
      }
    }
  }

  func testBase64URLRoundTripsEveryLength() {
    for length in 0..<40 {
      let bytes = (0..<length).map { UInt8(($0 * 37 + length) % 256) }
      XCTAssertEqual(Base64URL.decode(Base64URL.encode(bytes)), bytes)
    }
    XCTAssertEqual(Base64URL.encode(Array("any carnal pleas".utf8)), "YW55IGNhcm5hbCBwbGVhcw")
    XCTAssertNil(Base64URL.decode("a+b/"))
    XCTAssertNil(Base64URL.decode("abcde"))
    // Each symbol stands for its place in the alphabet; its neighbours in ASCII for nothing.
    let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    for (value, symbol) in alphabet.enumerated() {
      XCTAssertEqual(Base64URL.decode("\(symbol)A"), [UInt8(value << 2)], "\(symbol)")
    }
    for outside in ["@", "[", "`", "{", "/", ":", ".", ",", "^", "~"] {
      XCTAssertNil(Base64URL.decode(outside + "A"), outside)
    }
  }

  func testDemoCatalogIsDeterministicAndPlausible() {
    let items = DemoCatalog.items()
    XCTAssertEqual(items.count, 300)
    XCTAssertEqual(items.map(\.nameKo), DemoCatalog.items().map(\.nameKo))
    XCTAssertEqual(Set(items.map(\.nameKo)).count, 300)
    XCTAssertTrue(items.allSatisfy { $0.price > 0 && !$0.nameKo.isEmpty })
    XCTAssertGreaterThan(items.filter { $0.nameEn == nil }.count, 0)
    XCTAssertEqual(DemoCatalog.bulkItems(count: 1_000).count, 1_000)
    // Seeded in batches, a catalog still grows as through creates: each product younger.
    let ages = (0..<4).flatMap { batch in
      DemoCatalog.bulkItems(count: 250, seed: UInt64(batch), first: batch * 250, of: 1_000)
        .map(\.ageSeconds)
    }
    XCTAssertEqual(ages.count, 1_000)
    XCTAssertTrue(zip(ages, ages.dropFirst()).allSatisfy { $0 > $1 }, "older products first")
    XCTAssertEqual(ages.last, 0)
    XCTAssertGreaterThan(ages[0], 2 * 365 * 86_400, "spread over three years")
  }

  func testValidationNamesTheField() {
    XCTAssertThrowsError(try ProductValidation.draft(ProductDraft(nameKo: "   ", price: 1))) {
      XCTAssertEqual(($0 as? InvalidArgument)?.field, "nameKo")
    }
    XCTAssertThrowsError(try ProductValidation.draft(ProductDraft(nameKo: "a", price: -1))) {
      XCTAssertEqual(($0 as? InvalidArgument)?.field, "price")
    }
    XCTAssertThrowsError(
      try ProductValidation.draft(
        ProductDraft(nameKo: "a", nameEn: String(repeating: "x", count: 201), price: 1))
    ) { XCTAssertEqual(($0 as? InvalidArgument)?.field, "nameEn") }
    XCTAssertEqual(
      try ProductValidation.draft(ProductDraft(nameKo: "  두부 ", price: 0)).nameKo, "두부")
  }
}
