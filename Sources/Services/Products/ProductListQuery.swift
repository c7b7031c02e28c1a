/// The params of `products/list`.
public struct ProductListQuery: Sendable, Hashable {
  /// An opaque cursor from a previous page's `nextCursor`.
  public var cursor: String?
  /// Items per page, 1–100.
  public var limit: Int
  /// A substring of the Korean or English name.
  public var query: String?
  public var supplierId: String?
  public var sort: ProductSort

  public init(
    cursor: String? = nil, limit: Int = 20, query: String? = nil, supplierId: String? = nil,
    sort: ProductSort = .newest
  ) {
    self.cursor = cursor
    self.limit = limit
    self.query = query
    self.supplierId = supplierId
    self.sort = sort
  }
}
