import CCurlShim

/// One request handed to the C shim, with the token that cancels it.
///
/// `@unchecked Sendable` is safe: `request` is an immutable value, and the token is
/// only used through `ccurl_cancel_token_cancel` (which takes the token's mutex)
/// and by the one `ccurl_perform` call; it is freed in `deinit`, when neither the
/// performing thread nor the cancellation handler holds the transfer any more.
final class CurlTransfer: @unchecked Sendable {
  private let request: HTTPRequest
  private let token: OpaquePointer

  init?(_ request: HTTPRequest) {
    guard let token = ccurl_cancel_token_create() else { return nil }
    self.request = request
    self.token = token
  }

  deinit { ccurl_cancel_token_free(token) }

  func cancel() { ccurl_cancel_token_cancel(token) }

  static func checkAvailability() throws(HTTPFailure) {
    var reason = [CChar](repeating: 0, count: 256)
    guard ccurl_available(&reason, reason.count) == 0 else { return }
    throw .clientUnavailable(
      String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
  }

  /// Blocks until the exchange ends.
  func perform() -> Result<HTTPResponse, HTTPFailure> {
    let headerLines = request.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    return request.method.withCString { method in
      request.url.withCString { url in
        headerLines.withCString { headers in
          request.body.withUnsafeBufferPointer { body in
            var shimRequest = ccurl_request(
              method: method, url: url, headers: headers, body: body.baseAddress,
              body_length: body.count,
              connect_timeout_ms: Self.milliseconds(min(request.connectTimeout, request.timeout)),
              timeout_ms: Self.milliseconds(request.timeout),
              max_response_bytes: max(request.maxResponseBytes, 1),
              max_redirects: max(request.maxRedirects, 0), cancel: token)
            var response = ccurl_response()
            let outcome = ccurl_perform(&shimRequest, &response)
            defer { ccurl_response_free(&response) }
            return result(outcome, response)
          }
        }
      }
    }
  }

  private func result(_ outcome: ccurl_outcome, _ response: ccurl_response)
    -> Result<HTTPResponse, HTTPFailure>
  {
    let reason = response.error.map { String(cString: $0) } ?? "unknown error"
    switch outcome {
    case CCURL_OK:
      let body = response.body.map {
        Array(UnsafeBufferPointer(start: $0, count: response.body_length))
      }
      return .success(
        HTTPResponse(
          status: response.status, body: body ?? [],
          contentType: response.content_type.map { String(cString: $0) }))
    case CCURL_LIBRARY_UNAVAILABLE: return .failure(.clientUnavailable(reason))
    case CCURL_CANCELLED: return .failure(.cancelled)
    case CCURL_TOO_LARGE: return .failure(.tooLarge(limit: request.maxResponseBytes))
    default:
      return .failure(
        Self.retryableCodes.contains(response.curl_code) ? .unavailable(reason) : .failed(reason))
    }
  }

  /// CURLcodes that mean the upstream could not be reached or did not answer in
  /// time, so that a later try may succeed: couldn't resolve proxy or host (5, 6),
  /// couldn't connect (7), HTTP/2 framing (16), partial body (18), timeout (28),
  /// TLS handshake and certificate trouble (35, 51, 53, 54, 58, 59, 60, 77, 83, 90,
  /// 91), empty reply (52), send and receive errors (55, 56), HTTP/2 stream (92).
  private static let retryableCodes: Set<Int32> = [
    5, 6, 7, 16, 18, 28, 35, 51, 52, 53, 54, 55, 56, 58, 59, 60, 77, 83, 90, 91, 92,
  ]

  /// Whole milliseconds, at least 1: libcurl reads 0 as "no limit".
  private static func milliseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    guard !overflow else { return Int.max }
    return max(1, Int(scaled) + Int(attoseconds / 1_000_000_000_000_000))
  }
}
