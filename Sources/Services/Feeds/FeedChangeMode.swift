/// How a feed follows changes of its source (`feeds/open {changes}`).
public enum FeedChangeMode: String, Sendable, Hashable, CaseIterable {
  /// Changes arrive as `feeds/itemsChanged` steps; nothing loaded is fetched again.
  case diff
  /// A change reloads the loaded items and sends them as a `feeds/pageLoaded`
  /// with `reset`, for clients that only handle pages.
  case reset
}
