/// An upstream (remote backend) failed; shared by every service.
///
/// The daemon maps `.unavailable` to -32020 with `data: {service, retryable: true}`
/// and `.badResponse` to -32021 with `data: {service, status?, upstreamMessage?}`.
/// Reasons and messages never contain secrets: they come from the HTTP client's
/// connection errors or the upstream's own error message, never from headers.
public enum UpstreamFailure: Error, Sendable, Hashable {
  /// The upstream could not be reached or did not answer in time (DNS, connect,
  /// TLS, timeout, connection reset). Trying again later may work.
  case unavailable(service: String, reason: String)
  /// The upstream answered, but not with what the service needs: a status that is
  /// not 2xx, a body that is not JSON, or JSON without the expected fields.
  /// `status` is nil when the exchange failed before a status could be used.
  case badResponse(service: String, status: Int?, message: String?)

  public var service: String {
    switch self {
    case .unavailable(let service, _), .badResponse(let service, _, _): service
    }
  }
}

extension UpstreamFailure: CustomStringConvertible {
  public var description: String {
    switch self {
    case .unavailable(let service, let reason):
      "the \(service) upstream is unavailable: \(reason)"
    case .badResponse(let service, let status, let message):
      "the \(service) upstream answered badly"
        + (status.map { " (status \($0))" } ?? "") + (message.map { ": \($0)" } ?? "")
    }
  }
}

extension HTTPFailure {
  /// What a service throws when a request to its upstream fails: an
  /// `UpstreamFailure`, or `CancellationError` when the calling task was cancelled
  /// (the daemon answers that with -32800 like any other cancelled request).
  public func serviceError(service: String) -> any Error {
    switch self {
    case .unavailable(let reason): UpstreamFailure.unavailable(service: service, reason: reason)
    case .clientUnavailable(let reason):
      UpstreamFailure.unavailable(service: service, reason: "no HTTP client: \(reason)")
    case .cancelled: CancellationError()
    case .tooLarge(let limit):
      UpstreamFailure.badResponse(
        service: service, status: nil, message: "response larger than \(limit) bytes")
    case .failed(let reason):
      UpstreamFailure.badResponse(service: service, status: nil, message: reason)
    }
  }
}
