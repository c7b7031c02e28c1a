/// What an upstream answered: any status, 4xx and 5xx included.
public struct HTTPResponse: Sendable, Hashable {
  public let status: Int
  /// The body, decoded when the upstream compressed it.
  public let body: [UInt8]
  /// The Content-Type header, when there was one.
  public let contentType: String?

  public init(status: Int, body: [UInt8], contentType: String?) {
    self.status = status
    self.body = body
    self.contentType = contentType
  }

  public var isSuccess: Bool { (200..<300).contains(status) }
}
