import Protocol
import Services

/// `products/list {cursor?, limit?, query?, supplierId?, sort?}` → `{items, nextCursor, totalCount}`.
enum ProductsList {
  static let method = Method.task("products/list", startsOnReader: true) { params, context in
    let params = try Params(params)
    try rejectNumberedPaging(params)
    let query = try listQuery(params)
    return try await context.daemon.services.products.list(query).json
  }

  /// The members of offset and page-number paging: a client that sends them
  /// would otherwise get the first page every time.
  static let numberedPaging = ["offset", "page", "skip"]

  /// Refuses offset or page-number paging, saying how this list pages.
  static func rejectNumberedPaging(_ params: Params) throws(RPCError) {
    for name in numberedPaging where params.object[name] != nil {
      throw .invalidParams(
        field: params.field(name),
        reason:
          "unknown parameter; products/list pages by cursor: pass the nextCursor of the "
          + "previous page as cursor (none for the first page)")
    }
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
