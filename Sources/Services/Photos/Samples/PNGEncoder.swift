/// Writes a `SampleImage` as an 8-bit palette PNG, with an optional `tEXt`
/// Author chunk. Each row takes the filter (None, Sub or Up) whose output has
/// the smallest sum of magnitudes, the usual heuristic.
enum PNGEncoder {
  static func encode(_ image: SampleImage, author: String? = nil) -> [UInt8] {
    var output = PNGHeader.signature
    var header: [UInt8] = []
    header += bigEndian(UInt32(image.width)) + bigEndian(UInt32(image.height))
    header += [8, 3, 0, 0, 0]  // depth 8, palette, deflate, adaptive filters, no interlace
    appendChunk("IHDR", header, to: &output)
    appendChunk(
      "PLTE", image.palette.prefix(256).flatMap { [$0.red, $0.green, $0.blue] }, to: &output)
    if let author {
      // tEXt is Latin-1; the generator's names are ASCII.
      appendChunk("tEXt", Array("Author".utf8) + [0] + Array(author.utf8), to: &output)
    }
    appendChunk("IDAT", Deflate.zlib(filtered(image)), to: &output)
    appendChunk("IEND", [], to: &output)
    return output
  }

  /// The scanlines, each led by its filter type.
  private static func filtered(_ image: SampleImage) -> [UInt8] {
    let width = image.width
    var output = [UInt8](repeating: 0, count: (width + 1) * image.height)
    var rows = [UInt8](repeating: 0, count: 2 * width)  // Sub, then Up
    image.indexes.withUnsafeBufferPointer { pixels in
      output.withUnsafeMutableBufferPointer { output in
        rows.withUnsafeMutableBufferPointer { rows in
          for row in 0..<image.height {
            let start = row * width
            var costs = (none: 0, sub: 0, up: 0)
            for column in 0..<width {
              let value = pixels[start + column]
              let sub = column > 0 ? value &- pixels[start + column - 1] : value
              let up = row > 0 ? value &- pixels[start - width + column] : value
              rows[column] = sub
              rows[width + column] = up
              costs.none += magnitude(value)
              costs.sub += magnitude(sub)
              costs.up += magnitude(up)
            }
            let line = row * (width + 1) + 1
            if costs.sub <= costs.up, costs.sub < costs.none {
              output[line - 1] = 1
              for column in 0..<width { output[line + column] = rows[column] }
            } else if costs.up < costs.none {
              output[line - 1] = 2
              for column in 0..<width { output[line + column] = rows[width + column] }
            } else {
              for column in 0..<width { output[line + column] = pixels[start + column] }
            }
          }
        }
      }
    }
    return output
  }

  /// A byte read as a signed magnitude.
  private static func magnitude(_ byte: UInt8) -> Int {
    byte < 128 ? Int(byte) : 256 - Int(byte)
  }

  private static func appendChunk(_ type: String, _ data: [UInt8], to output: inout [UInt8]) {
    let typeBytes = Array(type.utf8)
    output += bigEndian(UInt32(data.count)) + typeBytes + data
    output += bigEndian(CRC32.checksum(typeBytes + data))
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
  }
}
