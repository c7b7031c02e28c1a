import Protocol
import Services

/// `feeds/refresh {feedId}` → `{start: 0, end, endReached}`: a new generation
/// from the first page; a running append is abandoned (its callers get this
/// range). Leaves the feed's lane once started, like `FeedsLoadMore`.
enum FeedsRefresh {
  static let method = Method.task("feeds/refresh", lane: FeedLane.byId) { params, context in
    let feedId = try Params(params).requiredString("feedId", maxLength: 100)
    let load = try await context.daemon.services.feeds.beginRefresh(
      feedId, notify: FeedNotifications.sender(context.notify, method: context.method))
    context.leaveLane()
    return try await load.value.json
  }
}
