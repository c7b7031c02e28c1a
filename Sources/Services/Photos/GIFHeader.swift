/// GIF (87a and 89a): the logical screen's width and height, little-endian
/// after the six-byte signature, and the author an XMP application extension
/// names (`XMPCreator`), when one comes before the first image.
enum GIFHeader {
  /// Blocks looked at for the author before giving up.
  static let maxBlocks = 32

  static func read(_ bytes: ImageBytes, readingAuthor: Bool) throws(ImageHeaderError)
    -> ImageHeader
  {
    let width = try bytes.u16le(at: 6)
    let height = try bytes.u16le(at: 8)
    guard width > 0, height > 0 else { throw .malformed("zero logical screen size") }
    // A metadata block that is cut or too far never makes the file unusable.
    let author = readingAuthor ? try? self.author(bytes) : nil
    return ImageHeader(format: .gif, width: width, height: height, author: author)
  }

  /// The creator of the first XMP extension among the blocks before the
  /// first image; nil when there is none.
  private static func author(_ bytes: ImageBytes) throws(ImageHeaderError) -> String? {
    let flags = try bytes.u8(at: 10)
    // A global colour table of 2^(n+1) entries of three bytes follows the screen descriptor.
    var position = 13 + (flags & 0x80 != 0 ? 3 << (Int(flags & 0x07) + 1) : 0)
    for _ in 0..<maxBlocks {
      // Anything but an extension (an image, the trailer) ends the metadata.
      guard try bytes.u8(at: position) == 0x21 else { return nil }
      let label = try bytes.u8(at: position + 1)
      position += 2
      if label == 0xFF, try bytes.u8(at: position) == XMPCreator.gifApplication.count,
        try bytes.bytes(at: position + 1, count: XMPCreator.gifApplication.count)
          .elementsEqual(XMPCreator.gifApplication)
      {
        return XMPCreator.creator(in: try packet(bytes, from: position + 12))
      }
      // Any other extension: its sub-blocks, each led by its length, up to a 0.
      while true {
        let length = Int(try bytes.u8(at: position))
        position += 1 + length
        if length == 0 { break }
      }
    }
    return nil
  }

  /// The XMP packet's bytes from `start`: up to its magic trailer (which
  /// starts with 0x01, a byte XML text never holds), the end of the file or
  /// `XMPCreator.maxPacketBytes`.
  private static func packet(_ bytes: ImageBytes, from start: Int) throws(ImageHeaderError)
    -> [UInt8]
  {
    var packet: [UInt8] = []
    var position = start
    while packet.count < XMPCreator.maxPacketBytes, position < bytes.count {
      let chunk = try bytes.bytes(
        at: position, count: min(ImageBytes.windowSize, bytes.count - position))
      if let end = chunk.firstIndex(of: 0x01) {
        packet += chunk[..<end]
        break
      }
      packet += chunk
      position += chunk.count
    }
    return packet
  }
}
