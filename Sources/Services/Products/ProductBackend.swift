/// Where products live: the embedded SQLite catalog or a remote GraphQL upstream.
///
/// Backends validate what only they can (an unknown supplier, a stale
/// version, a cursor they did not issue) and throw `InvalidArgument`,
/// `NotFound`, `ProductsError` or `UpstreamFailure`. Field rules (names,
/// prices) are checked before by `ProductValidation`.
public protocol ProductBackend: Sendable {
  /// "embedded" or "remote", for `initialize` and `daemon/status`.
  var kind: String { get }

  func list(_ query: ProductListQuery) async throws -> ProductPage
  func get(id: String) async throws -> Product
  func create(_ draft: ProductDraft) async throws -> Product
  /// - Throws: `ProductsError.conflict` when `expectedVersion` is not the current version.
  func update(id: String, _ patch: ProductPatch, expectedVersion: Int?) async throws -> Product
  func delete(id: String) async throws
  func suppliers() async throws -> [Supplier]

  /// Changes made outside this daemon (another daemon on the same catalog),
  /// as they are noticed; finishes when the backend is closed. A backend that
  /// cannot notice them returns a stream that never yields.
  func externalChanges() -> AsyncStream<ProductChange>
}
