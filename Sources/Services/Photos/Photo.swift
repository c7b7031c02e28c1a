import Protocol

/// A photo as the photo list app shows it.
public struct Photo: Sendable, Hashable {
  /// Where a photo comes from.
  public enum Source: String, Sendable, Hashable {
    /// A file of the photos folder.
    case folder
    /// A Lorem Picsum-compatible server.
    case picsum
  }

  /// Opaque: a hash of the relative path for folder photos, the upstream's id for picsum.
  public let id: String
  public let author: String?
  public let width: Int
  public let height: Int
  /// Where the image is: `file://` for folder photos, the download URL for picsum.
  public let url: String
  public let source: Source
  /// The image file's size, when known without downloading it (folder photos).
  public let bytes: Int?
  /// The photo's page at its source (picsum's `url`: the photographer's page).
  public let pageURL: String?

  public init(
    id: String, author: String?, width: Int, height: Int, url: String, source: Source,
    bytes: Int? = nil, pageURL: String? = nil
  ) {
    self.id = id
    self.author = author
    self.width = width
    self.height = height
    self.url = url
    self.source = source
    self.bytes = bytes
    self.pageURL = pageURL
  }

  /// The wire shape: `{id, author|null, width, height, url, source, bytes|null, pageUrl|null}`.
  public var json: JSON {
    [
      "id": JSON(id), "author": author.map(JSON.string) ?? .null, "width": JSON(width),
      "height": JSON(height), "url": JSON(url), "source": JSON(source.rawValue),
      "bytes": bytes.map { JSON($0) } ?? .null, "pageUrl": pageURL.map(JSON.string) ?? .null,
    ]
  }
}
