import Protocol

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
