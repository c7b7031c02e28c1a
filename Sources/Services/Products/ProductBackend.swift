import Protocol

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
  /// as they are noticed: each element the changes noticed together (one
  /// poll's, or the notifications that arrived meanwhile), never empty, in
  /// the order they were made; finishes when the backend is closed. A backend
  /// that cannot notice them returns a stream that never yields.
  func externalChanges() -> AsyncStream<[ProductChange]>
  /// Returns once the changes `externalChanges` reports include every change
  /// committed from now on: at once for a backend that notes when watching
  /// began (the SQLite catalog reads its log from then) or cannot notice
  /// changes; once its listener listens, or failed a first time, for one that
  /// only hears of changes while listening (PostgreSQL).
  func waitUntilWatching() async

  /// `get`'s product as JSON, answered at once on the calling thread when the
  /// backend can do that without waiting (a local file it reads directly);
  /// nil when it cannot, and `get` must be asked.
  func getNow(id: String) throws -> EncodedJSON?
  /// `list`'s page as JSON, likewise.
  func listNow(_ query: ProductListQuery) throws -> EncodedJSON?

  /// Whether this backend handed out `url` as a product's `imageUrl` (for
  /// `images/get`, which serves no other URL).
  func handedOut(imageURL url: String) async throws -> Bool
}

extension ProductBackend {
  public func waitUntilWatching() async {}
  public func getNow(id: String) throws -> EncodedJSON? { nil }
  public func listNow(_ query: ProductListQuery) throws -> EncodedJSON? { nil }
}
