import Protocol
import Services

/// `products/list {cursor?, limit?, query?, supplierId?, sort?}` → `{items, nextCursor, totalCount}`.
enum ProductsList {
  static let cursor: Param<String?> = .string(
    "cursor", maxLength: 1_000,
    "nextCursor of the previous page, with the same query, supplierId and sort")
  static let limit: Param<Int> = .integer("limit", 1...100, default: 20, "products per page")
  static let query: Param<String?> = .string(
    "query", maxLength: ProductValidation.maxNameLength,
    "a substring of the Korean or English name")
  static let supplierId: Param<String?> = .string(
    "supplierId", maxLength: 100, "only this supplier's products")
  static let sort: Param<ProductSort> = .choice("sort", default: .newest, "the order")

  /// The list's filters, which a products feed takes as its query.
  static let filters: [any DeclaredParam] = [query, supplierId, sort]

  static let contract = MethodContract(
    "products/list",
    "A page of products. Cursors are opaque keyset positions: a deep page costs what the first "
      + "costs, and paging never repeats or skips a product while others are added or deleted. "
      + "offset, page or skip get -32602 saying how to page.",
    params: [cursor, limit] + filters, result: .component(ProductSchemas.productPage),
    refused: ["offset", "page", "skip"].map { ($0, numberedPagingReason) })

  /// Offset or page-number paging would otherwise get the first page every time.
  static let numberedPagingReason: LocalizedText =
    "products/list pages by cursor: send the previous page's nextCursor as cursor"

  static let method = Method.read(contract, now: now) { params, context in
    let query = listQuery(params, cursor: params[cursor], limit: params[limit])
    return EncodedJSON(try await context.daemon.services.products.list(query).json)
  }

  /// The page read on the reader thread, when the catalog can (see `Method.read`).
  private static func now(_ params: Params, _ context: RequestContext) throws -> EncodedJSON? {
    let query = listQuery(params, cursor: params[cursor], limit: params[limit])
    return try context.daemon.services.products.listNow(query)
  }

  /// The list query of `filters`, shared with the products feed source.
  static func listQuery(
    _ params: Params, cursor: String? = nil, limit: Int = ProductsList.limit.defaultValue
  )
    -> ProductListQuery
  {
    ProductListQuery(
      cursor: cursor, limit: limit, query: params[query], supplierId: params[supplierId],
      sort: params[sort])
  }
}
