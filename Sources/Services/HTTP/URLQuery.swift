/// The query part of a URL, built from names and values that are percent-encoded
/// here, so a value such as `"C&A=1"` or `"Laozi?"` cannot change the query.
public struct URLQuery: Sendable, Hashable {
  /// The encoded `name=value` pairs, in the order they were appended.
  private var pairs: [String] = []

  public init() {}

  /// Appends `name=value`; a nil value appends nothing.
  public mutating func append(_ name: String, _ value: String?) {
    guard let value else { return }
    pairs.append(Self.percentEncoded(name) + "=" + Self.percentEncoded(value))
  }

  public mutating func append(_ name: String, _ value: Int?) {
    append(name, value.map(String.init))
  }

  /// `""` when empty, else `"?"` followed by the pairs joined with `&`.
  public var text: String { pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&") }

  /// Every byte of the UTF-8 form but RFC 3986's unreserved characters
  /// (`A–Z a–z 0–9 - . _ ~`) becomes `%XX`; a space becomes `%20`, never `+`.
  static func percentEncoded(_ text: String) -> String {
    let hexDigits = Array("0123456789ABCDEF".utf8)
    var encoded: [UInt8] = []
    encoded.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        encoded.append(byte)
      default:
        encoded += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: encoded, as: UTF8.self)
  }
}
