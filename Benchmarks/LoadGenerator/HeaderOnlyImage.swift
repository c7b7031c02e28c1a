/// The bytes of JPEG and PNG files whose headers are valid and which hold no
/// pixel data: what an indexer that reads headers sees of a real photo.
enum HeaderOnlyImage {
  /// SOI, a JFIF APP0, a comment of `padding` bytes, a baseline SOF0 of three
  /// components, EOI.
  static func jpeg(width: Int, height: Int, padding: Int) -> [UInt8] {
    var bytes: [UInt8] = [0xFF, 0xD8]
    bytes += [0xFF, 0xE0] + be16(16) + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
    bytes += [0xFF, 0xFE] + be16(2 + padding) + [UInt8](repeating: 0x20, count: padding)
    bytes += [0xFF, 0xC0] + be16(17) + [8] + be16(height) + be16(width)
    bytes += [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    bytes += [0xFF, 0xD9]
    return bytes
  }

  /// The signature, IHDR (8-bit RGB), a `tEXt` Comment of `padding` bytes, IEND.
  static func png(width: Int, height: Int, padding: Int) -> [UInt8] {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    bytes += chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
    bytes += chunk("tEXt", Array("Comment".utf8) + [0] + [UInt8](repeating: 0x20, count: padding))
    bytes += chunk("IEND", [])
    return bytes
  }

  /// Length, type, data, and the CRC-32 of type and data.
  private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return be32(data.count) + typed + be32(Int(crc32(typed)))
  }

  /// CRC-32 as PNG defines it (reflected, polynomial 0xEDB88320), a bit at a
  /// time: the folder is written once, so a table would save nothing worth having.
  private static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  private static func be16(_ value: Int) -> [UInt8] {
    [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  private static func be32(_ value: Int) -> [UInt8] {
    [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF)] + be16(value)
  }
}
