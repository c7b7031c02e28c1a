/// Checks UTF-8 without making a `String`, so text read from elsewhere (a
/// SQLite column) can be written as it is when it is valid, and repaired
/// only when it is not.
@usableFromInline
enum UTF8Validation {
  /// Whether `bytes` is well-formed UTF-8 (RFC 3629): no overlong forms, no
  /// surrogates, nothing above U+10FFFF, no truncated sequence.
  static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    while index < bytes.count {
      if bytes[index] < 0x80 {
        index += 1
        continue
      }
      guard let length = sequenceLength(bytes, at: index) else { return false }
      index += length
    }
    return true
  }

  /// The length of the well-formed sequence of two to four bytes that the
  /// byte at `index` (0x80 or above) leads, or nil when it leads none.
  @inlinable @inline(__always)
  static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
    // The first continuation byte's range depends on the lead (Table 3-7
    // of the Unicode standard); later ones are 80...BF.
    let length: Int
    let second: ClosedRange<UInt8>
    switch bytes[index] {
    case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
    case 0xE0: (length, second) = (3, 0xA0...0xBF)
    case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
    case 0xED: (length, second) = (3, 0x80...0x9F)
    case 0xF0: (length, second) = (4, 0x90...0xBF)
    case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
    case 0xF4: (length, second) = (4, 0x80...0x8F)
    default: return nil
    }
    guard bytes.count - index >= length, second.contains(bytes[index + 1]) else { return nil }
    var next = index + 2
    while next < index + length {
      guard bytes[next] & 0xC0 == 0x80 else { return nil }
      next += 1
    }
    return length
  }
}
