@testable import Services

/// Decoders for what the sample encoders write, so the tests can check that
/// the samples hold the pictures they should: inflate (stored and fixed
/// Huffman blocks, the only kinds `Deflate` writes), PNG unfiltering, and
/// GIF's LZW.
enum PhotoSampleDecoders {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Reads bits least significant first.
  struct BitReader {
    let bytes: [UInt8]
    var position = 0  // in bits

    mutating func bit() throws -> UInt32 {
      guard position / 8 < bytes.count else { throw Failure(description: "out of data") }
      let value = UInt32(bytes[position / 8] >> UInt8(position % 8)) & 1
      position += 1
      return value
    }

    mutating func bits(_ count: Int) throws -> UInt32 {
      var value: UInt32 = 0
      for index in 0..<count { value |= try bit() << UInt32(index) }
      return value
    }

    /// A Huffman code's next bit goes below the ones read before.
    mutating func code(_ count: Int, after code: UInt32 = 0) throws -> UInt32 {
      var value = code
      for _ in 0..<count { value = value << 1 | (try bit()) }
      return value
    }
  }

  static func inflateZlib(_ data: [UInt8]) throws -> [UInt8] {
    guard data.count >= 6, data[0] & 0x0F == 8, (Int(data[0]) << 8 | Int(data[1])) % 31 == 0 else {
      throw Failure(description: "bad zlib header")
    }
    let output = try inflate(Array(data[2..<(data.count - 4)]))
    let stored = data.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    guard Deflate.adler32(output) == stored else { throw Failure(description: "bad Adler-32") }
    return output
  }

  static func inflate(_ data: [UInt8]) throws -> [UInt8] {
    let lengthBases = [
      3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
      163, 195, 227, 258,
    ]
    let lengthExtra = [
      0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    let distanceBases = [
      1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
      2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    let distanceExtra = [
      0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
      13,
    ]
    var reader = BitReader(bytes: data)
    var output: [UInt8] = []
    var isFinal = false
    while !isFinal {
      isFinal = try reader.bits(1) == 1
      switch try reader.bits(2) {
      case 0:
        reader.position = (reader.position + 7) / 8 * 8
        let length = Int(try reader.bits(16))
        guard Int(try reader.bits(16)) == ~length & 0xFFFF else {
          throw Failure(description: "bad stored length")
        }
        for _ in 0..<length { output.append(UInt8(try reader.bits(8))) }
      case 1:
        while true {
          var symbol: Int
          var code = try reader.code(7)
          if code <= 23 {
            symbol = 256 + Int(code)
          } else {
            code = try reader.code(1, after: code)
            if (0x30...0xBF).contains(code) {
              symbol = Int(code) - 0x30
            } else if (0xC0...0xC7).contains(code) {
              symbol = 280 + Int(code) - 0xC0
            } else {
              code = try reader.code(1, after: code)
              symbol = 144 + Int(code) - 0x190
            }
          }
          if symbol < 256 {
            output.append(UInt8(symbol))
            continue
          }
          if symbol == 256 { break }
          let lengthCode = symbol - 257
          guard lengthCode < lengthBases.count else {
            throw Failure(description: "bad length code")
          }
          let length = lengthBases[lengthCode] + Int(try reader.bits(lengthExtra[lengthCode]))
          let distanceCode = Int(try reader.code(5))
          guard distanceCode < distanceBases.count else {
            throw Failure(description: "bad distance code")
          }
          let distance =
            distanceBases[distanceCode] + Int(try reader.bits(distanceExtra[distanceCode]))
          guard distance <= output.count else { throw Failure(description: "distance too far") }
          for _ in 0..<length { output.append(output[output.count - distance]) }
        }
      default:
        throw Failure(description: "a block type the sample encoder does not write")
      }
    }
    return output
  }

  /// The palette indexes of an 8-bit palette PNG, and its palette.
  static func png(_ file: [UInt8]) throws -> (
    width: Int, height: Int, palette: [UInt8], indexes: [UInt8]
  ) {
    var offset = 8
    var width = 0
    var height = 0
    var palette: [UInt8] = []
    var data: [UInt8] = []
    func u32(_ at: Int) -> Int { file[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    while offset + 12 <= file.count {
      let length = u32(offset)
      let type = String(decoding: file[offset + 4..<offset + 8], as: UTF8.self)
      let body = Array(file[offset + 8..<offset + 8 + length])
      guard
        CRC32.checksum(file[offset + 4..<offset + 8 + length]) == UInt32(u32(offset + 8 + length))
      else {
        throw Failure(description: "bad CRC of \(type)")
      }
      switch type {
      case "IHDR":
        width = u32(offset + 8)
        height = u32(offset + 12)
        guard body[8] == 8, body[9] == 3 else {
          throw Failure(description: "not an 8-bit palette PNG")
        }
      case "PLTE": palette = body
      case "IDAT": data += body
      default: break
      }
      offset += 12 + length
    }
    let raw = try inflateZlib(data)
    guard raw.count == (width + 1) * height else { throw Failure(description: "wrong data length") }
    var indexes: [UInt8] = []
    for row in 0..<height {
      let filter = raw[row * (width + 1)]
      for column in 0..<width {
        let value = raw[row * (width + 1) + 1 + column]
        let left = column > 0 ? indexes[row * width + column - 1] : 0
        let up = row > 0 ? indexes[(row - 1) * width + column] : 0
        switch filter {
        case 0: indexes.append(value)
        case 1: indexes.append(value &+ left)
        case 2: indexes.append(value &+ up)
        default: throw Failure(description: "a filter the sample encoder does not write")
        }
      }
    }
    return (width, height, palette, indexes)
  }

  /// The indexes of a one-frame GIF with a 256-colour global table.
  static func gif(_ file: [UInt8]) throws -> (width: Int, height: Int, indexes: [UInt8]) {
    let width = Int(file[6]) | Int(file[7]) << 8
    let height = Int(file[8]) | Int(file[9]) << 8
    var offset = 13 + 3 * 256
    // Extensions (the author's XMP) are skipped as any decoder does: as
    // sub-blocks, each led by its length, which XMP's magic trailer ends well.
    while file[offset] == 0x21 {
      offset += 2
      while file[offset] != 0 { offset += 1 + Int(file[offset]) }
      offset += 1
    }
    guard file[offset] == 0x2C else { throw Failure(description: "no image descriptor") }
    offset += 10
    let minimumCodeSize = Int(file[offset])
    offset += 1
    var data: [UInt8] = []
    while file[offset] != 0 {
      let count = Int(file[offset])
      data += file[offset + 1..<offset + 1 + count]
      offset += 1 + count
    }
    guard file[offset + 1] == 0x3B else { throw Failure(description: "no trailer") }
    // LZW
    let clear = 1 << minimumCodeSize
    let end = clear + 1
    var reader = BitReader(bytes: data)
    var table: [[UInt8]] = []
    var codeSize = minimumCodeSize + 1
    var previous: [UInt8]?
    var output: [UInt8] = []
    func reset() {
      table = (0..<clear).map { [UInt8($0)] } + [[], []]
      codeSize = minimumCodeSize + 1
      previous = nil
    }
    reset()
    while true {
      let code = Int(try reader.bits(codeSize))
      if code == clear {
        reset()
        continue
      }
      if code == end { break }
      let entry: [UInt8]
      if code < table.count {
        entry = table[code]
        if let previous, table.count < 4_096 { table.append(previous + [entry[0]]) }
      } else if code == table.count, let previous {
        entry = previous + [previous[0]]
        table.append(entry)
      } else {
        throw Failure(description: "bad LZW code \(code)")
      }
      output += entry
      previous = entry
      if table.count == 1 << codeSize, codeSize < 12 { codeSize += 1 }
    }
    return (width, height, output)
  }
}
