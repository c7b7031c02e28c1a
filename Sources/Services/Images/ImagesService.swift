import Glibc

/// `images/get`: a local file for any image URL the daemon handed out, the
/// photos' and the products'. `http` and `https` images come through the one
/// `ImageCache`; a `file:` URL is the file itself.
///
/// A URL is served only when the daemon handed it out: `served` (remote URLs
/// recorded as they were listed) or one of the `authorities` (each service
/// re-deriving its own) must vouch for it, so that no client can use the
/// daemon as a proxy to fetch whatever it likes.
public final class ImagesService: Sendable {
  public let cache: ImageCache
  /// Remote image URLs handed out, recorded by the backends that list them.
  public let served: ServedImageURLs
  private let authorities: [any ImageURLAuthority]
  private let timeout: Duration
  private let client: HTTPClient

  /// - Parameters:
  ///   - authorities: the services that hand out image URLs, asked in turn
  ///     when `served` has not recorded the URL.
  ///   - timeout: the time limit of one download.
  public init(
    cache: ImageCache, served: ServedImageURLs, authorities: [any ImageURLAuthority],
    timeout: Duration = .seconds(10), client: HTTPClient = HTTPClient()
  ) {
    self.cache = cache
    self.served = served
    self.authorities = authorities
    self.timeout = timeout
    self.client = client
  }

  /// The reason `images/get` gives for a URL it does not serve.
  static let notHandedOut = InvalidArgument(
    field: "url",
    reason: "was not handed out by this daemon; images/get serves only photo and product image URLs"
  )

  /// A local file holding the image at `url`.
  /// - Throws: `InvalidArgument` for a URL the daemon did not hand out;
  ///   `NotFound` for a `file:` URL whose file is gone or no longer an image;
  ///   `ImageFetchError` when the download fails; `PhotoFolderError` when the
  ///   cache cannot write; `CancellationError`.
  public func image(url text: String) async throws -> LocalImage {
    guard let url = ImageURL(text), try await isHandedOut(url) else { throw Self.notHandedOut }
    switch url.scheme {
    case .file:
      return try localFile(url)
    case .http, .https:
      let file = try await cache.image(key: url.text) { [self] in try await download(url) }
      // Read from the file, so that a hit costs no more than a miss; the
      // file may be evicted meanwhile by another download, hence optional.
      let header = try? ImageHeader.read(path: file.path, readingAuthor: false)
      return LocalImage(url: text, file: file, width: header?.width, height: header?.height)
    }
  }

  /// Whether `served` or an authority vouches for `url`. An authority that
  /// fails is not taken for a "no": its error is thrown when no other vouches.
  private func isHandedOut(_ url: ImageURL) async throws -> Bool {
    if served.contains(url.text) { return true }
    var failure: (any Error)?
    for authority in authorities {
      do {
        if try await authority.handedOut(url) { return true }
      } catch is CancellationError {
        throw CancellationError()
      } catch {
        failure = failure ?? error
      }
    }
    if let failure { throw failure }
    return false
  }

  private func localFile(_ url: ImageURL) throws -> LocalImage {
    guard let path = url.path, let status = PhotoFiles.status(path),
      status.st_mode & S_IFMT == S_IFREG,
      let header = try? ImageHeader.read(path: path, readingAuthor: false)
    else { throw NotFound(resource: "image", id: url.text) }
    return LocalImage(
      url: url.text,
      file: ImageFile(path: path, format: header.format, bytes: Int(status.st_size), cached: true),
      width: header.width, height: header.height)
  }

  /// The image at `url`: at most the cache's `maxDownloadBytes`, a 2xx
  /// answer, and a JPEG, PNG, GIF or WebP file by its first bytes.
  private func download(_ url: ImageURL) async throws -> ImageCache.Download {
    let limit = cache.maxDownloadBytes
    let request = HTTPRequest(
      url: url.text, headers: [.init("Accept", "image/*")], timeout: timeout,
      connectTimeout: min(timeout, .seconds(5)), maxResponseBytes: limit, maxRedirects: 5)
    let response: HTTPResponse
    do {
      response = try await client.send(request)
    } catch {
      switch error {
      case .cancelled: throw CancellationError()
      case .unavailable(let reason), .clientUnavailable(let reason):
        throw ImageFetchError.unavailable(host: url.host, reason: reason)
      case .tooLarge: throw ImageFetchError.tooLarge(host: url.host, limit: limit)
      case .failed(let reason): throw ImageFetchError.failed(host: url.host, reason: reason)
      }
    }
    guard response.isSuccess else {
      throw ImageFetchError.badStatus(host: url.host, status: response.status)
    }
    guard let header = try? ImageHeader.read(bytes: response.body, readingAuthor: false) else {
      throw ImageFetchError.notAnImage(host: url.host)
    }
    return ImageCache.Download(bytes: response.body, format: header.format)
  }
}
