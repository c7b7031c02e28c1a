/// One member of an object, or one param of a method.
public struct Member: Sendable {
  public let name: String
  public let schema: Schema
  public let required: Bool
  /// The value the daemon uses when the member is absent (or `null`).
  public let defaultValue: JSON?
  public let description: String?

  public init(
    _ name: String, _ schema: Schema, required: Bool = false, default defaultValue: JSON? = nil,
    _ description: String? = nil
  ) {
    self.name = name
    self.schema = schema
    self.required = required
    self.defaultValue = defaultValue
    self.description = description
  }
}

extension Member {
  /// The member's schema as a property of an object schema: its description
  /// and default inside (an OpenRPC param carries its description beside it).
  var propertySchema: JSON {
    var schema = paramSchema
    if let description, case .object(var object) = schema {
      object["description"] = JSON(description)
      schema = .object(object)
    }
    return schema
  }

  /// The member's schema with its default, as an OpenRPC param's `schema`.
  public var paramSchema: JSON {
    guard let defaultValue, case .object(var object) = schema.jsonSchema else {
      return schema.jsonSchema
    }
    object["default"] = defaultValue
    return .object(object)
  }
}
