/// The photo list app's model: pages of photos and the image of each.
public final class PhotosService: ImageURLAuthority {
  public let backend: any PhotoBackend

  /// The largest `limit` of `photos/list`.
  public static let maxLimit = 100
  /// The `limit` of `photos/list` when none is given.
  public static let defaultLimit = 30

  public init(backend: any PhotoBackend) {
    self.backend = backend
  }

  /// Page `page` (from 1) of `limit` (1–100) photos.
  /// - Throws: `InvalidArgument`, `UpstreamFailure`, `CancellationError`.
  public func list(page: Int = 1, limit: Int = PhotosService.defaultLimit) async throws
    -> PhotoPage
  {
    guard page >= 1 else { throw InvalidArgument(field: "page", reason: "must be at least 1") }
    guard (1...Self.maxLimit).contains(limit) else {
      throw InvalidArgument(field: "limit", reason: "must be between 1 and \(Self.maxLimit)")
    }
    return try await backend.list(page: page, limit: limit)
  }

  /// A local file holding the image of photo `id`.
  /// - Throws: `NotFound`, `UpstreamFailure`, `CancellationError`.
  public func image(id: String) async throws -> ImageFile {
    try await backend.image(id: id)
  }

  /// Whether `url` is a photo's URL the backend handed out (`images/get`).
  public func handedOut(_ url: ImageURL) async throws -> Bool {
    try await backend.handedOut(imageURL: url)
  }
}
