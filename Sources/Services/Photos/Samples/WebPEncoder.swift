/// Writes a two-colour picture as a lossless WebP (VP8L) file, optionally in
/// the extended format (VP8X) with an EXIF chunk naming the author.
///
/// Each channel has at most two values, so each of its prefix codes is a
/// "simple" code of one or two symbols: a pixel costs one bit per channel
/// that varies. No transform, no colour cache, no backward reference.
enum WebPEncoder {
  /// The picture in two colours: the first and the last of its palette, for
  /// the indexes below 128 and from 128 up.
  static func encode(_ image: SampleImage, author: String? = nil) -> [UInt8] {
    let (width, height) = (image.width, image.height)
    let first: SampleImage.Color = image.palette.first ?? (0, 0, 0)
    let second: SampleImage.Color = image.palette.last ?? (255, 255, 255)
    var bits = LSBBitWriter()
    bits.write(0x2F, count: 8)
    bits.write(UInt32(width - 1), count: 14)
    bits.write(UInt32(height - 1), count: 14)
    bits.write(0, count: 1)  // no alpha
    bits.write(0, count: 3)  // version 0
    bits.write(0, count: 1)  // no transform
    bits.write(0, count: 1)  // no colour cache
    bits.write(0, count: 1)  // one prefix code group
    // Green (with lengths), red, blue, alpha, distance.
    let channels = [(first.1, second.1), (first.0, second.0), (first.2, second.2)]
    for (a, b) in channels {
      simpleCode(a == b ? [a] : [min(a, b), max(a, b)], &bits)
    }
    simpleCode([255], &bits)
    simpleCode([0], &bits)
    // One bit per channel that differs between the two colours; the smaller
    // symbol of a two-symbol code has the code 0.
    let varying = [(first.green, second.green), (first.red, second.red), (first.blue, second.blue)]
      .filter { $0.0 != $0.1 }
    let firstBits = varying.enumerated().reduce(UInt32(0)) { bits, item in
      bits | (item.element.0 > item.element.1 ? 1 : 0) << item.offset
    }
    let secondBits = varying.enumerated().reduce(UInt32(0)) { bits, item in
      bits | (item.element.1 > item.element.0 ? 1 : 0) << item.offset
    }
    if !varying.isEmpty {
      image.indexes.withUnsafeBufferPointer { indexes in
        for index in indexes {
          bits.write(index >= 128 ? secondBits : firstBits, count: varying.count)
        }
      }
    }
    let lossless = chunk("VP8L", bits.finish())
    var body = Array("WEBP".utf8)
    if let author {
      var extended: [UInt8] = [0x08, 0, 0, 0]  // EXIF present
      extended += littleEndian24(width - 1) + littleEndian24(height - 1)
      body += chunk("VP8X", extended) + lossless
      body += chunk("EXIF", Array(JPEGEncoder.exif(artist: author).dropFirst(6)))
    } else {
      body += lossless
    }
    return Array("RIFF".utf8) + littleEndian32(body.count) + body
  }

  /// A simple prefix code of one or two 8-bit symbols.
  private static func simpleCode(_ symbols: [UInt8], _ bits: inout LSBBitWriter) {
    bits.write(1, count: 1)  // simple
    bits.write(UInt32(symbols.count - 1), count: 1)
    bits.write(1, count: 1)  // the first symbol takes 8 bits
    for symbol in symbols {
      bits.write(UInt32(symbol), count: 8)
    }
  }

  /// A RIFF chunk, padded to an even length.
  private static func chunk(_ fourCC: String, _ data: [UInt8]) -> [UInt8] {
    Array(fourCC.utf8) + littleEndian32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
  }

  private static func littleEndian24(_ value: Int) -> [UInt8] {
    [0, 8, 16].map { UInt8(truncatingIfNeeded: value >> $0) }
  }

  private static func littleEndian32(_ value: Int) -> [UInt8] {
    [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> $0) }
  }
}
