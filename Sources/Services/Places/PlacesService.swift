/// The map app's places: the category list, searches around a position or in
/// a rectangle, a place by id, and imports, on the backend the configuration
/// selects (the embedded store, or a Kakao Local-compatible server).
public final class PlacesService: Sendable {
  public let backend: any PlaceBackend

  public init(backend: any PlaceBackend) {
    self.backend = backend
  }

  /// The 18 category groups, in Kakao's order.
  public var categories: [PlaceCategory] { PlaceCategory.allCases }

  /// One page of the places of a category in a circle or a rectangle.
  /// - Throws: `UpstreamFailure`, `CancellationError`, `SQLiteError`.
  public func search(_ search: PlaceSearch) async throws -> PlaceSearchResult {
    try await backend.search(search)
  }

  /// The same page as `search`, as the JSON text of its result: the
  /// embedded store writes it straight from the rows.
  /// - Throws: as `search`.
  public func searchJSON(_ search: PlaceSearch) async throws -> [UInt8] {
    try await backend.searchJSON(search)
  }

  /// `searchJSON` answered on the calling thread, or nil when only
  /// `searchJSON` can answer (see `PlaceBackend.searchJSONNow`).
  public func searchJSONNow(_ search: PlaceSearch) throws -> [UInt8]? {
    try backend.searchJSONNow(search)
  }

  /// The place with `id`.
  /// - Throws: `NotFound`, `UpstreamFailure`, `CancellationError`, `SQLiteError`.
  public func get(id: String) async throws -> Place {
    guard !id.isEmpty else { throw NotFound(resource: "place", id: id) }
    return try await backend.get(id: id)
  }

  /// Adds or replaces the places of a CSV or GeoJSON file; bad rows are
  /// rejected with their line and reason, the rest commit together.
  /// `progress` is called every 10,000 rows, on a thread of the store.
  /// - Throws: `InvalidArgument` (field `path`), `CancellationError`, `SQLiteError`.
  public func importPlaces(
    path: String, progress: @escaping @Sendable (PlaceImportProgress) -> Void = { _ in }
  ) async throws -> PlaceImportResult {
    guard !path.isEmpty else { throw InvalidArgument(field: "path", reason: "is empty") }
    return try await backend.importPlaces(path: path, progress: progress)
  }
}
