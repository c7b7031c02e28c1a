/// An image URL as `images/get` takes it: `http`, `https` or `file`, with the
/// parts the service needs.
public struct ImageURL: Sendable, Hashable {
  public enum Scheme: String, Sendable, Hashable {
    case http
    case https
    case file
  }

  /// The URL as given: the key of the cache and of the served URLs.
  public let text: String
  public let scheme: Scheme
  /// The host, lowercased, without port or user info; empty for `file:`.
  public let host: String
  /// The scheme, host and port (`http://example.com:8080`); empty for `file:`.
  public let origin: String
  /// For `file:`, the absolute path, percent-decoded.
  public let path: String?

  /// Nil when `text` is not an absolute `http`, `https` or `file` URL, or a
  /// `file:` URL names another host or holds an encoded NUL or bad escape.
  public init?(_ text: String) {
    guard let colon = text.firstIndex(of: ":"),
      let scheme = Scheme(rawValue: text[..<colon].lowercased())
    else { return nil }
    let rest = text[text.index(after: colon)...]
    self.text = text
    self.scheme = scheme
    switch scheme {
    case .file:
      // file:///path, file://localhost/path or file:/path (RFC 8089).
      var path = rest
      if path.hasPrefix("//") {
        path = path.dropFirst(2)
        let authority = path.prefix { $0 != "/" }
        guard authority.isEmpty || authority.lowercased() == "localhost" else { return nil }
        path = path.dropFirst(authority.count)
      }
      guard path.hasPrefix("/"), let decoded = Self.percentDecoded(path) else { return nil }
      host = ""
      origin = ""
      self.path = decoded
    case .http, .https:
      guard rest.hasPrefix("//") else { return nil }
      let authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
      let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
      let host: Substring
      if hostAndPort.hasPrefix("[") {
        // An IPv6 literal: the host is the bracketed part.
        host = hostAndPort.prefix { $0 != "]" }.dropFirst()
      } else {
        host = hostAndPort.prefix { $0 != ":" }
      }
      guard !host.isEmpty else { return nil }
      self.host = host.lowercased()
      origin = scheme.rawValue + "://" + hostAndPort.lowercased()
      path = nil
    }
  }

  /// `text` with each `%XX` decoded; nil for a bad escape, a NUL or bytes
  /// that are not UTF-8.
  static func percentDecoded(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(Self.hexValue),
        let low = iterator.next().flatMap(Self.hexValue)
      else { return nil }
      bytes.append(high << 4 | low)
    }
    guard !bytes.contains(0) else { return nil }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
