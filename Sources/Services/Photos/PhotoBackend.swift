/// Where photos come from: a folder of image files or a Lorem
/// Picsum-compatible server.
///
/// Backends throw `NotFound` for an unknown id, `UpstreamFailure` when their
/// source cannot be used (a folder that cannot be opened counts as an
/// unavailable upstream), and `CancellationError`.
public protocol PhotoBackend: Sendable {
  /// "embedded" (the folder) or "remote" (picsum), for `initialize` and `daemon/status`.
  var kind: String { get }

  /// Page `page` (from 1) of `limit` photos.
  func list(page: Int, limit: Int) async throws -> PhotoPage

  /// A local file holding the image of photo `id`.
  func image(id: String) async throws -> ImageFile

  /// Whether the backend handed out `url` as a photo's URL, or would now
  /// (`images/get` serves only such URLs).
  func handedOut(imageURL url: ImageURL) async throws -> Bool
}
