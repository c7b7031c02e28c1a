/// Where a feed is: nothing running (`idle`), appending a page (`loading`),
/// loading the first page of a new generation (`refreshing`), after a failed
/// load (`failed`), or with its last page loaded (`ended`).
public enum FeedState: String, Sendable, Hashable, CaseIterable {
  case idle, loading, refreshing, failed, ended
}
