/// PNG: the IHDR chunk, which must come first, gives width and height; the
/// author is a `tEXt` or `iTXt` chunk with the keyword "Author" or "Artist"
/// before the image data.
enum PNGHeader {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  /// Chunks looked at for the author before giving up.
  static let maxTextChunks = 64
  /// The longest author text read.
  static let maxTextBytes = 1_024

  static func read(_ bytes: ImageBytes, readingAuthor: Bool) throws(ImageHeaderError)
    -> ImageHeader
  {
    guard try bytes.u32be(at: 8) == 13, try bytes.matches(Array("IHDR".utf8), at: 12) else {
      throw .malformed("the first chunk is not IHDR")
    }
    let chunk = try bytes.bytes(at: 12, count: 17)
    guard CRC32.checksum(chunk) == UInt32(try bytes.u32be(at: 29)) else {
      throw .malformed("bad IHDR checksum")
    }
    let width = try bytes.u32be(at: 16)
    let height = try bytes.u32be(at: 20)
    guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
      throw .malformed("width or height out of range")
    }
    let author = readingAuthor ? self.author(bytes, from: 33) : nil
    return ImageHeader(format: .png, width: width, height: height, author: author)
  }

  /// The first Author or Artist text among the chunks before the image data;
  /// nil when there is none or the chunks cannot be read.
  private static func author(_ bytes: ImageBytes, from start: Int) -> String? {
    var offset = start
    do {
      for _ in 0..<maxTextChunks {
        let length = try bytes.u32be(at: offset)
        let type = try bytes.bytes(at: offset + 4, count: 4)
        if type.elementsEqual("IDAT".utf8) || type.elementsEqual("IEND".utf8) { return nil }
        if type.elementsEqual("tEXt".utf8) || type.elementsEqual("iTXt".utf8) {
          let data = try bytes.bytes(
            at: offset + 8, count: min(length, maxTextBytes, bytes.count - offset - 8))
          if let text = authorText(Array(data), international: type.elementsEqual("iTXt".utf8)) {
            return text
          }
        }
        guard length <= Int(Int32.max) else { return nil }
        offset += 12 + length
      }
    } catch {
      return nil
    }
    return nil
  }

  /// The text of a `tEXt` (Latin-1) or uncompressed `iTXt` (UTF-8) chunk
  /// whose keyword is Author or Artist.
  static func authorText(_ data: [UInt8], international: Bool) -> String? {
    guard let keywordEnd = data.firstIndex(of: 0) else { return nil }
    let keyword = String(decoding: data[..<keywordEnd], as: UTF8.self).lowercased()
    guard keyword == "author" || keyword == "artist" else { return nil }
    var rest = data[(keywordEnd + 1)...]
    if international {
      // compression flag, compression method, language tag\0, translated keyword\0
      guard rest.count >= 2, rest[rest.startIndex] == 0 else { return nil }
      rest = rest.dropFirst(2)
      for _ in 0..<2 {
        guard let end = rest.firstIndex(of: 0) else { return nil }
        rest = rest[(end + 1)...]
      }
      return MetadataText.decode(rest, latin1: false)
    }
    return MetadataText.decode(rest, latin1: true)
  }
}
