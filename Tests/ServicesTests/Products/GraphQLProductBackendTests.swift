import Protocol
import XCTest

@testable import Services

/// The remote products backend against the real schema, executed by graphql-core
/// in `Tests/Upstreams/graphql_products_server.py`.
final class GraphQLProductBackendTests: XCTestCase {
  private var upstream: GraphQLTestUpstream?
  private let clientId = ClientIdBox("11111111-2222-4333-8444-555555555555")

  /// p1 of the seed catalog, as the backend must read it.
  private let apple = Product(
    id: "p1", nameKo: "사과", nameEn: "Apple", price: 1200,
    supplier: Supplier(id: "s3", name: "Jeju Orchard"), createdAt: "2024-01-01T09:00:00.000Z",
    updatedAt: "2024-01-01T09:00:00.000Z", version: 1_704_099_600_000)

  override func setUp() async throws {
    upstream = try GraphQLTestUpstream()
  }

  override func tearDown() async throws {
    upstream?.stop()
    upstream = nil
  }

  private func server() throws -> GraphQLTestUpstream { try XCTUnwrap(upstream) }

  private func backend(timeout: Duration = .seconds(5)) throws -> GraphQLProductBackend {
    let clientId = clientId
    return GraphQLProductBackend(
      endpoint: try server().endpoint, clientId: { clientId.current }, timeout: timeout)
  }

  /// The message of a `badResponse` or a `refused` with `status`, or a test failure.
  private func badResponseMessage(
    _ error: (any Error)?, status: Int, file: StaticString = #filePath, line: UInt = #line
  ) -> String? {
    if case .refused("products", status, let message) = error as? UpstreamFailure {
      return message
    }
    guard case .badResponse("products", status, let message) = error as? UpstreamFailure else {
      XCTFail(
        "expected a bad response with status \(status), got \(String(describing: error))",
        file: file, line: line)
      return nil
    }
    return message
  }

  // MARK: Round trips

  func testListPagesThroughTheCatalogNewestFirst() async throws {
    let backend = try backend()
    let first = try await backend.list(ProductListQuery(limit: 2))
    XCTAssertEqual(first.items.map(\.id), ["p5", "p4"])
    XCTAssertEqual(first.totalCount, 5)
    let second = try await backend.list(ProductListQuery(cursor: first.nextCursor, limit: 2))
    XCTAssertEqual(second.items.map(\.id), ["p2", "p1"])
    XCTAssertEqual(second.items.last, apple)
    XCTAssertEqual(second.totalCount, 5)
    let last = try await backend.list(ProductListQuery(cursor: second.nextCursor, limit: 2))
    XCTAssertEqual(last.items.map(\.id), ["p3"])
    XCTAssertNil(last.nextCursor)
    XCTAssertNotNil(first.nextCursor)
    XCTAssertNotNil(second.nextCursor)

    let variables = try await server().requests().map(\.variables)
    XCTAssertEqual(
      variables.first, ["cursor": nil, "limit": 2, "query": nil],
      "every variable is bound, absent ones to null")
    // The client sees a wrapped cursor bound to its query; the upstream gets its own back.
    let upstreamCursors = variables.compactMap { $0["cursor"]?.stringValue }
    XCTAssertEqual(upstreamCursors.count, 2)
    XCTAssertFalse(upstreamCursors.contains(second.nextCursor ?? ""))
    let other = await thrownError {
      try await backend.list(ProductListQuery(cursor: first.nextCursor, limit: 2, query: "x"))
    }
    XCTAssertEqual((other as? InvalidArgument)?.field, "cursor")
    let garbage = await thrownError { try await backend.list(ProductListQuery(cursor: "garbage")) }
    XCTAssertEqual((garbage as? InvalidArgument)?.field, "cursor")
  }

  func testListPassesTheQuery() async throws {
    let page = try await backend().list(ProductListQuery(query: "MILK"))
    XCTAssertEqual(page.items.map(\.nameEn), ["Milk"])
    XCTAssertEqual(page.totalCount, 1)
    XCTAssertNil(page.nextCursor)
    let korean = try await backend().list(ProductListQuery(query: "식빵"))
    XCTAssertEqual(korean.items.map(\.id), ["p2"])
  }

  func testGetReadsEveryField() async throws {
    let backend = try backend()
    let product = try await backend.get(id: "p1")
    XCTAssertEqual(product, apple)
    XCTAssertEqual(
      product.json,
      [
        "id": "p1", "nameKo": "사과", "nameEn": "Apple", "price": 1200,
        "supplier": ["id": "s3", "name": "Jeju Orchard"], "createdAt": "2024-01-01T09:00:00.000Z",
        "updatedAt": "2024-01-01T09:00:00.000Z", "version": 1_704_099_600_000, "imageUrl": nil,
      ])
    let undated = try await backend.get(id: "p3")
    XCTAssertEqual(
      undated,
      Product(
        id: "p3", nameKo: "귤", nameEn: nil, price: 800, supplier: nil, createdAt: nil,
        updatedAt: nil, version: 1),
      "null times pass through; the version of a null updatedAt is 1")
  }

  func testAProductThatIsNullIsNotFound() async throws {
    let error = await thrownError { try await self.backend().get(id: "no-such-product") }
    XCTAssertEqual(error as? NotFound, NotFound(resource: "product", id: "no-such-product"))
    let requests = try await server().requests()
    XCTAssertEqual(requests.map(\.variables), [["id": "no-such-product"]])
  }

  func testCreateUpdateDeleteRoundTrip() async throws {
    let backend = try backend()
    let created = try await backend.create(
      ProductDraft(nameKo: "배", nameEn: "Pear", price: 4_500, supplierId: "s3"))
    XCTAssertEqual(created.nameKo, "배")
    XCTAssertEqual(created.nameEn, "Pear")
    XCTAssertEqual(created.price, 4_500)
    XCTAssertEqual(created.supplier, Supplier(id: "s3", name: "Jeju Orchard"))
    let createdAt = try XCTUnwrap(created.createdAt)
    XCTAssertEqual(created.updatedAt, createdAt)
    XCTAssertEqual(
      created.version, GraphQLProductVersion.epochMilliseconds(rfc3339: createdAt))
    let fetched = try await backend.get(id: created.id)
    XCTAssertEqual(fetched, created)
    let newest = try await backend.list(ProductListQuery(limit: 1))
    XCTAssertEqual(newest.items, [created])
    XCTAssertEqual(newest.totalCount, 6)

    let patch = ProductPatch(nameKo: "신고배", nameEn: .some(nil), price: 5_000, supplierId: "s1")
    let updated = try await backend.update(id: created.id, patch, expectedVersion: nil)
    XCTAssertEqual(updated.id, created.id)
    XCTAssertEqual(updated.nameKo, "신고배")
    XCTAssertNil(updated.nameEn)
    XCTAssertEqual(updated.price, 5_000)
    XCTAssertEqual(updated.supplier, Supplier(id: "s1", name: "Croquis Farm"))
    XCTAssertEqual(updated.createdAt, created.createdAt)
    XCTAssertGreaterThan(updated.version, created.version)
    let refetched = try await backend.get(id: created.id)
    XCTAssertEqual(refetched, updated)

    let withoutSupplier = try await backend.update(
      id: created.id, ProductPatch(supplierId: .some(nil)), expectedVersion: nil)
    XCTAssertNil(withoutSupplier.supplier)
    XCTAssertEqual(withoutSupplier.nameKo, "신고배", "fields not in the patch stay")

    try await backend.delete(id: created.id)
    let gone = await thrownError { try await backend.get(id: created.id) }
    XCTAssertEqual(gone as? NotFound, NotFound(resource: "product", id: created.id))
    let afterDelete = try await backend.list(ProductListQuery())
    XCTAssertEqual(afterDelete.totalCount, 5)
  }

  func testCreateAndUpdateSendTheirFieldsAsVariables() async throws {
    let backend = try backend()
    let created = try await backend.create(ProductDraft(nameKo: #"따옴표 " } $x"#, price: 10))
    XCTAssertEqual(created.nameKo, #"따옴표 " } $x"#)
    _ = try await backend.update(id: "p1", ProductPatch(nameEn: .some(nil)), expectedVersion: nil)
    _ = try await backend.update(id: "p1", ProductPatch(price: 1300), expectedVersion: nil)
    let requests = try await server().requests()
    // Each update fetches the product first (an unknown id must be NotFound).
    XCTAssertEqual(
      requests.filter { $0.operationName != GraphQLOperation.product.name }.map(\.variables),
      [
        ["input": ["nameKo": #"따옴표 " } $x"#, "nameEn": nil, "price": 10, "supplierId": nil]],
        ["input": ["id": "p1", "nameEn": nil]],
        ["input": ["id": "p1", "price": 1300]],
      ])
    for request in requests {
      XCTAssertFalse(request.query?.contains("따옴표") ?? true, "values never enter the query text")
    }
  }

  func testSuppliers() async throws {
    let suppliers = try await backend().suppliers()
    XCTAssertEqual(
      suppliers,
      [
        Supplier(id: "s1", name: "Croquis Farm"), Supplier(id: "s3", name: "Jeju Orchard"),
        Supplier(id: "s2", name: "Seoul Bakery"),
      ], "by name, like the embedded catalog")
  }

  func testEveryRequestCarriesTheCurrentClientIdAndItsOperation() async throws {
    let backend = try backend()
    var expected: [(operation: GraphQLOperation, clientId: String)] = []
    func use(_ id: String, _ operation: GraphQLOperation) {
      clientId.current = id
      expected.append((operation, id))
    }
    use("client-a", .productList)
    _ = try await backend.list(ProductListQuery())
    use("client-b", .product)
    _ = try await backend.get(id: "p2")
    use("client-c", .supplierList)
    _ = try await backend.suppliers()
    use("client-d", .createProduct)
    let created = try await backend.create(ProductDraft(nameKo: "떡", price: 3000))
    use("client-e", .product)  // update and delete check the product exists first
    expected.append((.updateProduct, "client-e"))
    _ = try await backend.update(id: created.id, ProductPatch(price: 3100), expectedVersion: nil)
    use("client-f", .product)
    expected.append((.deleteProduct, "client-f"))
    try await backend.delete(id: created.id)

    let requests = try await server().requests()
    XCTAssertEqual(requests.map(\.operationName), expected.map { $0.operation.name })
    XCTAssertEqual(requests.map(\.clientId), expected.map { $0.clientId })
    XCTAssertEqual(requests.map(\.query), expected.map { $0.operation.document })
    XCTAssertEqual(Set(requests.map(\.contentType)), ["application/json"])
  }

  // MARK: What the upstream cannot do

  func testSortsOtherThanNewestAndSupplierIdAreInvalidArguments() async throws {
    let backend = try backend()
    for sort in ProductSort.allCases where sort != .newest {
      let error = await thrownError { try await backend.list(ProductListQuery(sort: sort)) }
      XCTAssertEqual(
        error as? InvalidArgument,
        InvalidArgument(field: "sort", reason: "not supported by the remote products backend"),
        "\(sort)")
    }
    let error = await thrownError { try await backend.list(ProductListQuery(supplierId: "s1")) }
    XCTAssertEqual(
      error as? InvalidArgument,
      InvalidArgument(field: "supplierId", reason: "not supported by the remote products backend"))
    let requests = try await server().requests()
    XCTAssertTrue(requests.isEmpty, "refused before asking the upstream")
  }

  func testPricesAboveAGraphQLIntAreInvalidArguments() async throws {
    let backend = try backend()
    let tooBig = Int(Int32.max) + 1
    let create = await thrownError {
      try await backend.create(ProductDraft(nameKo: "금", price: tooBig))
    }
    XCTAssertEqual((create as? InvalidArgument)?.field, "price")
    let update = await thrownError {
      try await backend.update(id: "p1", ProductPatch(price: tooBig), expectedVersion: nil)
    }
    XCTAssertEqual((update as? InvalidArgument)?.field, "price")
    let created = try await backend.create(ProductDraft(nameKo: "금", price: Int(Int32.max)))
    XCTAssertEqual(created.price, Int(Int32.max))
  }

  func testExpectedVersionIsCheckedAgainstTheCurrentProduct() async throws {
    let backend = try backend()
    let current = try await backend.get(id: "p2")
    XCTAssertEqual(current.version, 1_707_568_200_250, "2024-02-10T12:30:00.250Z")
    let updated = try await backend.update(
      id: "p2", ProductPatch(price: 3600), expectedVersion: current.version)
    XCTAssertEqual(updated.price, 3600)
    XCTAssertGreaterThan(updated.version, current.version)

    let stale = await thrownError {
      try await backend.update(id: "p2", ProductPatch(price: 1), expectedVersion: current.version)
    }
    XCTAssertEqual(stale as? ProductsError, .conflict(currentVersion: updated.version))
    let unchanged = try await backend.get(id: "p2")
    XCTAssertEqual(unchanged, updated)
    let operations = try await server().requests().map(\.operationName)
    XCTAssertEqual(operations, ["Product", "Product", "UpdateProduct", "Product", "Product"])
  }

  func testExpectedVersionOfAMissingProductIsNotFound() async throws {
    let error = await thrownError {
      try await self.backend().update(id: "p404", ProductPatch(price: 1), expectedVersion: 1)
    }
    XCTAssertEqual(error as? NotFound, NotFound(resource: "product", id: "p404"))
  }

  func testExternalChangesNeverYield() async throws {
    let changes = try backend().externalChanges()
    let outcome = await withTaskGroup(of: String.self) { group in
      group.addTask {
        for await change in changes { return "yielded \(change)" }
        return "finished"
      }
      group.addTask {
        try? await Task.sleep(for: .milliseconds(300))
        return "still waiting"
      }
      let first = await group.next()
      group.cancelAll()
      return first
    }
    XCTAssertEqual(outcome, "still waiting")
  }

  // MARK: Failures

  func testGraphQLErrorsAreBadResponsesWithTheUpstreamMessage() async throws {
    let backend = try backend()
    for operation in ["update", "delete"] {
      let missing = await thrownError {
        if operation == "update" {
          _ = try await backend.update(id: "p404", ProductPatch(price: 1), expectedVersion: nil)
        } else {
          try await backend.delete(id: "p404")
        }
      }
      XCTAssertEqual(
        missing as? NotFound, NotFound(resource: "product", id: "p404"),
        "\(operation) of an unknown id is NotFound, like the embedded catalog")
    }
    let supplier = await thrownError {
      try await backend.create(ProductDraft(nameKo: "감", price: 1, supplierId: "s404"))
    }
    XCTAssertEqual(badResponseMessage(supplier, status: 200), "supplier s404 does not exist")

    try await server().setFaults(["errors": "boom"])
    let list = await thrownError { try await backend.list(ProductListQuery()) }
    XCTAssertEqual(
      list as? UpstreamFailure, .refused(service: "products", status: 200, message: "boom"))
    let suppliers = await thrownError { try await backend.suppliers() }
    XCTAssertEqual(badResponseMessage(suppliers, status: 200), "boom")
  }

  func testPartialDataWithErrorsIsAnError() async throws {
    let backend = try backend()
    try await server().setFaults(["partial": true, "message": "the price service timed out"])
    let list = await thrownError { try await backend.list(ProductListQuery()) }
    XCTAssertEqual(badResponseMessage(list, status: 200), "the price service timed out")
    let get = await thrownError { try await backend.get(id: "p1") }
    XCTAssertEqual(badResponseMessage(get, status: 200), "the price service timed out")
    let missing = await thrownError { try await backend.get(id: "p404") }
    XCTAssertEqual(
      badResponseMessage(missing, status: 200), "the price service timed out",
      "a null product beside errors is an error, not NotFound")
  }

  func testAnErrorStatusIsABadResponseWithItsMessage() async throws {
    let backend = try backend()
    try await server().setFaults(["status": 500, "message": "database on fire"])
    let get = await thrownError { try await backend.get(id: "p1") }
    XCTAssertEqual(
      get as? UpstreamFailure,
      .refused(service: "products", status: 500, message: "database on fire"))
    try await server().setFaults(["status": 403])
    let list = await thrownError { try await backend.list(ProductListQuery()) }
    XCTAssertEqual(badResponseMessage(list, status: 403), "upstream failure")
  }

  func testAFaultForAnotherOperationLeavesTheOthersAlone() async throws {
    let backend = try backend()
    try await server().setFaults(["status": 500, "operation": "UpdateProduct"])
    _ = try await backend.get(id: "p1")
    let update = await thrownError {
      try await backend.update(id: "p1", ProductPatch(price: 1), expectedVersion: nil)
    }
    XCTAssertNotNil(badResponseMessage(update, status: 500))
  }

  func testAMalformedBodyIsABadResponse() async throws {
    let backend = try backend()
    try await server().setFaults(["malformed": true])
    let error = await thrownError { try await backend.get(id: "p1") }
    let message = badResponseMessage(error, status: 200) ?? ""
    XCTAssertTrue(message.hasPrefix("malformed response: the body is not JSON"), message)
  }

  /// The schema's nullable fields may be left out of a reply; an image URL
  /// that is not http(s) reads as none.
  func testMissingNullableFieldsAndForeignImageURLsReadAsNull() async throws {
    let backend = try backend()
    try await server().setFaults([
      "body": ["data": ["product": ["id": "p1", "nameKo": "사과", "price": 1]]]
    ])
    let bare = try await backend.get(id: "p1")
    XCTAssertEqual(
      bare,
      Product(
        id: "p1", nameKo: "사과", nameEn: nil, price: 1, supplier: nil, createdAt: nil,
        updatedAt: nil, version: 1, imageUrl: nil))
    for (url, read) in [
      ("https://cdn.example.com/a.jpg", "https://cdn.example.com/a.jpg"),
      ("file:///etc/passwd", nil), ("javascript:alert(1)", nil), ("https://a b/c", nil),
    ] as [(String, String?)] {
      try await server().setFaults([
        "body": [
          "data": ["product": ["id": "p1", "nameKo": "사과", "price": 1, "imageUrl": JSON(url)]]
        ]
      ])
      let product = try await backend.get(id: "p1")
      XCTAssertEqual(product.imageUrl, read, url)
    }
  }

  func testMissingOrWrongTypedFieldsAreMalformed() async throws {
    let backend = try backend()
    let product: JSON = [
      "id": "p1", "nameKo": "사과", "nameEn": nil, "price": 1, "supplier": nil, "createdAt": nil,
      "updatedAt": nil,
    ]
    func replacing(_ key: String, with value: JSON?) -> JSON {
      var object = product.objectValue ?? [:]
      object[key] = value
      return .object(object)
    }
    let cases: [(body: JSON, reason: String)] = [
      (["data": ["product": replacing("price", with: "1")]], "product.price is a string"),
      (["data": ["product": replacing("nameKo", with: nil)]], "product.nameKo is missing"),
      (["data": ["product": replacing("id", with: 7)]], "product.id is a number"),
      (
        ["data": ["product": replacing("updatedAt", with: false)]], "product.updatedAt is a boolean"
      ),
      (
        ["data": ["product": replacing("supplier", with: ["id": "s1"])]],
        "product.supplier.name is missing"
      ),
      (["data": ["product": "p1"]], "product is a string, not an object"),
      (["data": [:]], "data.product is missing"),
      (["data": nil], "no data object"),
      (["errors": "boom"], "errors is a string, not an array"),
      (["product": product], "no data object"),
      ([product], "the body is an array, not an object"),
    ]
    for (body, reason) in cases {
      try await server().setFaults(["body": body])
      let error = await thrownError { try await backend.get(id: "p1") }
      let message = badResponseMessage(error, status: 200) ?? ""
      XCTAssertTrue(message.hasPrefix("malformed response: "), "\(body): \(message)")
      XCTAssertTrue(message.contains(reason), "\(body): \(message)")
    }

    try await server().setFaults([
      "body": ["data": ["productList": ["itemList": [product, replacing("price", with: 1.5)]]]]
    ])
    let list = await thrownError { try await backend.list(ProductListQuery()) }
    let listMessage = badResponseMessage(list, status: 200) ?? ""
    XCTAssertTrue(
      listMessage.contains("productList.itemList[1].price is a number, not an integer"),
      listMessage)
    try await server().setFaults([
      "body": ["data": ["deleteProduct": nil]], "operation": "DeleteProduct",
    ])
    let delete = await thrownError { try await backend.delete(id: "p1") }
    let deleteMessage = badResponseMessage(delete, status: 200) ?? ""
    XCTAssertTrue(deleteMessage.contains("deleteProduct is null, not a string"), deleteMessage)
  }

  func testATimeoutIsUnavailable() async throws {
    try await server().setFaults(["delayMs": 2000])
    let started = ContinuousClock.now
    let error = await thrownError {
      try await self.backend(timeout: .milliseconds(200)).get(id: "p1")
    }
    guard case .unavailable("products", let reason) = error as? UpstreamFailure else {
      return XCTFail("expected unavailable, got \(String(describing: error))")
    }
    XCTAssertFalse(reason.isEmpty)
    XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(1500))
  }

  func testARefusedConnectionIsUnavailable() async throws {
    let backend = GraphQLProductBackend(
      endpoint: "http://127.0.0.1:\(try LocalHTTPServer.unusedPort())/graphql",
      clientId: { "x" }, timeout: .seconds(5))
    let error = await thrownError { try await backend.suppliers() }
    guard case .unavailable("products", let reason) = error as? UpstreamFailure else {
      return XCTFail("expected unavailable, got \(String(describing: error))")
    }
    XCTAssertFalse(reason.isEmpty)
  }
}
