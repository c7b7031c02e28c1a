import Protocol

/// Kakao Local's `meta`: every match, how many of them can be paged, and
/// whether this page is the last one.
public struct PlaceSearchMeta: Sendable, Hashable {
  public var totalCount: Int
  /// `min(totalCount, 45)`.
  public var pageableCount: Int
  public var isEnd: Bool

  public init(totalCount: Int, pageableCount: Int, isEnd: Bool) {
    self.totalCount = totalCount
    self.pageableCount = pageableCount
    self.isEnd = isEnd
  }

  public var json: JSON {
    [
      "totalCount": JSON(totalCount), "pageableCount": JSON(pageableCount),
      "isEnd": JSON(isEnd),
    ]
  }
}
