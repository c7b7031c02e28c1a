import Protocol

/// The index range a load added: `start == end` when it added nothing.
public struct FeedRange: Sendable, Hashable {
  public let start: Int
  public let end: Int
  /// True when the feed's last page is loaded.
  public let endReached: Bool

  public init(start: Int, end: Int, endReached: Bool) {
    self.start = start
    self.end = end
    self.endReached = endReached
  }

  /// The wire shape: `{start, end, endReached}`.
  public var json: JSON {
    ["start": JSON(start), "end": JSON(end), "endReached": JSON(endReached)]
  }
}
