/// A JSON number, kept as the text it was written with.
///
/// Converting to `Double` on the way in would turn the id `9007199254740993`
/// into `9007199254740992`; keeping the text makes every id echo exactly and
/// lets each reader choose the type it needs (`intValue`, `doubleValue`).
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
  /// The number's RFC 8259 text, for example `-12`, `1.5e3`.
  public let text: String

  /// Wraps text that is already known to be a valid RFC 8259 number (the parser's output).
  init(validatedText: String) { self.text = validatedText }

  public init(_ value: Int) { self.text = String(value) }

  /// A finite double in its shortest round-tripping form; non-finite values
  /// have no JSON spelling and become `0`.
  public init(_ value: Double) {
    guard value.isFinite else {
      self.text = "0"
      return
    }
    if value == value.rounded(), abs(value) < 1e15 {
      self.text = String(Int(value))
    } else {
      self.text = "\(value)"
    }
  }

  /// The value when the text is an integer (no fraction, no exponent) that fits an `Int`.
  public var intValue: Int? { Int(text) }

  /// The value as the nearest double; integers written with a fraction or
  /// exponent (`2.0`, `1e2`) count too.
  public var doubleValue: Double? { DecimalDouble.parse(text) ?? Double(text) }

  /// The value as an integer when it is mathematically one: `3`, `3.0` and
  /// `3e0` qualify, `3.5` does not.
  public var integralValue: Int? {
    if let int = intValue { return int }
    guard let double = doubleValue, double.rounded() == double,
      double >= -9.2e18, double <= 9.2e18
    else { return nil }
    return Int(double)
  }

  public var description: String { text }
}
