/// One HTTP exchange to perform with `HTTPClient`.
public struct HTTPRequest: Sendable, Hashable {
  public struct Header: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }

  /// "GET", "POST", "PUT", "PATCH", "DELETE" or "HEAD".
  public var method: String
  /// An absolute `http` or `https` URL, query included and already percent-encoded.
  public var url: String
  public var headers: [Header]
  /// Sent for every method but GET and HEAD (empty: a zero-length body).
  public var body: [UInt8]
  /// Limit on the whole exchange, connecting included.
  public var timeout: Duration
  /// Limit on connecting (DNS, TCP and TLS); never more than `timeout`.
  public var connectTimeout: Duration
  /// A larger response body ends the exchange with `HTTPFailure.tooLarge`.
  public var maxResponseBytes: Int
  /// How many redirects to follow; 0 returns a 3xx as it is.
  public var maxRedirects: Int

  public init(
    method: String = "GET", url: String, headers: [Header] = [], body: [UInt8] = [],
    timeout: Duration = .seconds(10), connectTimeout: Duration = .seconds(5),
    maxResponseBytes: Int = 8 << 20, maxRedirects: Int = 0
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeout = timeout
    self.connectTimeout = connectTimeout
    self.maxResponseBytes = maxResponseBytes
    self.maxRedirects = maxRedirects
  }

  /// Refuses what would let a caller's value change the request's framing:
  /// line breaks or NUL in the method, URL or headers (header injection).
  func validate() throws(HTTPFailure) {
    func isSafe(_ text: String) -> Bool {
      !text.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0x00 }
    }
    guard !method.isEmpty, method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      throw .failed("invalid HTTP method")
    }
    guard isSafe(url) else { throw .failed("invalid URL") }
    for header in headers {
      guard !header.name.isEmpty, !header.name.contains(":"), isSafe(header.name),
        isSafe(header.value)
      else { throw .failed("invalid header \(header.name)") }
    }
  }
}
