/// The drawing of one sample: a level from 0 to `levels` at each pixel, from
/// gradients, rings, checks, stripes or waves, chosen and sized by the
/// sample's number. Integer arithmetic only, so every machine draws the same.
struct SamplePattern {
  /// The highest level.
  static let levels = 1_024

  let number: Int
  let width: Int
  let height: Int

  /// The levels of `row` from column `start`, one per slot of `levels`: the
  /// pattern is chosen once per row, not once per pixel.
  func fill(row y: Int, from start: Int = 0, into levels: UnsafeMutableBufferPointer<Int>) {
    let period = 16 + number % 5 * 8
    let top = Self.levels
    let end = start + levels.count
    switch number % 8 {
    case 0:
      for x in start..<end { levels[x - start] = x * top / max(width - 1, 1) }
    case 1:
      for x in start..<end { levels[x - start] = y * top / max(height - 1, 1) }
    case 2:
      for x in start..<end { levels[x - start] = (x + y) * top / max(width + height - 2, 1) }
    case 3:
      let radius = max(Int(Double(width * width + height * height).squareRoot()) / 2, 1)
      for x in start..<end { levels[x - start] = min(top, distance(x, y) * top / radius) }
    case 4:
      for x in start..<end { levels[x - start] = Self.triangle(distance(x, y), period) }
    case 5:
      for x in start..<end {
        levels[x - start] = (x / period + y / period) % 2 * top / 2 + y * top / 2 / max(height, 1)
      }
    case 6:
      for x in start..<end { levels[x - start] = Self.triangle(x + 2 * y, period * 2) }
    default:
      let vertical = Self.triangle(y, period * 2)
      for x in start..<end { levels[x - start] = (Self.triangle(x, period * 3) + vertical) / 2 }
    }
  }

  /// The distance from (x, y) to the centre, in whole pixels.
  private func distance(_ x: Int, _ y: Int) -> Int {
    let dx = x - width / 2
    let dy = y - height / 2
    return Int(Double(dx * dx + dy * dy).squareRoot())
  }

  /// `a` at step 0, `b` at step `steps`, linear between.
  static func mix(
    _ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8), _ step: Int, _ steps: Int
  ) -> (UInt8, UInt8, UInt8) {
    func channel(_ from: UInt8, _ to: UInt8) -> UInt8 {
      UInt8(clamping: (Int(from) * (steps - step) + Int(to) * step) / steps)
    }
    return (channel(a.0, b.0), channel(a.1, b.1), channel(a.2, b.2))
  }

  /// A triangle wave of `value` with period `period`, from 0 to `levels`.
  static func triangle(_ value: Int, _ period: Int) -> Int {
    let phase = value % period
    return abs(phase * 2 - period) * levels / period
  }
}
