/// Base64 with the URL alphabet and no padding (RFC 4648 §5).
enum Base64URL {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  static func encode(_ bytes: [UInt8]) -> String {
    String(unsafeUninitializedCapacity: (bytes.count * 4 + 2) / 3) { out in
      alphabet.withUnsafeBufferPointer { alphabet in
        var written = 0
        var index = 0
        while index < bytes.count {
          let count = min(3, bytes.count - index)
          // Up to three bytes, big-endian, in the low 24 bits.
          var value = UInt32(bytes[index]) << 16
          if count > 1 { value |= UInt32(bytes[index + 1]) << 8 }
          if count > 2 { value |= UInt32(bytes[index + 2]) }
          for position in 0...count {
            out[written] = alphabet[Int((value >> (18 - 6 * UInt32(position))) & 0x3F)]
            written += 1
          }
          index += 3
        }
        return written
      }
    }
  }

  static func decode(_ text: String) -> [UInt8]? {
    var text = text
    return text.withUTF8 { encoded -> [UInt8]? in
      guard encoded.count % 4 != 1 else { return nil }
      var valid = true
      let decoded = [UInt8](unsafeUninitializedCapacity: encoded.count * 3 / 4) { out, written in
        // Bits not yet written out, oldest highest, and how many there are.
        var bits: UInt32 = 0
        var held = 0
        for byte in encoded {
          guard let value = value(of: byte) else {
            valid = false
            break
          }
          bits = bits << 6 | UInt32(value)
          held += 6
          if held >= 8 {
            held -= 8
            out[written] = UInt8(truncatingIfNeeded: bits >> UInt32(held))
            written += 1
          }
        }
      }
      return valid ? decoded : nil
    }
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
