import Protocol

/// A local file holding an image: a photo of the folder, a picture of the
/// demo catalog, or a file of the `ImageCache` (it stays until the cache
/// evicts it). `photos/image` answers with one.
public struct ImageFile: Sendable, Hashable {
  /// The file's absolute path.
  public let path: String
  public let format: ImageFormat
  /// The file's size.
  public let bytes: Int
  /// True when no download was needed: a file of its own, or a cache hit.
  public let cached: Bool

  public init(path: String, format: ImageFormat, bytes: Int, cached: Bool) {
    self.path = path
    self.format = format
    self.bytes = bytes
    self.cached = cached
  }

  /// `image/jpeg`, `image/png`, `image/gif` or `image/webp`.
  public var contentType: String { format.contentType }

  /// The wire shape: `{path, contentType, bytes, cached}`.
  public var json: JSON {
    [
      "path": JSON(path), "contentType": JSON(contentType), "bytes": JSON(bytes),
      "cached": JSON(cached),
    ]
  }
}
