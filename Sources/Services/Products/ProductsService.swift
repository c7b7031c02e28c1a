import Protocol

/// The product manager's view model: list, detail, create, update, delete,
/// suppliers. After every mutation it reports the change through `changed`
/// (synchronously, before returning), so the daemon can tell the client to
/// refresh its list and detail before the mutation's response.
public final class ProductsService: Sendable {
  public let backend: any ProductBackend

  public init(backend: any ProductBackend) {
    self.backend = backend
  }

  public func list(_ query: ProductListQuery) async throws -> ProductPage {
    try Self.check(query)
    return try await backend.list(query)
  }

  public func get(id: String) async throws -> Product {
    try await backend.get(id: id)
  }

  /// `list` answered on the calling thread, or nil when only `list` can
  /// answer (see `ProductBackend.listNow`).
  public func listNow(_ query: ProductListQuery) throws -> EncodedJSON? {
    try Self.check(query)
    return try backend.listNow(query)
  }

  /// `get` answered on the calling thread, or nil (see `ProductBackend.getNow`).
  public func getNow(id: String) throws -> EncodedJSON? {
    try backend.getNow(id: id)
  }

  private static func check(_ query: ProductListQuery) throws(InvalidArgument) {
    if let text = query.query, text.count > ProductValidation.maxNameLength {
      throw InvalidArgument(
        field: "query", reason: "longer than \(ProductValidation.maxNameLength) characters")
    }
  }

  public func create(_ draft: ProductDraft, changed: @Sendable (ProductChange) -> Void)
    async throws -> Product
  {
    let product = try await backend.create(try ProductValidation.draft(draft))
    changed(ProductChange(reason: .created, id: product.id, product: product))
    return product
  }

  public func update(
    id: String, _ patch: ProductPatch, expectedVersion: Int?,
    changed: @Sendable (ProductChange) -> Void
  ) async throws -> Product {
    let product = try await backend.update(
      id: id, try ProductValidation.patch(patch), expectedVersion: expectedVersion)
    changed(ProductChange(reason: .updated, id: product.id, product: product))
    return product
  }

  public func delete(id: String, changed: @Sendable (ProductChange) -> Void) async throws {
    try await backend.delete(id: id)
    changed(ProductChange(reason: .deleted, id: id))
  }

  /// Whether `url` is an `imageUrl` the catalog handed out (see `images/get`).
  public func handedOut(imageURL url: String) async throws -> Bool {
    try await backend.handedOut(imageURL: url)
  }

  public func suppliers() async throws -> [Supplier] {
    try await backend.suppliers()
  }
}
