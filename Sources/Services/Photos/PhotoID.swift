/// The id of a photo of the folder backend: the FNV-1a 64-bit hash of its
/// path relative to the folder (UTF-8), as 16 lowercase hex digits. It stays
/// the same across restarts and machines while the file keeps its path.
enum PhotoID {
  static func make(_ relativePath: String) -> String {
    text(hash(relativePath))
  }

  /// The hash an id spells.
  static func hash(_ relativePath: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in relativePath.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01B3
    }
    return hash
  }

  /// The id of `hash`: its 16 hex digits, written in one allocation (an
  /// index of 100,000 photos makes as many).
  static func text(_ hash: UInt64) -> String {
    String(unsafeUninitializedCapacity: 16) { buffer in
      let digits: StaticString = "0123456789abcdef"
      for index in 0..<16 {
        let nibble = Int((hash >> UInt64(60 - 4 * index)) & 0xF)
        buffer[index] = digits.utf8Start[nibble]
      }
      return 16
    }
  }

  /// The hash `text` spells, when it is an id (16 lowercase hex digits).
  static func value(_ text: String) -> UInt64? {
    guard isWellFormed(text) else { return nil }
    return UInt64(text, radix: 16)
  }

  /// Whether `text` could be a folder photo's id (16 lowercase hex digits).
  static func isWellFormed(_ text: String) -> Bool {
    text.utf8.count == 16
      && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }
}
