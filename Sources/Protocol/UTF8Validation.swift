/// Checks UTF-8 without making a `String`, so text read from elsewhere (a
/// SQLite column) can be written as it is when it is valid, and repaired
/// only when it is not.
enum UTF8Validation {
  /// Whether `bytes` is well-formed UTF-8 (RFC 3629): no overlong forms, no
  /// surrogates, nothing above U+10FFFF, no truncated sequence.
  static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let count = bytes.count
    while index < count {
      // Eight ASCII bytes at a time: names and URLs are mostly ASCII.
      if count - index >= 8,
        UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: index, as: UInt64.self)
          & 0x8080_8080_8080_8080 == 0
      {
        index += 8
        continue
      }
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      // The first continuation byte's range depends on the lead (Table 3-7
      // of the Unicode standard); later ones are 80...BF.
      let length: Int
      let second: ClosedRange<UInt8>
      switch lead {
      case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
      case 0xE0: (length, second) = (3, 0xA0...0xBF)
      case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
      case 0xED: (length, second) = (3, 0x80...0x9F)
      case 0xF0: (length, second) = (4, 0x90...0xBF)
      case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
      case 0xF4: (length, second) = (4, 0x80...0x8F)
      default: return false
      }
      guard count - index >= length, second.contains(bytes[index + 1]) else { return false }
      var next = index + 2
      while next < index + length {
        guard bytes[next] & 0xC0 == 0x80 else { return false }
        next += 1
      }
      index += length
    }
    return true
  }
}
