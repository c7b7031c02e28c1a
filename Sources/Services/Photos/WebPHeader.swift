/// WebP: a RIFF container whose first chunk is `VP8 ` (lossy: the key frame
/// header), `VP8L` (lossless: 14-bit sizes after the signature byte) or `VP8X`
/// (extended: the 24-bit canvas size). The author is the EXIF Artist of an
/// `EXIF` chunk, which only the extended format has.
enum WebPHeader {
  /// Chunks looked at for the EXIF chunk before giving up.
  static let maxChunks = 64

  static func read(_ bytes: ImageBytes, readingAuthor: Bool) throws(ImageHeaderError)
    -> ImageHeader
  {
    let fourCC = try bytes.bytes(at: 12, count: 4)
    let size = try bytes.u32le(at: 16)
    if fourCC.elementsEqual("VP8 ".utf8) {
      guard size >= 10 else { throw .malformed("VP8 chunk too short") }
      let tag = try bytes.u24le(at: 20)
      guard tag & 1 == 0 else { throw .malformed("the first VP8 frame is not a key frame") }
      guard try bytes.matches([0x9D, 0x01, 0x2A], at: 23) else {
        throw .malformed("no VP8 start code")
      }
      return ImageHeader(
        format: .webp, width: try bytes.u16le(at: 26) & 0x3FFF,
        height: try bytes.u16le(at: 28) & 0x3FFF)
    }
    if fourCC.elementsEqual("VP8L".utf8) {
      guard size >= 5 else { throw .malformed("VP8L chunk too short") }
      guard try bytes.u8(at: 20) == 0x2F else { throw .malformed("no VP8L signature") }
      let bits = try bytes.u32le(at: 21)
      guard bits >> 29 == 0 else { throw .malformed("unknown VP8L version") }
      return ImageHeader(
        format: .webp, width: bits & 0x3FFF + 1, height: (bits >> 14) & 0x3FFF + 1)
    }
    if fourCC.elementsEqual("VP8X".utf8) {
      guard size >= 10 else { throw .malformed("VP8X chunk too short") }
      let flags = try bytes.u8(at: 20)
      let width = try bytes.u24le(at: 24) + 1
      let height = try bytes.u24le(at: 27) + 1
      guard width * height <= Int(UInt32.max) else { throw .malformed("canvas too large") }
      let hasEXIF = flags & 0x08 != 0
      let author = readingAuthor && hasEXIF ? self.author(bytes, after: 20 + size + size % 2) : nil
      return ImageHeader(format: .webp, width: width, height: height, author: author)
    }
    throw .malformed("the first chunk is not VP8, VP8L or VP8X")
  }

  /// The EXIF Artist of the first `EXIF` chunk from `start`, or nil.
  private static func author(_ bytes: ImageBytes, after start: Int) -> String? {
    var offset = start
    do {
      for _ in 0..<maxChunks {
        let fourCC = try bytes.bytes(at: offset, count: 4)
        let size = try bytes.u32le(at: offset + 4)
        if fourCC.elementsEqual("EXIF".utf8) {
          // Some writers keep JPEG's "Exif\0\0" prefix before the TIFF header.
          let skip = try bytes.matches(Array("Exif".utf8) + [0, 0], at: offset + 8) ? 6 : 0
          return EXIFArtist.read(bytes, tiffStart: offset + 8 + skip, tiffLength: size - skip)
        }
        offset += 8 + size + size % 2
      }
    } catch {
      return nil
    }
    return nil
  }
}
