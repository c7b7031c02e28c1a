/// The shape of a JSON value, declared once: requests are checked against it
/// (`validate(_:at:)`) and `rpc.discover` publishes it as JSON Schema
/// (`jsonSchema`), so that what the daemon accepts and what it documents
/// cannot drift apart.
public indirect enum Schema: Sendable {
  /// Any value (`{}`).
  case any
  case null
  case boolean
  /// An integer (`3`, also `3.0`), within the bounds given.
  case integer(minimum: Int? = nil, maximum: Int? = nil)
  /// A finite number within the bounds given.
  case number(minimum: Double? = nil, maximum: Double? = nil)
  /// Text of `minLength...maxLength` characters; `format` is documentation
  /// (`date-time`).
  case string(minLength: Int? = nil, maxLength: Int? = nil, format: String? = nil)
  /// One of these strings.
  case choice([String])
  /// Exactly this string (the tag of one shape of a `oneOf`).
  case constant(String)
  case array(of: Schema, minItems: Int? = nil, maxItems: Int? = nil)
  case object(ObjectShape)
  /// An object whose members, named freely, all have the schema given.
  case map(of: Schema)
  /// This schema, or `null`.
  case nullable(Schema)
  /// One of several shapes, each with a title in the document.
  case oneOf([Schema])
  /// A named shape, published once under `components.schemas`.
  case reference(SchemaComponent)
  /// A shape with a sentence saying what the value means.
  case described(Schema, String)
  /// A shape with a title (a shape of a `oneOf`).
  case titled(String, Schema)
  /// A value whose shape depends on another member (a feed's `query` on its
  /// `source`): published as the schema given, of which only the JSON type is
  /// checked here; the handler checks the rest against the right shape.
  case dependent(Schema)

  public static let string = Schema.string()
  public static let integer = Schema.integer()
  public static let number = Schema.number()

  /// An object of these members; `strict` refuses members it does not declare.
  public static func object(_ members: [Member], strict: Bool = true) -> Schema {
    .object(ObjectShape(members: members, strict: strict))
  }
}

extension Schema {
  /// The JSON Schema (draft 2020-12) of this shape; named components as
  /// `$ref`s to `#/components/schemas/NAME`.
  public var jsonSchema: JSON { .object(JSONObject(jsonSchemaMembers)) }

  private var jsonSchemaMembers: [(String, JSON)] {
    switch self {
    case .any: return []
    case .null: return [("type", "null")]
    case .boolean: return [("type", "boolean")]
    case .integer(let minimum, let maximum):
      return [("type", "integer")] + bounds(minimum.map { JSON($0) }, maximum.map { JSON($0) })
    case .number(let minimum, let maximum):
      return [("type", "number")] + bounds(minimum.map(JSON.number), maximum.map(JSON.number))
    case .string(let minLength, let maxLength, let format):
      var members: [(String, JSON)] = [("type", "string")]
      if let minLength { members.append(("minLength", JSON(minLength))) }
      if let maxLength { members.append(("maxLength", JSON(maxLength))) }
      if let format { members.append(("format", JSON(format))) }
      return members
    case .choice(let values): return [("enum", .array(values.map { JSON($0) }))]
    case .constant(let value): return [("const", JSON(value))]
    case .array(let items, let minItems, let maxItems):
      var members: [(String, JSON)] = [("type", "array"), ("items", items.jsonSchema)]
      if let minItems { members.append(("minItems", JSON(minItems))) }
      if let maxItems { members.append(("maxItems", JSON(maxItems))) }
      return members
    case .object(let shape):
      var members: [(String, JSON)] = [("type", "object")]
      let required = shape.members.filter(\.required).map { JSON($0.name) }
      if !required.isEmpty { members.append(("required", .array(required))) }
      if !shape.members.isEmpty {
        members.append(
          ("properties", .object(JSONObject(shape.members.map { ($0.name, $0.propertySchema) }))))
      }
      if shape.strict { members.append(("additionalProperties", false)) }
      return members
    case .map(let values):
      return [("type", "object"), ("additionalProperties", values.jsonSchema)]
    case .nullable(let schema):
      return schema.nullableMembers
    case .oneOf(let schemas): return [("oneOf", .array(schemas.map(\.jsonSchema)))]
    case .reference(let component):
      return [("$ref", JSON("#/components/schemas/" + component.name))]
    case .described(let schema, let description):
      return schema.jsonSchemaMembers + [("description", JSON(description))]
    case .titled(let title, let schema):
      return [("title", JSON(title))] + schema.jsonSchemaMembers
    case .dependent(let schema): return schema.jsonSchemaMembers
    }
  }

  /// `type: [T, "null"]` where the schema has a single type, else a `oneOf` with `null`.
  private var nullableMembers: [(String, JSON)] {
    var members = jsonSchemaMembers
    if let index = members.firstIndex(where: { $0.0 == "type" }),
      case .string(let type) = members[index].1
    {
      members[index].1 = [JSON(type), "null"]
      return members
    }
    if let index = members.firstIndex(where: { $0.0 == "enum" }),
      case .array(let values) = members[index].1
    {
      members[index].1 = .array(values + [.null])
      return members
    }
    return [("oneOf", [jsonSchema, ["type": "null"]])]
  }

  private func bounds(_ minimum: JSON?, _ maximum: JSON?) -> [(String, JSON)] {
    var members: [(String, JSON)] = []
    if let minimum { members.append(("minimum", minimum)) }
    if let maximum { members.append(("maximum", maximum)) }
    return members
  }

  /// The schema without descriptions and titles, for checking a value.
  var shape: Schema {
    switch self {
    case .described(let schema, _), .titled(_, let schema): schema.shape
    case .reference(let component): component.schema.shape
    default: self
    }
  }
}

extension JSON {
  fileprivate static func number(_ value: Double) -> JSON {
    value.rounded() == value && abs(value) < 1e15 ? JSON(Int(value)) : JSON(value)
  }
}
