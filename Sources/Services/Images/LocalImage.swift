import Protocol

/// The answer to `images/get`: a local file holding the image of a URL.
public struct LocalImage: Sendable, Hashable {
  /// The URL asked for.
  public let url: String
  /// The file itself for a `file:` URL, a file of the image cache otherwise.
  public let file: ImageFile
  /// The stored width and height, from the file's header; nil only when the
  /// file went (evicted) before its header was read.
  public let width: Int?
  public let height: Int?

  public init(url: String, file: ImageFile, width: Int?, height: Int?) {
    self.url = url
    self.file = file
    self.width = width
    self.height = height
  }

  /// The wire shape: `photos/image`'s with the URL and the dimensions,
  /// `{url, path, contentType, bytes, cached, width|null, height|null}`.
  public var json: JSON {
    [
      "url": JSON(url), "path": JSON(file.path), "contentType": JSON(file.contentType),
      "bytes": JSON(file.bytes), "cached": JSON(file.cached),
      "width": width.map { JSON($0) } ?? .null, "height": height.map { JSON($0) } ?? .null,
    ]
  }
}
