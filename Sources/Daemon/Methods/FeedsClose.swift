import Protocol
import Services

/// `feeds/close {feedId}` → `{}`; a load still running on it fails with -32001.
enum FeedsClose {
  static let method = Method.task("feeds/close", lane: FeedLane.byId) { params, context in
    let feedId = try Params(params).requiredString("feedId", maxLength: 100)
    try await context.daemon.services.feeds.close(feedId)
    return [:]
  }
}
