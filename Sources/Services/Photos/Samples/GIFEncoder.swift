/// Writes a picture of palette indexes as a GIF89a file: one frame, a global
/// table of 256 colours, LZW-compressed (variable code sizes from 9 to 12
/// bits, a clear code whenever the table is full). An author goes in an XMP
/// application extension before the frame (`XMPCreator`), as Adobe's tools
/// write it and exiftool reads it: GIF has no author field of its own.
enum GIFEncoder {
  static func encode(_ image: SampleImage, author: String? = nil) -> [UInt8] {
    let (width, height) = (image.width, image.height)
    var output = Array("GIF89a".utf8)
    output += littleEndian(width) + littleEndian(height)
    output += [0xF7, 0, 0]  // global table of 2^(7+1) colours, 8 bits a channel
    for index in 0..<256 {
      let color: SampleImage.Color = index < image.palette.count ? image.palette[index] : (0, 0, 0)
      output += [color.red, color.green, color.blue]
    }
    if let author {
      output += XMPCreator.gifExtension(XMPCreator.packet(creator: author))
    }
    output += [0x2C] + littleEndian(0) + littleEndian(0)  // image descriptor at (0, 0)
    output += littleEndian(width) + littleEndian(height) + [0]
    output.append(8)  // LZW minimum code size
    let data = compress(image.indexes)
    var offset = 0
    while offset < data.count {
      let count = min(255, data.count - offset)
      output.append(UInt8(count))
      output += data[offset..<offset + count]
      offset += count
    }
    output += [0, 0x3B]  // block terminator, trailer
    return output
  }

  /// GIF's LZW of 8-bit indexes.
  static func compress(_ indexes: [UInt8]) -> [UInt8] {
    let clear: UInt32 = 256
    let end: UInt32 = 257
    var writer = LSBBitWriter()
    var table = LZWTable()
    var nextCode: UInt32 = 258
    var codeSize = 9
    writer.write(clear, count: codeSize)
    guard var prefix = indexes.first.map(UInt32.init) else {
      writer.write(end, count: codeSize)
      return writer.finish()
    }
    for index in indexes.dropFirst() {
      let key = Int32(prefix) << 8 | Int32(index)
      if let code = table.code(for: key) {
        prefix = code
        continue
      }
      writer.write(prefix, count: codeSize)
      if nextCode == 4_096 {
        writer.write(clear, count: codeSize)
        table.removeAll()
        nextCode = 258
        codeSize = 9
      } else {
        // The decoder widens its codes one entry later than the encoder
        // adds them: widen before adding the first entry that needs it.
        if nextCode >= 1 << codeSize { codeSize += 1 }
        table.insert(key, nextCode)
        nextCode += 1
      }
      prefix = UInt32(index)
    }
    writer.write(prefix, count: codeSize)
    writer.write(end, count: codeSize)
    return writer.finish()
  }

  private static func littleEndian(_ value: Int) -> [UInt8] {
    [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
  }
}

/// The LZW string table: (prefix code, next index) → code, open addressing.
private struct LZWTable {
  /// 8192 slots for at most 3838 entries: short probes.
  private static let capacity = 8_192
  private var keys = [Int32](repeating: -1, count: LZWTable.capacity)
  private var codes = [UInt32](repeating: 0, count: LZWTable.capacity)

  private func slot(_ key: Int32) -> Int {
    var slot = Int((UInt32(bitPattern: key) &* 2_654_435_761) >> 19)
    while keys[slot] != -1, keys[slot] != key {
      slot = (slot + 1) & (Self.capacity - 1)
    }
    return slot
  }

  func code(for key: Int32) -> UInt32? {
    let slot = slot(key)
    return keys[slot] == key ? codes[slot] : nil
  }

  mutating func insert(_ key: Int32, _ code: UInt32) {
    let slot = slot(key)
    keys[slot] = key
    codes[slot] = code
  }

  mutating func removeAll() {
    for index in keys.indices { keys[index] = -1 }
  }
}
