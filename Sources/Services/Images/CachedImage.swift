/// A file of the `ImageCache`, as a lookup returns it.
public struct CachedImage: Sendable, Hashable {
  /// The file's absolute path; it stays until the cache evicts the file.
  public let path: String
  public let format: ImageFormat
  /// The file's size.
  public let bytes: Int
  /// True when no download was needed.
  public let cached: Bool

  public init(path: String, format: ImageFormat, bytes: Int, cached: Bool) {
    self.path = path
    self.format = format
    self.bytes = bytes
    self.cached = cached
  }
}
