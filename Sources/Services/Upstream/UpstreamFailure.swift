/// An upstream (remote backend) failed; shared by every service.
///
/// The daemon maps `.unavailable` to -32020 with `data: {service, retryable: true}`,
/// and `.refused` and `.badResponse` to -32021 with `data: {service, status?,
/// upstreamMessage?}`; a refusal's message is the error's message too.
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
  /// The upstream refused the request and said why in words of its own,
  /// meant for people (the product server's validation text, a quota notice).
  case refused(service: String, status: Int, message: String)

  public var service: String {
    switch self {
    case .unavailable(let service, _), .badResponse(let service, _, _),
      .refused(let service, _, _):
      service
    }
  }

  /// An error status with the upstream's own message when it gave one.
  public static func errorStatus(service: String, status: Int, message: String?)
    -> UpstreamFailure
  {
    guard let message, !message.isEmpty else {
      return .badResponse(service: service, status: status, message: nil)
    }
    return .refused(service: service, status: status, message: message)
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
    case .refused(let service, let status, let message):
      "the \(service) upstream refused (status \(status)): \(message)"
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

extension UpstreamFailure {
  /// The longest upstream message passed on, so a verbose upstream cannot flood the client.
  static let maxMessageLength = 200

  /// `message`, shortened to `maxMessageLength` characters.
  static func shortened(_ message: String?) -> String? {
    guard let message else { return nil }
    return message.count > maxMessageLength
      ? String(message.prefix(maxMessageLength)) + "…" : message
  }

  /// A 2xx answer whose payload the service cannot use.
  static func malformed(service: String, status: Int?, _ reason: String) -> UpstreamFailure {
    .badResponse(service: service, status: status, message: "malformed response: \(reason)")
  }

  /// Runs a payload reader, turning its `MalformedPayload` into a `.badResponse`.
  static func decoding<T>(
    service: String, status: Int, _ read: () throws(MalformedPayload) -> T
  ) throws(UpstreamFailure) -> T {
    do {
      return try read()
    } catch {
      throw malformed(service: service, status: status, error.reason)
    }
  }
}
