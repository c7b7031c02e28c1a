/// A small deflate (RFC 1951) compressor for the sample images: one block of
/// fixed Huffman codes, with greedy LZ77 matches found through a hash of the
/// next three bytes. Not zlib's ratio, but sample gradients and patterns shrink
/// well, and it needs no library.
enum Deflate {
  /// A zlib stream (RFC 1950) of `data`: header, deflate data, Adler-32.
  static func zlib(_ data: [UInt8]) -> [UInt8] {
    var output: [UInt8] = [0x78, 0x01]
    output += deflate(data)
    let adler = adler32(data)
    output += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> $0) }
    return output
  }

  static func adler32(_ data: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    var index = 0
    while index < data.count {
      // 5552 bytes keep the sums below 2^32 before the reduction.
      let end = min(index + 5_552, data.count)
      while index < end {
        a += UInt32(data[index])
        b += a
        index += 1
      }
      a %= 65_521
      b %= 65_521
    }
    return b << 16 | a
  }

  private static let lengthBases: [Int] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
  ]
  private static let lengthExtraBits: [Int] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  private static let distanceBases: [Int] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1_025, 1_537,
    2_049, 3_073, 4_097, 6_145, 8_193, 12_289, 16_385, 24_577,
  ]
  private static let distanceExtraBits: [Int] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]

  /// The raw deflate data of `data`, in one final block of fixed codes.
  static func deflate(_ data: [UInt8]) -> [UInt8] {
    var writer = LSBBitWriter()
    writer.write(1, count: 1)  // BFINAL
    writer.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
    let hashBits = 15
    var head = [Int](repeating: -1, count: 1 << hashBits)
    data.withUnsafeBufferPointer { data in
      head.withUnsafeMutableBufferPointer { head in
        func hash(_ index: Int) -> Int {
          let value = Int(data[index]) << 16 | Int(data[index + 1]) << 8 | Int(data[index + 2])
          return (value &* 2_654_435_761) >> (32 - hashBits) & ((1 << hashBits) - 1)
        }
        var index = 0
        while index < data.count {
          var length = 0
          var distance = 0
          if index + 3 <= data.count {
            let key = hash(index)
            let candidate = head[key]
            head[key] = index
            if candidate >= 0, index - candidate <= 32_768 {
              let limit = min(258, data.count - index)
              while length < limit, data[candidate + length] == data[index + length] {
                length += 1
              }
              distance = index - candidate
            }
          }
          if length >= 3 {
            writeLength(length, &writer)
            writeDistance(distance, &writer)
            // Remember the positions inside the match too, for later matches.
            var position = index + 1
            while position < index + length, position + 3 <= data.count {
              head[hash(position)] = position
              position += 1
            }
            index += length
          } else {
            writeSymbol(Int(data[index]), &writer)
            index += 1
          }
        }
      }
    }
    writeSymbol(256, &writer)  // end of block
    return writer.finish()
  }

  /// The fixed literal/length codes (RFC 1951 3.2.6), bit-reversed for
  /// `LSBBitWriter`, by symbol.
  private static let literalCodes: [(bits: UInt32, length: Int)] = (0..<288).map { symbol in
    let (code, length) =
      switch symbol {
      case 0...143: (0x30 + symbol, 8)
      case 144...255: (0x190 + symbol - 144, 9)
      case 256...279: (symbol - 256, 7)
      default: (0xC0 + symbol - 280, 8)
      }
    return (reversed(UInt32(code), length), length)
  }

  /// The fixed distance codes (five bits each), bit-reversed.
  private static let distanceCodes: [UInt32] = (0..<30).map { reversed(UInt32($0), 5) }

  /// The `length` low bits of `code` in the opposite order.
  private static func reversed(_ code: UInt32, _ length: Int) -> UInt32 {
    var reversed: UInt32 = 0
    for bit in 0..<length {
      reversed |= (code >> bit & 1) << (length - 1 - bit)
    }
    return reversed
  }

  /// A literal/length symbol in the fixed code.
  private static func writeSymbol(_ symbol: Int, _ writer: inout LSBBitWriter) {
    let code = literalCodes[symbol]
    writer.write(code.bits, count: code.length)
  }

  private static func writeLength(_ length: Int, _ writer: inout LSBBitWriter) {
    var code = lengthBases.count - 1
    while lengthBases[code] > length { code -= 1 }
    writeSymbol(257 + code, &writer)
    writer.write(UInt32(length - lengthBases[code]), count: lengthExtraBits[code])
  }

  private static func writeDistance(_ distance: Int, _ writer: inout LSBBitWriter) {
    var code = distanceBases.count - 1
    while distanceBases[code] > distance { code -= 1 }
    writer.write(distanceCodes[code], count: 5)
    writer.write(UInt32(distance - distanceBases[code]), count: distanceExtraBits[code])
  }
}
