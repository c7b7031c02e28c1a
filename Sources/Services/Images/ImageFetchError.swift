/// Why `images/get` could not fetch an image it may serve. Each case names
/// the URL's host, so that a person can tell which server failed. Nothing of
/// a failed download is kept.
public enum ImageFetchError: Error, Sendable, Hashable {
  /// The host could not be reached or did not answer in time (DNS, connect,
  /// TLS, timeout, reset). Trying again later may work.
  case unavailable(host: String, reason: String)
  /// The host answered with a status that is not 2xx.
  case badStatus(host: String, status: Int)
  /// The body was larger than `limit` bytes.
  case tooLarge(host: String, limit: Int)
  /// The body is not a JPEG, PNG, GIF or WebP image.
  case notAnImage(host: String)
  /// The exchange failed otherwise (a garbled reply, too many redirects).
  case failed(host: String, reason: String)

  /// The host the URL names.
  public var host: String {
    switch self {
    case .unavailable(let host, _), .badStatus(let host, _), .tooLarge(let host, _),
      .notAnImage(let host), .failed(let host, _):
      host
    }
  }
}

extension ImageFetchError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .unavailable(let host, let reason): "\(host) cannot be reached: \(reason)"
    case .badStatus(let host, let status): "\(host) answered with status \(status)"
    case .tooLarge(let host, let limit): "the image from \(host) is larger than \(limit) bytes"
    case .notAnImage(let host): "\(host) sent no JPEG, PNG, GIF or WebP image"
    case .failed(let host, let reason): "the image from \(host) could not be fetched: \(reason)"
    }
  }
}
