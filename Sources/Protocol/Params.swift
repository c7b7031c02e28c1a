/// Reads the named params of a request, turning every missing, mistyped or
/// out-of-range member into -32602 with the member's name in `data.field`.
///
/// Unknown members are ignored, as Language Server Protocol servers do, so
/// that newer clients can talk to older daemons.
public struct Params: Sendable {
  /// The members; empty when the request had no params.
  public let object: JSONObject
  /// Prefix for field names in errors (`query.` when reading a nested object).
  private let path: String

  public init(_ params: JSON?, path: String = "") throws(RPCError) {
    self.path = path
    switch params {
    case nil, .null?: object = JSONObject()
    case .object(let object)?: self.object = object
    case let other?:
      throw .invalidParams(
        field: path.isEmpty ? "params" : String(path.dropLast()),
        reason: "expected an object, got \(other.typeName)")
    }
  }

  /// The full path of member `name` (`query.rect` in a nested object), for
  /// errors about it that the readers here do not make.
  public func field(_ name: String) -> String { path + name }

  private func mismatch(_ name: String, _ expected: String, _ value: JSON) -> RPCError {
    .invalidParams(field: field(name), reason: "expected \(expected), got \(value.typeName)")
  }

  /// The member's value, treating `null` as absent.
  public func value(_ name: String) -> JSON? {
    guard let value = object[name], !value.isNull else { return nil }
    return value
  }

  public func string(_ name: String, maxLength: Int? = nil) throws(RPCError) -> String? {
    guard let value = value(name) else { return nil }
    guard case .string(let string) = value else { throw mismatch(name, "a string", value) }
    if let maxLength, string.count > maxLength {
      throw .invalidParams(field: field(name), reason: "longer than \(maxLength) characters")
    }
    return string
  }

  public func requiredString(_ name: String, maxLength: Int? = nil) throws(RPCError) -> String {
    guard let string = try string(name, maxLength: maxLength) else { throw missing(name) }
    return string
  }

  /// An integer (`3`, also `3.0`), optionally within `range`.
  public func int(_ name: String, in range: ClosedRange<Int>? = nil) throws(RPCError) -> Int? {
    guard let value = value(name) else { return nil }
    guard case .number(let number) = value else { throw mismatch(name, "an integer", value) }
    guard let int = number.integralValue else {
      throw .invalidParams(field: field(name), reason: "expected an integer, got \(number.text)")
    }
    if let range, !range.contains(int) {
      throw .invalidParams(
        field: field(name),
        reason: "must be between \(range.lowerBound) and \(range.upperBound), got \(int)")
    }
    return int
  }

  public func requiredInt(_ name: String, in range: ClosedRange<Int>? = nil) throws(RPCError)
    -> Int
  {
    guard let int = try int(name, in: range) else { throw missing(name) }
    return int
  }

  public func double(_ name: String, in range: ClosedRange<Double>? = nil) throws(RPCError)
    -> Double?
  {
    guard let value = value(name) else { return nil }
    guard case .number(let number) = value, let double = number.doubleValue, double.isFinite else {
      throw mismatch(name, "a number", value)
    }
    if let range, !range.contains(double) {
      throw .invalidParams(
        field: field(name),
        reason: "must be between \(range.lowerBound) and \(range.upperBound), got \(number.text)")
    }
    return double
  }

  public func bool(_ name: String) throws(RPCError) -> Bool? {
    guard let value = value(name) else { return nil }
    guard case .bool(let flag) = value else { throw mismatch(name, "a boolean", value) }
    return flag
  }

  public func stringArray(_ name: String) throws(RPCError) -> [String]? {
    guard let value = value(name) else { return nil }
    guard case .array(let elements) = value else {
      throw mismatch(name, "an array of strings", value)
    }
    var strings: [String] = []
    strings.reserveCapacity(elements.count)
    for (offset, element) in elements.enumerated() {
      guard case .string(let string) = element else {
        throw .invalidParams(
          field: "\(field(name))[\(offset)]", reason: "expected a string, got \(element.typeName)")
      }
      strings.append(string)
    }
    return strings
  }

  /// A nested object, read with the same rules and dotted field names.
  public func nested(_ name: String) throws(RPCError) -> Params? {
    guard let value = value(name) else { return nil }
    return try Params(value, path: field(name) + ".")
  }

  /// A value that must be one of `allowed` (an enumeration on the wire).
  public func oneOf(_ name: String, _ allowed: [String]) throws(RPCError) -> String? {
    guard let string = try string(name) else { return nil }
    guard allowed.contains(string) else {
      throw .invalidParams(
        field: field(name),
        reason: "must be one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))")
    }
    return string
  }

  public func missing(_ name: String) -> RPCError {
    .invalidParams(field: field(name), reason: "is required")
  }
}
