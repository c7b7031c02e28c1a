import Protocol

/// The shapes of the quotes service's results.
enum QuoteSchemas {
  static let quote = SchemaComponent(
    "Quote",
    .object([
      Member("id", .string, required: true),
      Member("content", .string, required: true),
      Member("author", .string, required: true),
      Member("tags", .array(of: .string), required: true),
      Member("length", .integer, required: true, "characters in content"),
    ]))

  static let quotePage = SchemaComponent(
    "QuotePage",
    .object([
      Member("items", .array(of: .reference(quote)), required: true),
      Member("page", .integer, required: true),
      Member("nextPage", .nullable(.integer), required: true, "null on the last page"),
    ]))
}
