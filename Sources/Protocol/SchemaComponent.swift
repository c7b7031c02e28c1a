/// A schema with a name, defined once in the document and referred to by
/// `$ref` wherever it is used.
public struct SchemaComponent: Sendable {
  public let name: String
  public let schema: Schema

  public init(_ name: String, _ schema: Schema) {
    self.name = name
    self.schema = schema
  }
}
