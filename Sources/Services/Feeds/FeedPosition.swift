/// Where the next page of a feed starts, as its source counts: a page number
/// (photos, quotes) or an opaque cursor (products). The engine only stores it.
public enum FeedPosition: Sendable, Hashable {
  case page(Int)
  case cursor(String)
}

extension FeedPosition {
  /// The page number, for page-numbered sources (1 when the position is a cursor).
  var pageNumber: Int {
    if case .page(let number) = self { number } else { 1 }
  }

  /// The cursor, for cursor-paged sources (nil when the position is a page number).
  var cursorValue: String? {
    if case .cursor(let cursor) = self { cursor } else { nil }
  }
}
