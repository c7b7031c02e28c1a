/// A JSON value as RFC 8259 defines it.
///
/// Numbers keep the exact text they were written with (see `JSONNumber`), so an
/// id such as `9007199254740993` or `1.50` goes back to the client byte for byte,
/// and `1` and `"1"` stay different values. Objects keep their members in the
/// order they arrived.
public enum JSON: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(JSONNumber)
  case string(String)
  case array([JSON])
  case object(JSONObject)
}

extension JSON {
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  public var numberValue: JSONNumber? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The value as an `Int` when it is a number written as an integer that fits.
  public var intValue: Int? { numberValue?.intValue }

  public var doubleValue: Double? { numberValue?.doubleValue }

  public var arrayValue: [JSON]? {
    if case .array(let value) = self { return value }
    return nil
  }

  public var objectValue: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The member named `key` when this is an object.
  public subscript(key: String) -> JSON? {
    objectValue?[key]
  }

  /// The JSON type name, for error messages ("expected a string, got an array").
  /// The value's JSON type, for messages in the session's language.
  public var typeText: LocalizedText {
    switch self {
    case .null: .phrase("null")
    case .bool: .phrase("boolean")
    case .number: .phrase("number")
    case .string: .phrase("string")
    case .array: .phrase("array")
    case .object: .phrase("object")
    }
  }

  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(nilLiteral: ()) { self = .null }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
  public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(arrayLiteral elements: JSON...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSON)...) {
    self = .object(JSONObject(elements))
  }
}

extension JSON {
  public init(_ value: Int) { self = .number(JSONNumber(value)) }
  public init(_ value: Double) { self = .number(JSONNumber(value)) }
  public init(_ value: String) { self = .string(value) }
  public init(_ value: Bool) { self = .bool(value) }
  /// `.null` for `nil`, the wrapped value otherwise.
  public init(_ value: String?) { self = value.map(JSON.string) ?? .null }
}

extension JSON: CustomStringConvertible {
  /// The compact serialized text.
  public var description: String { String(decoding: serialized(), as: UTF8.self) }
}
