import Protocol

/// `feeds/close {feedId}` → `{}`; a load still running on it fails with -32001.
enum FeedsClose {
  static let contract = MethodContract(
    "feeds/close",
    "Closes a feed; a load still running on it fails with -32001. Feeds close when the session "
      + "ends.",
    params: [FeedLane.feedId], result: .empty)

  static let method = Method.task(contract, lane: FeedLane.byId) { params, context in
    try await context.session.feeds.close(params[FeedLane.feedId])
    return [:]
  }
}
