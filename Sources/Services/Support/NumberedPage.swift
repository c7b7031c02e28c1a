import Protocol

/// A value with a wire shape of its own.
public protocol JSONRepresentable {
  var json: JSON { get }
}

/// One page of a list paged by number (`quotes/list`, `photos/list`):
/// `{items, page, nextPage|null}`.
public struct NumberedPage<Item: JSONRepresentable & Sendable & Hashable>: Sendable, Hashable {
  public let items: [Item]
  /// The page's number, from 1.
  public let page: Int
  /// The page to ask for next, or nil when this is the last.
  public let nextPage: Int?

  public init(items: [Item], page: Int, nextPage: Int?) {
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

/// One page of `quotes/list`.
public typealias QuotePage = NumberedPage<Quote>
/// One page of `photos/list`.
public typealias PhotoPage = NumberedPage<Photo>

extension Quote: JSONRepresentable {}
extension Photo: JSONRepresentable {}
