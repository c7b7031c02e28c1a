import Protocol

/// What a method answers: a name for generated types and its schema.
struct MethodResult: Sendable {
  let name: String
  let schema: Schema

  init(_ name: String, _ schema: Schema) {
    self.name = name
    self.schema = schema
  }

  /// A result of a named shape (`Product`), referred to by `$ref`.
  static func component(_ component: SchemaComponent) -> MethodResult {
    MethodResult(component.name, .reference(component))
  }

  static let empty = MethodResult("Empty", .object([]))
}
