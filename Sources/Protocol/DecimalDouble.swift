/// The double nearest a JSON number's text, worked out with integer
/// arithmetic when the text has at most 19 significant digits and a power
/// of ten within 10^±19 (coordinates, prices, radii), else nil for
/// `Double(String)` to do: that parse (C's `strtod`) took 1,400 instructions
/// for a 17-digit coordinate, several times a `places/search`'s own
/// arithmetic for it (Benchmarks/README.md, "instructions counted").
///
/// The digits make an integer m < 10^19 and the value is m × 10^e. For
/// |e| ≤ 22 and m ≤ 2^53 both factors are doubles exactly and one
/// multiplication or division rounds correctly (Clinger's fast path).
/// Otherwise the product or quotient is formed in 128 bits, its top 64 bits
/// kept with a sticky bit for anything below them, and converted: the one
/// rounding of that conversion is the correct one, since the sticky bit
/// breaks a tie exactly when the value lies above it.
enum DecimalDouble {
  /// The value of `text`, valid RFC 8259 number syntax; nil when it is not
  /// one this handles.
  static func parse(_ text: String) -> Double? {
    text.utf8.withContiguousStorageIfAvailable { parse(utf8: $0) } ?? nil
  }

  static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var index = 0
    let negative = bytes.first == UInt8(ascii: "-")
    if negative { index += 1 }
    var mantissa: UInt64 = 0
    var digits = 0
    var exponent = 0
    var seenPoint = false
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: ".") {
        seenPoint = true
      } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        // Leading zeros are not significant digits.
        if mantissa != 0 || byte != UInt8(ascii: "0") {
          guard digits < 19 else { return nil }
          mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
          digits += 1
        }
        if seenPoint { exponent -= 1 }
      } else {
        break
      }
      index += 1
    }
    if index < bytes.count {
      // The exponent part: e or E, an optional sign, digits.
      index += 1
      var sign = 1
      if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
        if bytes[index] == UInt8(ascii: "-") { sign = -1 }
        index += 1
      }
      var written = 0
      while index < bytes.count {
        written = written * 10 + Int(bytes[index] - UInt8(ascii: "0"))
        guard written <= 1_000 else { return nil }
        index += 1
      }
      exponent += sign * written
    }
    guard let magnitude = value(mantissa, exponent) else { return nil }
    return negative ? -magnitude : magnitude
  }

  /// mantissa × 10^exponent, correctly rounded; nil outside the range handled.
  private static func value(_ mantissa: UInt64, _ exponent: Int) -> Double? {
    if mantissa == 0 { return 0 }
    if exponent == 0 { return Double(mantissa) }
    if mantissa <= 1 << 53, (-22...22).contains(exponent) {
      let scale = exactPowers[abs(exponent)]
      return exponent > 0 ? Double(mantissa) * scale : Double(mantissa) / scale
    }
    guard (-19...19).contains(exponent) else { return nil }
    let power = integerPowers[abs(exponent)]
    if exponent > 0 {
      let (high, low) = mantissa.multipliedFullWidth(by: power)
      return rounded(high: high, low: low, sticky: false, timesTwoTo: 0)
    }
    // m / 10^k: m shifted left as far as keeps the quotient within 64 bits
    // (the high half below the divisor), which leaves it 63 bits or more.
    let shift = mantissa.leadingZeroBitCount + 63 - power.leadingZeroBitCount
    let (high, low) = shiftedLeft(mantissa, by: shift)
    let (quotient, remainder) = power.dividingFullWidth((high, low))
    return rounded(high: 0, low: quotient, sticky: remainder != 0, timesTwoTo: -shift)
  }

  /// (high·2^64 + low + a fraction when `sticky`) × 2^`scale`, rounded once.
  private static func rounded(high: UInt64, low: UInt64, sticky: Bool, timesTwoTo scale: Int)
    -> Double
  {
    var top = low
    var below = sticky
    var scale = scale
    if high != 0 {
      let zeros = high.leadingZeroBitCount
      top = zeros == 0 ? high : high << zeros | low >> (64 - zeros)
      below = below || low << zeros != 0
      scale += 64 - zeros
    }
    // `top` has 63 bits or more when anything lies below it (see `value`),
    // so the conversion drops ten bits or more, the lowest among them: set,
    // it stands for "more than nothing" and turns a false tie into the
    // rounding up it is, without making one.
    if below { top |= 1 }
    return Double(sign: .plus, exponent: scale, significand: Double(top))
  }

  /// `value` × 2^`shift` (0 ≤ shift < 128) as 128 bits.
  private static func shiftedLeft(_ value: UInt64, by shift: Int) -> (high: UInt64, low: UInt64) {
    if shift == 0 { return (0, value) }
    if shift >= 64 { return (value << (shift - 64), 0) }
    return (value >> (64 - shift), value << shift)
  }

  /// 10^0 … 10^22, each a double exactly.
  private static let exactPowers: [Double] = (0...22).map { power in
    (0..<power).reduce(1.0) { product, _ in product * 10 }
  }

  /// 10^0 … 10^19 as integers.
  private static let integerPowers: [UInt64] = (0...19).map { power in
    (0..<power).reduce(UInt64(1)) { product, _ in product * 10 }
  }
}
