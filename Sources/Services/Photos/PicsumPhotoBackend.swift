import Protocol
import Synchronization

/// Photos from a Lorem Picsum-compatible server (https://picsum.photos or a
/// stand-in): `GET {base}/v2/list?page=&limit=` for the pages,
/// `GET {base}/id/{id}/info` for a photo not listed yet, and its
/// `download_url` for the image, kept in the daemon's `ImageCache` under
/// that URL (so `images/get` of the same URL finds the same file).
///
/// A page as long as `limit` is taken to have a next one (the server's Link
/// header is not read), so the page after the last full one may be empty.
public final class PicsumPhotoBackend: PhotoBackend {
  public var kind: String { "remote" }

  static let service = "photos"
  /// Download URLs remembered from lists, at most.
  static let maxRemembered = 10_000

  /// The base URL without a trailing slash.
  private let baseURL: String
  private let timeout: Duration
  private let client: HTTPClient
  public let cache: ImageCache
  /// Where the download URLs of listed photos are recorded for `images/get`.
  public let served: ServedImageURLs
  /// The download URL of each photo listed, by id: `image` needs no lookup.
  private let downloadURLs = Mutex<[String: String]>([:])
  /// The server's scheme, host and port: `images/get` may fetch any URL of
  /// the configured server, which the daemon talks to anyway.
  private let origin: String?

  /// - Parameters:
  ///   - cache: where downloaded images are kept (the daemon's one cache).
  ///   - served: records the download URLs listed, for `images/get`.
  public init(
    baseURL: String, cache: ImageCache, served: ServedImageURLs = ServedImageURLs(),
    timeout: Duration = .seconds(10), client: HTTPClient = HTTPClient()
  ) {
    var baseURL = baseURL
    while baseURL.hasSuffix("/") { baseURL.removeLast() }
    self.baseURL = baseURL
    self.timeout = timeout
    self.client = client
    self.cache = cache
    self.served = served
    origin = ImageURL(baseURL).map(\.origin)
  }

  public func list(page: Int, limit: Int) async throws -> PhotoPage {
    var query = URLQuery()
    query.append("page", page)
    query.append("limit", limit)
    let response = try await get(baseURL + "/v2/list" + query.text, accept: "application/json")
    let items = try decode(response) { json throws(PicsumFormat.Malformed) in
      try PicsumFormat.items(json)
    }
    remember(items)
    return PhotoPage(
      items: items.map(\.photo), page: page, nextPage: items.count >= limit ? page + 1 : nil)
  }

  public func image(id: String) async throws -> ImageFile {
    guard !id.isEmpty, id.utf8.count <= 200 else { throw NotFound(resource: "photo", id: id) }
    let url = try await downloadURL(id: id)
    return try await cache.image(key: url) { [self] in
      let response = try await get(
        url, accept: "image/*", maxBytes: cache.maxDownloadBytes, id: id)
      guard let header = try? ImageHeader.read(bytes: response.body, readingAuthor: false) else {
        throw UpstreamFailure.badResponse(
          service: Self.service, status: response.status,
          message: "the image is not a JPEG, PNG, GIF or WebP file")
      }
      return ImageCache.Download(bytes: response.body, format: header.format)
    }
  }

  /// Whether `url` is a download URL listed (recorded in `served`) or any
  /// URL of the configured server: a list may name another host, and a URL
  /// of the server itself is one the backend could hand out after a restart.
  public func handedOut(imageURL url: ImageURL) async throws -> Bool {
    served.contains(url.text) || (url.scheme != .file && url.origin == origin)
  }

  /// The download URL of `id`: remembered from a list, else asked for.
  private func downloadURL(id: String) async throws -> String {
    if let known = downloadURLs.withLock({ $0[id] }) { return known }
    let path = "/id/" + URLQuery.percentEncoded(id) + "/info"
    let response = try await get(baseURL + path, accept: "application/json", id: id)
    let item = try decode(response) { json throws(PicsumFormat.Malformed) in
      try PicsumFormat.item(json)
    }
    remember([item])
    return item.downloadURL
  }

  private func remember(_ items: [PicsumFormat.Item]) {
    served.record(items.map(\.downloadURL))
    downloadURLs.withLock { urls in
      if urls.count + items.count > Self.maxRemembered { urls.removeAll() }
      for item in items { urls[item.photo.id] = item.downloadURL }
    }
  }

  /// A 2xx response to `GET url`; a 404 is `NotFound` when `id` names what was asked for.
  private func get(_ url: String, accept: String, maxBytes: Int = 8 << 20, id: String? = nil)
    async throws -> HTTPResponse
  {
    let request = HTTPRequest(
      url: url, headers: [.init("Accept", accept)], timeout: timeout,
      connectTimeout: min(timeout, .seconds(5)), maxResponseBytes: maxBytes, maxRedirects: 5)
    let response = try await client.send(request, for: Self.service)
    if response.status == 404, let id { throw NotFound(resource: "photo", id: id) }
    guard response.isSuccess else {
      throw UpstreamFailure.errorStatus(
        service: Self.service, status: response.status, message: upstreamMessage(response.body))
    }
    return response
  }

  private func decode<T>(
    _ response: HTTPResponse, _ read: (JSON) throws(PicsumFormat.Malformed) -> T
  ) throws(UpstreamFailure) -> T {
    let json: JSON
    do {
      json = try JSONParser.parse(response.body)
    } catch {
      throw malformed(response.status, "the body is not JSON (\(error))")
    }
    do {
      return try read(json)
    } catch {
      throw malformed(response.status, error.reason)
    }
  }

  /// The upstream's error message, when its body is JSON with one, shortened.
  private func upstreamMessage(_ body: [UInt8]) -> String? {
    guard let json = try? JSONParser.parse(body),
      let message = json["error"]?.stringValue ?? json["message"]?.stringValue
    else { return nil }
    return message.count > 200 ? String(message.prefix(200)) + "…" : message
  }

  private func malformed(_ status: Int, _ reason: String) -> UpstreamFailure {
    .badResponse(service: Self.service, status: status, message: "malformed response: \(reason)")
  }
}
