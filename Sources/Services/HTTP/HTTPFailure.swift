/// Why an HTTP exchange produced no response.
///
/// A response with any status, 4xx and 5xx included, is not a failure: callers
/// read the upstream's error message from its body.
public enum HTTPFailure: Error, Sendable, Hashable {
  /// The upstream could not be reached or did not answer in time: DNS, connect,
  /// TLS, timeout, connection reset or closed without a reply. Retrying may work.
  case unavailable(String)
  /// The calling task was cancelled; the transfer was aborted.
  case cancelled
  /// The response body was larger than the request's `maxResponseBytes`.
  case tooLarge(limit: Int)
  /// libcurl could not be loaded (missing `libcurl.so.4`, or one older than 7.68).
  case clientUnavailable(String)
  /// Anything else (a malformed URL, an unsupported scheme, a garbled reply):
  /// retrying the same request will not help.
  case failed(String)
}

extension HTTPFailure: CustomStringConvertible {
  public var description: String {
    switch self {
    case .unavailable(let reason): "upstream unavailable: \(reason)"
    case .cancelled: "cancelled"
    case .tooLarge(let limit): "response larger than \(limit) bytes"
    case .clientUnavailable(let reason): "HTTP client unavailable: \(reason)"
    case .failed(let reason): reason
    }
  }
}
