import Protocol

/// The orders `products/list` can sort by.
public enum ProductSort: String, Sendable, CaseIterable {
  /// Newest first (by creation time, then id).
  case newest
  case priceAsc
  case priceDesc
  /// By Korean name, then id.
  case name
}

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

/// One page of products.
public struct ProductPage: Sendable, Hashable {
  public let items: [Product]
  /// `nil` on the last page.
  public let nextCursor: String?
  /// How many products match the query in all.
  public let totalCount: Int

  public init(items: [Product], nextCursor: String?, totalCount: Int) {
    self.items = items
    self.nextCursor = nextCursor
    self.totalCount = totalCount
  }

  public var json: JSON {
    [
      "items": .array(items.map(\.json)), "nextCursor": JSON(nextCursor),
      "totalCount": JSON(totalCount),
    ]
  }
}

/// The fields of `products/create`, validated.
public struct ProductDraft: Sendable, Hashable {
  public var nameKo: String
  public var nameEn: String?
  public var price: Int
  public var supplierId: String?

  public init(nameKo: String, nameEn: String? = nil, price: Int, supplierId: String? = nil) {
    self.nameKo = nameKo
    self.nameEn = nameEn
    self.price = price
    self.supplierId = supplierId
  }
}

/// The fields of `products/update`: only those present change. A field sent
/// as `null` (`nameEn`, `supplierId`) is cleared.
public struct ProductPatch: Sendable, Hashable {
  public var nameKo: String?
  /// `.some(nil)` clears the English name.
  public var nameEn: String??
  public var price: Int?
  /// `.some(nil)` removes the supplier.
  public var supplierId: String??

  public init(
    nameKo: String? = nil, nameEn: String?? = nil, price: Int? = nil, supplierId: String?? = nil
  ) {
    self.nameKo = nameKo
    self.nameEn = nameEn
    self.price = price
    self.supplierId = supplierId
  }

  public var isEmpty: Bool { nameKo == nil && nameEn == nil && price == nil && supplierId == nil }
}
