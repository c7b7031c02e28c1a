import Protocol

/// Where the next page of a feed starts, as its source counts: a page number
/// (photos, quotes) or an opaque cursor (products). The engine only stores it.
public enum FeedPosition: Sendable, Hashable {
  case page(Int)
  case cursor(String)
}

/// One page a source returned.
public struct FeedPage: Sendable, Hashable {
  /// The page's items in their wire shape.
  public let items: [JSON]
  /// Where the page after this one starts; nil when this page is the last.
  public let next: FeedPosition?

  public init(items: [JSON], next: FeedPosition?) {
    self.items = items
    self.next = next
  }
}

/// A paged list a feed loads from: photos, products, quotes, places.
public protocol FeedSource: Sendable {
  /// The source's wire name (`photos`, `products`, …).
  var name: String { get }
  /// The page that starts at `position` (nil: the first page), of at most `pageSize` items.
  /// - Throws: the service's errors (`UpstreamFailure`, …), `CancellationError`.
  func fetch(after position: FeedPosition?, pageSize: Int) async throws -> FeedPage
}
