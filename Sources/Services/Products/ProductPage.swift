import Protocol

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
