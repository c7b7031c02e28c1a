import Protocol

/// One page of `photos/list`.
public struct PhotoPage: Sendable, Hashable {
  public let items: [Photo]
  /// The page's number, from 1.
  public let page: Int
  /// The page to ask for next, or nil when this is the last.
  public let nextPage: Int?

  public init(items: [Photo], page: Int, nextPage: Int?) {
    self.items = items
    self.page = page
    self.nextPage = nextPage
  }

  /// The wire shape: `{items, page, nextPage|null}`.
  public var json: JSON {
    [
      "items": .array(items.map(\.json)), "page": JSON(page),
      "nextPage": nextPage.map { JSON($0) } ?? .null,
    ]
  }
}
