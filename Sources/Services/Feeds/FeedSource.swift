import Protocol

/// A paged list a feed loads from: photos, products, quotes, places.
public protocol FeedSource: Sendable {
  /// The source's wire name (`photos`, `products`, …).
  var name: String { get }
  /// The page that starts at `position` (nil: the first page), of at most `pageSize` items.
  /// - Throws: the service's errors (`UpstreamFailure`, …), `CancellationError`.
  func fetch(after position: FeedPosition?, pageSize: Int) async throws -> FeedPage
  /// The page size a reload of `target` items fetches with, for a feed of
  /// `pageSize`: a source whose positions are cursors can take larger pages.
  func reloadPageSize(pageSize: Int, target: Int) -> Int
}

extension FeedSource {
  /// The feed's own page size: page numbers only hold for the size they were counted in.
  public func reloadPageSize(pageSize: Int, target: Int) -> Int { pageSize }
}
