import Protocol

/// The answer to `images/get`: a local file holding the image of a URL.
public struct LocalImage: Sendable, Hashable {
  /// The URL asked for.
  public let url: String
  /// The file's absolute path: the file itself for a `file:` URL, a file of
  /// the image cache otherwise (it stays until the cache evicts it).
  public let path: String
  public let format: ImageFormat
  /// The file's size.
  public let bytes: Int
  /// True when no download was needed: a `file:` URL, or a cache hit.
  public let cached: Bool
  /// The stored width and height, from the file's header; nil only when the
  /// file went (evicted) before its header was read.
  public let width: Int?
  public let height: Int?

  public init(
    url: String, path: String, format: ImageFormat, bytes: Int, cached: Bool, width: Int?,
    height: Int?
  ) {
    self.url = url
    self.path = path
    self.format = format
    self.bytes = bytes
    self.cached = cached
    self.width = width
    self.height = height
  }

  /// The wire shape: `{url, path, contentType, bytes, cached, width|null,
  /// height|null}`, `photos/image`'s with the URL and the dimensions.
  public var json: JSON {
    [
      "url": JSON(url), "path": JSON(path), "contentType": JSON(format.contentType),
      "bytes": JSON(bytes), "cached": JSON(cached), "width": width.map { JSON($0) } ?? .null,
      "height": height.map { JSON($0) } ?? .null,
    ]
  }
}
