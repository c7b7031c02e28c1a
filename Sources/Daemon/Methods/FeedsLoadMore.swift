import Protocol
import Services

/// `feeds/loadMore {feedId}` → `{start, end, endReached}`, after its
/// `feeds/stateChanged` and `feeds/pageLoaded`. A call while a load of the
/// feed runs joins it (one upstream fetch; the same range or error).
///
/// Operations on one feed share a lane, so they take effect in arrival order;
/// the call leaves the lane once it has (the load started, or it joined one),
/// so the next `loadMore` can join it and a `refresh` can abandon it.
enum FeedsLoadMore {
  static let method = Method.task("feeds/loadMore", lane: FeedLane.byId) { params, context in
    let feedId = try Params(params).requiredString("feedId", maxLength: 100)
    let load = try await context.daemon.services.feeds.beginLoadMore(
      feedId, notify: FeedNotifications.sender(context.notify, method: context.method))
    context.leaveLane()
    return try await load.value.json
  }
}
