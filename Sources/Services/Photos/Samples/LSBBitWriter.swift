/// Packs values into bytes least significant bit first, as deflate, GIF's
/// LZW and WebP's lossless format do.
struct LSBBitWriter {
  private(set) var bytes: [UInt8] = []
  /// Bits not yet in `bytes`, the oldest lowest.
  private var pending: UInt64 = 0
  /// How many bits `pending` holds (under 8 between calls).
  private var pendingCount = 0

  /// Appends the `count` (≤ 32) low bits of `value`, lowest first.
  mutating func write(_ value: UInt32, count: Int) {
    pending |= UInt64(value & (count == 32 ? .max : (1 << count) - 1)) << pendingCount
    pendingCount += count
    while pendingCount >= 8 {
      bytes.append(UInt8(truncatingIfNeeded: pending))
      pending >>= 8
      pendingCount -= 8
    }
  }

  /// The bytes, the last one padded with zero bits.
  mutating func finish() -> [UInt8] {
    if pendingCount > 0 {
      bytes.append(UInt8(truncatingIfNeeded: pending))
      pending = 0
      pendingCount = 0
    }
    return bytes
  }
}
