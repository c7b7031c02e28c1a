/// The id of a photo of the folder backend: the FNV-1a 64-bit hash of its
/// path relative to the folder (UTF-8), as 16 lowercase hex digits. It stays
/// the same across restarts and machines while the file keeps its path.
enum PhotoID {
  static func make(_ relativePath: String) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in relativePath.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01B3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Whether `text` could be a folder photo's id (16 lowercase hex digits).
  static func isWellFormed(_ text: String) -> Bool {
    text.utf8.count == 16
      && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }
}
