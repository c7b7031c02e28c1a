/// Writes a `SampleImage` as a baseline JPEG of flat 8×8 blocks: each block
/// of each component (Y, Cb, Cr, not subsampled) keeps only its average, the
/// DC coefficient, so no DCT is needed and every AC run is one end-of-block.
/// The picture comes out as a mosaic: a real, decodable JPEG in a few hundred
/// bytes. An optional EXIF APP1 segment names the author (tag Artist).
enum JPEGEncoder {
  /// The standard luminance DC table (ITU T.81 K.3): code lengths 1–16, symbols.
  private static let dcCounts: [UInt8] = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
  private static let dcSymbols: [UInt8] = Array(0...11)
  /// An AC table of two symbols: end-of-block ("0") and ZRL ("10", unused).
  private static let acCounts: [UInt8] = [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
  private static let acSymbols: [UInt8] = [0x00, 0xF0]
  /// Every quantizer is 8, so a DC coefficient (eight times the block's mean
  /// minus 128) quantizes to the mean minus 128.
  private static let quantizer: UInt8 = 8

  static func encode(_ image: SampleImage, author: String? = nil) -> [UInt8] {
    var output: [UInt8] = [0xFF, 0xD8]
    // APP0 JFIF 1.01, no density, no thumbnail.
    segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0], &output)
    if let author {
      segment(0xE1, exif(artist: author), &output)
    }
    segment(0xDB, [0] + [UInt8](repeating: quantizer, count: 64), &output)
    var frame: [UInt8] = [8] + bigEndian(image.height) + bigEndian(image.width) + [3]
    for component in UInt8(1)...3 {
      frame += [component, 0x11, 0]  // no subsampling, quantization table 0
    }
    segment(0xC0, frame, &output)
    segment(0xC4, [0x00] + dcCounts + dcSymbols + [0x10] + acCounts + acSymbols, &output)
    segment(0xDA, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0], &output)
    output += scan(image)
    output += [0xFF, 0xD9]
    return output
  }

  /// The entropy-coded data: per block, per component, the DC difference and
  /// an end-of-block; 0xFF bytes stuffed, the last byte padded with ones.
  private static func scan(_ image: SampleImage) -> [UInt8] {
    let dcCodes = canonicalCodes(dcCounts)
    var bits = MSBBitWriter()
    var predictors = [0, 0, 0]
    for blockY in stride(from: 0, to: image.height, by: 8) {
      for blockX in stride(from: 0, to: image.width, by: 8) {
        let means = blockMeans(image, blockX, blockY)
        for component in 0..<3 {
          let value = means[component] - 128
          let difference = value - predictors[component]
          predictors[component] = value
          let magnitude = abs(difference)
          let category = magnitude == 0 ? 0 : Int.bitWidth - magnitude.leadingZeroBitCount
          let code = dcCodes[category]
          bits.write(code.code, count: code.length)
          if category > 0 {
            // Negative differences are sent as difference - 1 in `category` bits.
            let extra = difference >= 0 ? difference : difference - 1
            bits.write(UInt32(truncatingIfNeeded: extra) & ((1 << category) - 1), count: category)
          }
          bits.write(0, count: 1)  // end of block
        }
      }
    }
    return bits.finish()
  }

  /// The mean Y, Cb and Cr (JFIF's conversion) of the 8×8 block at (x, y),
  /// edge pixels repeated past the picture's border.
  private static func blockMeans(_ image: SampleImage, _ x: Int, _ y: Int) -> [Int] {
    var sums = [0, 0, 0]
    for row in y..<y + 8 {
      for column in x..<x + 8 {
        let pixel = image.color(min(column, image.width - 1), min(row, image.height - 1))
        let (red, green, blue) = (Int(pixel.red), Int(pixel.green), Int(pixel.blue))
        // Fixed point (×1000) of the JFIF RGB to YCbCr formulas.
        sums[0] += 299 * red + 587 * green + 114 * blue
        sums[1] += -168_736 * red / 1_000 - 331_264 * green / 1_000 + 500 * blue + 128_000
        sums[2] += 500 * red - 418_688 * green / 1_000 - 81_312 * blue / 1_000 + 128_000
      }
    }
    return sums.map { min(255, max(0, ($0 + 32_000) / 64_000)) }
  }

  /// The codes of a Huffman table given its counts per length (T.81 C.2).
  private static func canonicalCodes(_ counts: [UInt8]) -> [(code: UInt32, length: Int)] {
    var codes: [(code: UInt32, length: Int)] = []
    var code: UInt32 = 0
    for (index, count) in counts.enumerated() {
      for _ in 0..<count {
        codes.append((code, index + 1))
        code += 1
      }
      code <<= 1
    }
    return codes
  }

  /// An APP1 body: "Exif\0\0", then a big-endian TIFF header and one IFD
  /// holding the Artist tag.
  static func exif(artist: String) -> [UInt8] {
    let value = Array(artist.utf8) + [0]
    var tiff: [UInt8] = Array("MM".utf8) + [0, 42] + bigEndian32(8)
    tiff += bigEndian(1)  // one entry
    tiff += bigEndian(0x013B) + bigEndian(2) + bigEndian32(value.count)
    if value.count <= 4 {
      tiff += value + [UInt8](repeating: 0, count: 4 - value.count)
    } else {
      tiff += bigEndian32(8 + 2 + 12 + 4)  // right after the IFD
    }
    tiff += bigEndian32(0)  // no next IFD
    if value.count > 4 { tiff += value }
    return Array("Exif".utf8) + [0, 0] + tiff
  }

  private static func segment(_ marker: UInt8, _ body: [UInt8], _ output: inout [UInt8]) {
    output += [0xFF, marker] + bigEndian(body.count + 2) + body
  }

  private static func bigEndian(_ value: Int) -> [UInt8] {
    [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
  }

  private static func bigEndian32(_ value: Int) -> [UInt8] {
    [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
  }
}

/// Packs bits most significant first, as JPEG's entropy-coded data does,
/// stuffing a zero byte after each 0xFF.
struct MSBBitWriter {
  private var bytes: [UInt8] = []
  private var pending: UInt64 = 0
  private var pendingCount = 0

  mutating func write(_ value: UInt32, count: Int) {
    guard count > 0 else { return }
    pending = pending << count | UInt64(value & ((1 << count) - 1))
    pendingCount += count
    while pendingCount >= 8 {
      pendingCount -= 8
      emit(UInt8(truncatingIfNeeded: pending >> pendingCount))
    }
  }

  private mutating func emit(_ byte: UInt8) {
    bytes.append(byte)
    if byte == 0xFF { bytes.append(0) }
  }

  /// The bytes, the last one padded with one bits.
  mutating func finish() -> [UInt8] {
    if pendingCount > 0 {
      let padding = 8 - pendingCount
      emit(UInt8(truncatingIfNeeded: pending << padding | (1 << padding - 1)))
      pendingCount = 0
    }
    return bytes
  }
}
