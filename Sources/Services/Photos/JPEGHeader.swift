/// JPEG: the segments are walked from the start of the file, seeking over
/// each one by its length, to the first start-of-frame (SOF0–SOF15 but DHT,
/// JPG and DAC), which holds the height and the width. The author is the EXIF
/// Artist tag of an APP1 "Exif" segment before it.
enum JPEGHeader {
  /// Segments walked before giving up.
  static let maxSegments = 1_024
  /// Stray bytes skipped between two segments before giving up.
  static let maxGarbage = 4_096

  static func read(_ bytes: ImageBytes, readingAuthor: Bool) throws(ImageHeaderError)
    -> ImageHeader
  {
    var offset = 2  // after SOI
    var author: String?
    for _ in 0..<maxSegments {
      // Some writers leave stray bytes between segments; decoders skip them.
      var garbage = 0
      while try bytes.u8(at: offset) != 0xFF {
        offset += 1
        garbage += 1
        guard garbage <= maxGarbage else { throw .malformed("no marker where one should be") }
      }
      var marker = try bytes.u8(at: offset + 1)
      while marker == 0xFF {  // fill bytes
        offset += 1
        marker = try bytes.u8(at: offset + 1)
      }
      offset += 2
      switch marker {
      case 0x01, 0xD0...0xD8:
        continue  // TEM, RSTn and SOI stand alone
      case 0xD9, 0xDA:
        throw .malformed("no frame header before the image data")
      case 0x00:
        throw .malformed("a stuffed byte outside the image data")
      default:
        break
      }
      let length = try bytes.u16be(at: offset)
      guard length >= 2 else { throw .malformed("segment length below 2") }
      if isStartOfFrame(marker) {
        guard length >= 8 else { throw .malformed("frame header too short") }
        let height = try bytes.u16be(at: offset + 3)
        let width = try bytes.u16be(at: offset + 5)
        guard width > 0 else { throw .malformed("zero width") }
        guard height > 0 else { throw .malformed("height given later (DNL) is not supported") }
        return ImageHeader(format: .jpeg, width: width, height: height, author: author)
      }
      if marker == 0xE1, readingAuthor, author == nil, length >= 8 + 8,
        try bytes.matches(Array("Exif".utf8) + [0, 0], at: offset + 2)
      {
        author = EXIFArtist.read(bytes, tiffStart: offset + 8, tiffLength: length - 8)
      }
      offset += length
    }
    throw .malformed("too many segments before the frame header")
  }

  /// SOF0–SOF15, less C4 (DHT), C8 (JPG, reserved) and CC (DAC).
  static func isStartOfFrame(_ marker: UInt8) -> Bool {
    (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
  }
}
