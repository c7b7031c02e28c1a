/// One declared param of a method: its contract (`member`: name, schema,
/// required, default, description) and how a handler reads its value from
/// params already checked against that contract (`Params[param]`).
///
/// Declared as `static let limit: Param<Int> = .integer("limit", 1...100,
/// default: 20, "…")`: the range, the default and the type are written once.
public struct Param<Value: Sendable>: DeclaredParam {
  public let member: Member
  /// The value from the member as sent (`nil` when absent); only called on
  /// checked params, so a mismatch cannot happen and falls back to the default.
  let read: @Sendable (JSON?) -> Value

  public init(_ member: Member, read: @escaping @Sendable (JSON?) -> Value) {
    self.member = member
    self.read = read
  }

  /// The value when the member is absent: its declared default, or `nil`.
  public var defaultValue: Value { read(nil) }
}

extension Param where Value == Int {
  public static func integer(
    _ name: String, _ range: ClosedRange<Int>, default value: Int, _ description: String
  ) -> Param {
    Param(
      Member(
        name, .integer(minimum: range.lowerBound, maximum: range.upperBound),
        default: JSON(value), description)
    ) { $0?.numberValue?.integralValue ?? value }
  }

  public static func requiredInteger(
    _ name: String, _ range: ClosedRange<Int>, _ description: String
  ) -> Param {
    Param(
      Member(
        name, .integer(minimum: range.lowerBound, maximum: range.upperBound), required: true,
        description)
    ) { $0?.numberValue?.integralValue ?? range.lowerBound }
  }

  public static func requiredInteger(_ name: String, minimum: Int, _ description: String)
    -> Param
  {
    Param(Member(name, .integer(minimum: minimum), required: true, description)) {
      $0?.numberValue?.integralValue ?? minimum
    }
  }
}

extension Param where Value == Int? {
  public static func integer(
    _ name: String, minimum: Int? = nil, maximum: Int? = nil, _ description: String
  ) -> Param {
    Param(Member(name, .integer(minimum: minimum, maximum: maximum), description)) {
      $0?.numberValue?.integralValue
    }
  }
}

extension Param where Value == Double? {
  public static func number(_ name: String, _ range: ClosedRange<Double>, _ description: String)
    -> Param
  {
    Param(
      Member(name, .number(minimum: range.lowerBound, maximum: range.upperBound), description)
    ) { $0?.doubleValue }
  }
}

extension Param where Value == String {
  public static func requiredString(_ name: String, maxLength: Int, _ description: String)
    -> Param
  {
    requiredString(name, .string(maxLength: maxLength), description)
  }

  /// A required string of a given schema (`.choice` of codes, a bounded length).
  public static func requiredString(_ name: String, _ schema: Schema, _ description: String)
    -> Param
  {
    Param(Member(name, schema, required: true, description)) { $0?.stringValue ?? "" }
  }
}

extension Param where Value == String? {
  public static func string(_ name: String, maxLength: Int, _ description: String) -> Param {
    string(name, .string(maxLength: maxLength), description)
  }

  public static func string(_ name: String, _ schema: Schema, _ description: String) -> Param {
    Param(Member(name, schema, description)) { $0?.stringValue }
  }
}

extension Param where Value == Bool {
  public static func boolean(_ name: String, default value: Bool, _ description: String) -> Param {
    Param(Member(name, .boolean, default: JSON(value), description)) { $0?.boolValue ?? value }
  }
}

extension Param where Value == [String] {
  /// An array of strings of at most `maxLength` characters each; empty when absent.
  public static func strings(_ name: String, maxLength: Int, _ description: String) -> Param {
    Param(Member(name, .array(of: .string(maxLength: maxLength)), description)) {
      $0?.arrayValue?.compactMap(\.stringValue) ?? []
    }
  }
}

extension Param where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
  /// One of the enumeration's raw values, `value` when absent.
  public static func choice(_ name: String, default value: Value, _ description: String) -> Param {
    Param(
      Member(
        name, .choice(Value.allCases.map(\.rawValue)), default: JSON(value.rawValue), description)
    ) { $0?.stringValue.flatMap(Value.init(rawValue:)) ?? value }
  }
}

extension Param where Value == JSON? {
  /// A member read as sent (`null` included), for values with shapes of their
  /// own (`rect`'s two forms, an update's `null` that clears a field).
  public static func value(
    _ name: String, _ schema: Schema, required: Bool = false, _ description: String
  ) -> Param {
    Param(Member(name, schema, required: required, description)) { $0 }
  }
}
