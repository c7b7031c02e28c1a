import Protocol

/// Products from the GraphQL upstream at the configured server URL (the app's
/// `SERVER_URL`); schema in `Upstream/products.graphql`, the operations sent in
/// `Upstream/operations.graphql`.
///
/// Each call POSTs `{"query", "variables", "operationName"}` as JSON to the
/// endpoint, with the header `Croquis-UUID: <clientId>` (read at every request,
/// so the id that `initialize` sets is used from then on). Values travel in
/// `variables` only, never in the query text.
///
/// Errors: a GraphQL `errors` array, also beside partial `data`, and a status
/// that is not 2xx are `UpstreamFailure.badResponse` with the upstream's first
/// message; a body that is not JSON or lacks a selected field is `badResponse`
/// with a message starting "malformed response:"; connect, TLS and timeout
/// failures are `UpstreamFailure.unavailable`. `product: null` is `NotFound`.
///
/// What the upstream schema lacks:
/// - sort orders other than `newest`, and the `supplierId` filter: `InvalidArgument`;
/// - prices above `Int32.max` (a GraphQL `Int` has 32 bits): `InvalidArgument`;
/// - versions: derived from `updatedAt` (see `GraphQLProductVersion`);
/// - change notifications: `externalChanges()` never yields;
/// - `imageUrl`, in an older upstream: products have none, and setting one is
///   `InvalidArgument` (see `GraphQLImageField`).
///
/// The fields the schema leaves nullable (`nameEn`, `supplier`, `createdAt`,
/// `updatedAt`, `imageUrl`) may also be missing from a reply: they read as null.
public struct GraphQLProductBackend: ProductBackend {
  public var kind: String { "remote" }

  static let service = "products"
  static let unsupported: LocalizedText = "not supported by the remote products backend"
  /// The largest price a GraphQL `Int` can carry.
  static let maxPrice = Int(Int32.max)

  /// The GraphQL endpoint itself (nothing is appended).
  private let endpoint: String
  /// The value of the `Croquis-UUID` header, asked for at every request.
  private let clientId: @Sendable () -> String
  /// Limit on each request, connecting included.
  private let timeout: Duration
  private let client: HTTPClient
  private let imageField = GraphQLImageField()
  /// The image URLs of the products this backend returned lately: the
  /// upstream cannot be asked which product has an image.
  private let servedImages = ServedImageURLs()

  public init(
    endpoint: String, clientId: @escaping @Sendable () -> String, timeout: Duration,
    client: HTTPClient = HTTPClient()
  ) {
    self.endpoint = endpoint
    self.clientId = clientId
    self.timeout = timeout
    self.client = client
  }

  /// - Throws: `InvalidArgument` for a sort other than `newest` or a `supplierId`.
  public func list(_ query: ProductListQuery) async throws -> ProductPage {
    guard query.sort == .newest else {
      throw InvalidArgument(field: "sort", reason: Self.unsupported)
    }
    guard query.supplierId == nil else {
      throw InvalidArgument(field: "supplierId", reason: Self.unsupported)
    }
    let filter = ProductCursor.filterDigest(query: query.query, supplierId: nil)
    let upstreamCursor = try query.cursor.map { text throws(InvalidArgument) in
      try UpstreamCursor(decoding: text, filter: filter).upstream
    }
    let variables: JSONObject = [
      "cursor": JSON(upstreamCursor), "limit": JSON(query.limit), "query": JSON(query.query),
    ]
    let (status, value) = try await perform(.productList, variables)
    let page = try decode(status) { () throws(MalformedPayload) in
      try GraphQLProductFormat.page(value, at: "productList")
    }
    servedImages.record(page.items.compactMap(\.imageUrl))
    return ProductPage(
      items: page.items,
      nextCursor: page.nextCursor.map { UpstreamCursor(upstream: $0, filter: filter).encoded },
      totalCount: page.totalCount)
  }

  public func get(id: String) async throws -> Product {
    let (status, value) = try await perform(.product, ["id": JSON(id)])
    if value.isNull { throw NotFound(resource: "product", id: id) }
    return served(
      try decode(status) { () throws(MalformedPayload) in
        try GraphQLProductFormat.product(value, at: "product")
      })
  }

  public func create(_ draft: ProductDraft) async throws -> Product {
    try Self.checkPrice(draft.price)
    var input: JSONObject = [
      "nameKo": JSON(draft.nameKo), "nameEn": JSON(draft.nameEn), "price": JSON(draft.price),
      "supplierId": JSON(draft.supplierId),
    ]
    // Only when set: an upstream without the field rejects even a null.
    if let imageUrl = draft.imageUrl { input["imageUrl"] = JSON(imageUrl) }
    let (status, value) = try await perform(.createProduct, ["input": .object(input)])
    return served(
      try decode(status) { () throws(MalformedPayload) in
        try GraphQLProductFormat.product(value, at: "createProduct")
      })
  }

  /// Sends only the fields of `patch` that are set; a cleared `nameEn`,
  /// `supplierId` or `imageUrl` is sent as an explicit `null`.
  ///
  /// `expectedVersion` is checked by fetching the product first and comparing
  /// its derived version. The check and the update are two requests, so it is
  /// not atomic: a change made by someone else between them is overwritten.
  /// The upstream offers nothing better.
  ///
  /// The product is fetched first in any case: the upstream reports an
  /// unknown id only as an error message, and clients need -32001 for it.
  ///
  /// - Throws: `ProductsError.conflict` when `expectedVersion` is not the current
  ///   version; `NotFound` when the product does not exist.
  public func update(id: String, _ patch: ProductPatch, expectedVersion: Int?) async throws
    -> Product
  {
    if let price = patch.price { try Self.checkPrice(price) }
    let current = try await get(id: id)
    if let expectedVersion, current.version != expectedVersion {
      throw ProductsError.conflict(currentVersion: current.version)
    }
    var input: JSONObject = ["id": JSON(id)]
    if let nameKo = patch.nameKo { input["nameKo"] = JSON(nameKo) }
    if let nameEn = patch.nameEn { input["nameEn"] = JSON(nameEn) }
    if let price = patch.price { input["price"] = JSON(price) }
    if let supplierId = patch.supplierId { input["supplierId"] = JSON(supplierId) }
    if let imageUrl = patch.imageUrl { input["imageUrl"] = JSON(imageUrl) }
    let (status, value) = try await perform(.updateProduct, ["input": .object(input)])
    return served(
      try decode(status) { () throws(MalformedPayload) in
        try GraphQLProductFormat.product(value, at: "updateProduct")
      })
  }

  /// Fetches the product first, so that an unknown id is `NotFound` (see `update`).
  public func delete(id: String) async throws {
    _ = try await get(id: id)
    let (status, value) = try await perform(.deleteProduct, ["id": JSON(id)])
    _ = try decode(status) { () throws(MalformedPayload) in
      try GraphQLProductFormat.id(value, at: "deleteProduct")
    }
  }

  /// Whether a product this backend returned lately had `url` as its image.
  public func handedOut(imageURL url: String) async throws -> Bool {
    servedImages.contains(url)
  }

  /// `product`, its image URL recorded as handed out.
  private func served(_ product: Product) -> Product {
    if let url = product.imageUrl { servedImages.record([url]) }
    return product
  }

  public func suppliers() async throws -> [Supplier] {
    let (status, value) = try await perform(.supplierList, [:])
    let suppliers = try decode(status) { () throws(MalformedPayload) in
      try GraphQLProductFormat.suppliers(value, at: "supplierList")
    }
    // By name, like the embedded catalog; the upstream's order is its own.
    return suppliers.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
  }

  /// The upstream has no subscriptions: a stream that never yields and ends
  /// only when its consumer is cancelled.
  public func externalChanges() -> AsyncStream<[ProductChange]> {
    // Dropping the continuation does not finish the stream (the test checks it).
    AsyncStream { _ in }
  }

  private static func checkPrice(_ price: Int) throws(InvalidArgument) {
    guard price <= maxPrice else {
      throw InvalidArgument(
        field: "price", reason: "must be at most \(maxPrice) for the remote products backend")
    }
  }

  /// Sends `operation` with `variables` and returns the HTTP status and the
  /// value of the operation's field in `data` (possibly `null`). An upstream
  /// that rejects the `imageUrl` field gets the operation again without it,
  /// unless the call sets an image, which it cannot store.
  private func perform(_ operation: GraphQLOperation, _ variables: JSONObject) async throws -> (
    status: Int, value: JSON
  ) {
    let setsImage = variables["input"]?["imageUrl"] != nil
    if imageField.isMissing {
      guard !setsImage else { throw Self.noImageField }
      return try await send(operation.withoutImageField, variables)
    }
    do {
      return try await send(operation, variables)
    } catch let failure as UpstreamFailure where GraphQLImageField.isRejection(failure) {
      imageField.markMissing()
      guard !setsImage else { throw Self.noImageField }
      return try await send(operation.withoutImageField, variables)
    }
  }

  static let noImageField = InvalidArgument(
    field: "imageUrl",
    reason: "the products upstream has no imageUrl field, so products there cannot have images")

  private func send(_ operation: GraphQLOperation, _ variables: JSONObject) async throws -> (
    status: Int, value: JSON
  ) {
    let body: JSON = [
      "query": JSON(operation.document), "variables": .object(variables),
      "operationName": JSON(operation.name),
    ]
    let request = HTTPRequest(
      method: "POST", url: endpoint,
      headers: [
        .init("Content-Type", "application/json"), .init("Accept", "application/json"),
        .init("Croquis-UUID", clientId()),
      ],
      body: body.serialized(), timeout: timeout, connectTimeout: min(timeout, .seconds(5)))
    let response = try await client.send(request, for: Self.service)
    let status = response.status
    let parsed = response.json
    guard response.isSuccess else {
      // An error page need not be JSON; when it is, it carries the message.
      let message: String? =
        if case .success(let json) = parsed { Self.errorMessage(json) } else { nil }
      throw UpstreamFailure.errorStatus(service: Self.service, status: status, message: message)
    }
    let json: JSON
    switch parsed {
    case .success(let value): json = value
    case .failure(let error): throw malformed(status, "the body is not JSON (\(error))")
    }
    guard let object = json.objectValue else {
      throw malformed(
        status, "the body is \(GraphQLProductFormat.article(json.typeName)), not an object")
    }
    if let errors = object["errors"], !errors.isNull {
      guard let list = errors.arrayValue else {
        throw malformed(
          status, "errors is \(GraphQLProductFormat.article(errors.typeName)), not an array")
      }
      // Partial data beside errors is a failure all the same: part of it is missing.
      if !list.isEmpty {
        guard let message = Self.errorMessage(json) else {
          throw UpstreamFailure.badResponse(
            service: Self.service, status: status, message: "GraphQL error without a message")
        }
        throw UpstreamFailure.refused(service: Self.service, status: status, message: message)
      }
    }
    guard let data = object["data"]?.objectValue else {
      throw malformed(status, "the body has no data object")
    }
    guard let value = data[operation.field] else {
      throw malformed(status, "data.\(operation.field) is missing")
    }
    return (status, value)
  }

  /// The first GraphQL error's message, or a plain `message` member,
  /// shortened so a verbose upstream cannot flood the client.
  private static func errorMessage(_ body: JSON) -> String? {
    guard
      let message = body["errors"]?.arrayValue?.first?["message"]?.stringValue
        ?? body["message"]?.stringValue
    else { return nil }
    return UpstreamFailure.shortened(message)
  }

  private func decode<T>(_ status: Int, _ read: () throws(MalformedPayload) -> T)
    throws(UpstreamFailure) -> T
  {
    try UpstreamFailure.decoding(service: Self.service, status: status, read)
  }

  private func malformed(_ status: Int, _ reason: String) -> UpstreamFailure {
    .malformed(service: Self.service, status: status, reason)
  }
}
