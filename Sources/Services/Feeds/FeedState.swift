import Protocol

/// Where a feed is: nothing running (`idle`), appending a page (`loading`),
/// loading the first page of a new generation (`refreshing`), after a failed
/// load (`failed`), or with its last page loaded (`ended`).
public enum FeedState: String, Sendable, Hashable, CaseIterable {
  case idle, loading, refreshing, failed, ended
}

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

/// What a feed tells its observers (`feeds/pageLoaded`, `feeds/itemsChanged`,
/// `feeds/stateChanged`).
public enum FeedEvent: Sendable {
  /// A page was appended at `start..<end` (at 0 after a refresh: `reset`).
  case pageLoaded(
    feedId: String, generation: Int, start: Int, end: Int, items: [JSON], endReached: Bool,
    reset: Bool)
  /// The loaded items changed in place: apply `changes` in order; `count` items remain.
  case itemsChanged(feedId: String, generation: Int, changes: [FeedItemOp], count: Int)
  /// The feed entered `state`; it holds `count` items; `error` is the failure of a `failed` load.
  case stateChanged(feedId: String, state: FeedState, count: Int, error: (any Error)?)
}
