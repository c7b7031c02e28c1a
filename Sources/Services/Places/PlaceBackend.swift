/// Where places come from: the embedded store (SQLite and the in-memory
/// index) or a Kakao Local-compatible server.
public protocol PlaceBackend: Sendable {
  /// "embedded" or "remote", as `initialize` and `daemon/status` report it.
  var kind: String { get }

  /// One page of the places of a category in an area.
  /// - Throws: `UpstreamFailure`, `CancellationError`, `SQLiteError`.
  func search(_ search: PlaceSearch) async throws -> PlaceSearchResult

  /// The same page as `search`, as the JSON text of `PlaceSearchResult.json`.
  /// - Throws: as `search`.
  func searchJSON(_ search: PlaceSearch) async throws -> [UInt8]

  /// The place with `id`.
  /// - Throws: `NotFound`, `UpstreamFailure`, `CancellationError`, `SQLiteError`.
  func get(id: String) async throws -> Place

  /// Adds or replaces the places of a CSV or GeoJSON file (see `PlaceImportFormat`).
  /// - Throws: `InvalidArgument` (field `path`) when the file cannot be read
  ///   or has no usable header; `CancellationError`; `SQLiteError`.
  func importPlaces(
    path: String, progress: @escaping @Sendable (PlaceImportProgress) -> Void
  ) async throws -> PlaceImportResult

  /// `searchJSON`, answered at once on the calling thread when the backend
  /// can do that without waiting (an index in memory); nil when it cannot,
  /// and `searchJSON` must be asked.
  func searchJSONNow(_ search: PlaceSearch) throws -> [UInt8]?
}

extension PlaceBackend {
  public func searchJSONNow(_ search: PlaceSearch) throws -> [UInt8]? { nil }

  /// The result's tree, serialized: for a backend with nothing faster.
  public func searchJSON(_ search: PlaceSearch) async throws -> [UInt8] {
    try await self.search(search).json.serialized()
  }
}
