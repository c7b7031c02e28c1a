import Protocol

/// The answer to `photos/image`: a local file holding the image.
public struct PhotoImage: Sendable, Hashable {
  /// The file's absolute path: the photo itself for the folder backend, a
  /// file of the disk cache for picsum (it stays until the cache evicts it).
  public let path: String
  /// `image/jpeg`, `image/png`, `image/gif` or `image/webp`.
  public let contentType: String
  /// The file's size.
  public let bytes: Int
  /// True when no download was needed: a folder photo, or a cache hit.
  public let cached: Bool

  public init(path: String, contentType: String, bytes: Int, cached: Bool) {
    self.path = path
    self.contentType = contentType
    self.bytes = bytes
    self.cached = cached
  }

  /// The wire shape: `{path, contentType, bytes, cached}`.
  public var json: JSON {
    [
      "path": JSON(path), "contentType": JSON(contentType), "bytes": JSON(bytes),
      "cached": JSON(cached),
    ]
  }
}
