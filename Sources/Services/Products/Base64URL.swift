/// Base64 with the URL alphabet and no padding (RFC 4648 §5).
enum Base64URL {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  static func encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index < bytes.count {
      let chunk = bytes[index..<min(index + 3, bytes.count)]
      let value = chunk.enumerated().reduce(UInt32(0)) {
        $0 | UInt32($1.element) << (16 - 8 * $1.offset)
      }
      for position in 0..<(chunk.count + 1) {
        out.append(alphabet[Int((value >> (18 - 6 * position)) & 0x3F)])
      }
      index += 3
    }
    return String(decoding: out, as: UTF8.self)
  }

  static func decode(_ text: String) -> [UInt8]? {
    var values: [UInt8] = []
    values.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      guard let value = value(of: byte) else { return nil }
      values.append(value)
    }
    guard values.count % 4 != 1 else { return nil }
    var out: [UInt8] = []
    var index = 0
    while index < values.count {
      let chunk = values[index..<min(index + 4, values.count)]
      let value = chunk.enumerated().reduce(UInt32(0)) {
        $0 | UInt32($1.element) << (18 - 6 * $1.offset)
      }
      for position in 0..<(chunk.count - 1) {
        out.append(UInt8((value >> (16 - 8 * position)) & 0xFF))
      }
      index += 4
    }
    return out
  }

  /// The 6-bit value `byte` stands for in `alphabet`, by its ranges (a search
  /// of the alphabet showed in the profile of a page read by its cursor).
  private static func value(of byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
    case UInt8(ascii: "-"): 62
    case UInt8(ascii: "_"): 63
    default: nil
    }
  }
}
