/// One image of the folder as the index lists it.
public struct IndexedPhoto: Sendable, Hashable {
  /// Stable across restarts: see `PhotoID`. Made once per photo, so that
  /// every page and feed holding the photo shares it.
  public let id: String
  /// The path under the folder, "/"-separated.
  public let relativePath: String
  public let format: ImageFormat
  public let width: Int
  public let height: Int
  public let author: String?
  /// The file's size in bytes when it was indexed.
  public let size: Int64
}
