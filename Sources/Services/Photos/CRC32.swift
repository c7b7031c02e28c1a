/// CRC-32 (ISO 3309, the polynomial of PNG, zlib and gzip).
enum CRC32 {
  /// The byte-at-a-time table of the reflected polynomial 0xEDB88320.
  private static let table: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 {
      value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
    }
    return value
  }

  /// The CRC of `bytes`, continuing from `crc` (the CRC of what came before).
  static func checksum(_ bytes: some Sequence<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
    var value = ~crc
    for byte in bytes {
      value = table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8)
    }
    return ~value
  }
}
