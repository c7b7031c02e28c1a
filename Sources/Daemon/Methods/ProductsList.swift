import Protocol
import Services

/// `products/list {cursor?, limit?, query?, supplierId?, sort?}` → `{items, nextCursor, totalCount}`.
enum ProductsList {
  static let method = Method.task("products/list", startsOnReader: true) { params, context in
    let query = try listQuery(try Params(params))
    return try await context.daemon.services.products.list(query).json
  }

  /// The list params, shared with the products feed source.
  static func listQuery(_ params: Params) throws -> ProductListQuery {
    ProductListQuery(
      cursor: try params.string("cursor", maxLength: 1_000),
      limit: try params.int("limit", in: 1...100) ?? 20,
      query: try params.string("query", maxLength: ProductValidation.maxNameLength),
      supplierId: try params.string("supplierId", maxLength: 100),
      sort: try params.oneOf("sort", ProductSort.allCases.map(\.rawValue))
        .flatMap(ProductSort.init(rawValue:)) ?? .newest)
  }
}
