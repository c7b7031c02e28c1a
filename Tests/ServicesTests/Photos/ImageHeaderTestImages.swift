@testable import Services

/// Minimal image files built byte by byte for the header tests, independent
/// of the sample encoders (except the CRC, checked against its test vector).
enum TestImages {
  static func be16(_ value: Int) -> [UInt8] {
    [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
  }
  static func be32(_ value: Int) -> [UInt8] {
    [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
  }
  static func le16(_ value: Int) -> [UInt8] {
    [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
  }
  static func le24(_ value: Int) -> [UInt8] {
    [0, 8, 16].map { UInt8(truncatingIfNeeded: value >> $0) }
  }
  static func le32(_ value: Int) -> [UInt8] {
    [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> $0) }
  }

  // MARK: PNG

  static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return be32(data.count) + body + be32(Int(CRC32.checksum(body)))
  }

  /// A PNG of `width`×`height` (grey, 8 bits): IHDR, the `extra` chunks, a
  /// stored (uncompressed) IDAT of zero rows, IEND. Valid for small sizes.
  static func png(width: Int, height: Int, extra: [[UInt8]] = []) -> [UInt8] {
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    file += pngChunk("IHDR", be32(width) + be32(height) + [8, 0, 0, 0, 0])
    for chunk in extra { file += chunk }
    let raw = [UInt8](repeating: 0, count: (width + 1) * height)
    // zlib: header, one stored block, Adler-32.
    var zlib: [UInt8] = [0x78, 0x01, 0x01] + le16(raw.count) + le16(~raw.count & 0xFFFF) + raw
    zlib += be32(Int(Deflate.adler32(raw)))
    file += pngChunk("IDAT", zlib)
    file += pngChunk("IEND", [])
    return file
  }

  static func pngText(_ keyword: String, _ text: [UInt8]) -> [UInt8] {
    pngChunk("tEXt", Array(keyword.utf8) + [0] + text)
  }

  static func pngInternationalText(_ keyword: String, _ text: String) -> [UInt8] {
    pngChunk(
      "iTXt", Array(keyword.utf8) + [0, 0, 0] + Array("ko".utf8) + [0, 0] + Array(text.utf8))
  }

  // MARK: GIF

  /// The classic smallest GIF, resized in its logical screen.
  static func gif(width: Int, height: Int, version: String = "GIF89a") -> [UInt8] {
    Array(version.utf8) + le16(width) + le16(height)
      + [
        0x80, 0, 0, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0,
        0x3B,
      ]
  }

  // MARK: WebP

  static func riff(_ chunks: [UInt8]) -> [UInt8] {
    Array("RIFF".utf8) + le32(chunks.count + 4) + Array("WEBP".utf8) + chunks
  }

  static func riffChunk(_ fourCC: String, _ data: [UInt8]) -> [UInt8] {
    Array(fourCC.utf8) + le32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
  }

  /// A lossy WebP's key frame header (the frame data itself is not valid).
  static func webpLossy(width: Int, height: Int, keyFrame: Bool = true) -> [UInt8] {
    let tag: [UInt8] = [keyFrame ? 0x50 : 0x51, 0x02, 0x00]
    let frame =
      tag + [0x9D, 0x01, 0x2A] + le16(width) + le16(height) + [UInt8](repeating: 0, count: 10)
    return riff(riffChunk("VP8 ", frame))
  }

  /// A lossless WebP header: signature, 14-bit sizes less one, no alpha, version 0.
  static func webpLossless(width: Int, height: Int) -> [UInt8] {
    let bits = (width - 1) | (height - 1) << 14
    return riff(riffChunk("VP8L", [0x2F] + le32(bits) + [0, 0, 0]))
  }

  /// An extended WebP: VP8X, a VP8L image, then an EXIF chunk when `exif` is given.
  static func webpExtended(width: Int, height: Int, exif: [UInt8]? = nil) -> [UInt8] {
    let flags: UInt8 = exif == nil ? 0 : 0x08
    var chunks = riffChunk("VP8X", [flags, 0, 0, 0] + le24(width - 1) + le24(height - 1))
    chunks += riffChunk("VP8L", [0x2F] + le32((width - 1) & 0x3FFF | ((height - 1) & 0x3FFF) << 14))
    if let exif { chunks += riffChunk("EXIF", exif) }
    return riff(chunks)
  }

  // MARK: JPEG and EXIF

  static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
    [0xFF, marker] + be16(body.count + 2) + body
  }

  /// A TIFF structure whose first IFD holds `entries` (tag, type, count,
  /// value bytes): values over four bytes go after the IFD.
  static func tiff(littleEndian: Bool, entries: [(tag: Int, type: Int, value: [UInt8])]) -> [UInt8]
  {
    let u16 = littleEndian ? le16 : be16
    let u32 = littleEndian ? le32 : be32
    var head: [UInt8] = Array((littleEndian ? "II" : "MM").utf8) + u16(42) + u32(8)
    let ifdEnd = 8 + 2 + 12 * entries.count + 4
    var data: [UInt8] = []
    head += u16(entries.count)
    for entry in entries {
      head += u16(entry.tag) + u16(entry.type) + u32(entry.value.count)
      if entry.value.count <= 4 {
        head += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
      } else {
        head += u32(ifdEnd + data.count)
        data += entry.value
      }
    }
    return head + u32(0) + data
  }

  static func exifArtist(_ artist: String, littleEndian: Bool = false, orientation: Int? = nil)
    -> [UInt8]
  {
    var entries: [(tag: Int, type: Int, value: [UInt8])] = []
    if let orientation {
      entries.append((0x0112, 3, littleEndian ? le16(orientation) : be16(orientation)))
    }
    entries.append((0x013B, 2, Array(artist.utf8) + [0]))
    return tiff(littleEndian: littleEndian, entries: entries)
  }

  /// A baseline JPEG's segments up to and including the frame header, then a
  /// scan: `before` goes between APP0 and the quantization table.
  static func jpeg(
    width: Int, height: Int, frameMarker: UInt8 = 0xC0, before: [UInt8] = []
  ) -> [UInt8] {
    var file: [UInt8] = [0xFF, 0xD8]
    file += segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
    file += before
    file += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
    file += segment(frameMarker, [8] + be16(height) + be16(width) + [1, 1, 0x11, 0])
    file += segment(0xC4, [0] + [UInt8](repeating: 0, count: 15) + [1] + [0])
    file += segment(0xDA, [1, 1, 0, 0, 63, 0]) + [0x12, 0x34, 0xFF, 0x00, 0x56] + [0xFF, 0xD9]
    return file
  }

  static func jpegExif(_ tiff: [UInt8]) -> [UInt8] {
    segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff)
  }
}
