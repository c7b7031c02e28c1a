import Protocol

/// The shapes of the products service's results.
enum ProductSchemas {
  static let supplier = SchemaComponent(
    "Supplier",
    .object([Member("id", .string, required: true), Member("name", .string, required: true)]))

  static let product = SchemaComponent(
    "Product",
    .object([
      Member("id", .string, required: true),
      Member("nameKo", .string, required: true),
      Member("nameEn", .nullable(.string), required: true),
      Member("price", .integer(minimum: 0), required: true, "won"),
      Member("supplier", .oneOf([.reference(supplier), .null]), required: true),
      Member("createdAt", .nullable(.string(format: "date-time")), required: true),
      Member("updatedAt", .nullable(.string(format: "date-time")), required: true),
      Member("version", .integer, required: true, "grows by one at every update"),
      Member(
        "imageUrl", .nullable(.string(format: "uri")), required: true,
        "the picture: http, https or file URL; null when it has none"),
    ]))

  static let productPage = SchemaComponent(
    "ProductPage",
    .object([
      Member("items", .array(of: .reference(product)), required: true),
      Member("nextCursor", .nullable(.string), required: true, "opaque; null on the last page"),
      Member("totalCount", .integer, required: true),
    ]))
}
