import Protocol

/// `feeds/refresh {feedId}` → `{start: 0, end, endReached}`: a new generation
/// from the first page; a running append is abandoned (its callers get this
/// range). Leaves the feed's lane once started, like `FeedsLoadMore`.
enum FeedsRefresh {
  static let contract = MethodContract(
    "feeds/refresh",
    "Pull-to-refresh: reloads as many items as are loaded (at least one page) while the loaded "
      + "items stay; when the reload arrived, feeds/pageLoaded {reset: true} replaces them (a new "
      + "generation). A running load is abandoned (its callers get this reply's range). A failed "
      + "refresh leaves items, generation and the next page as they were (feeds/stateChanged "
      + "failed, with the error), and the feed stays usable; start is 0.",
    params: [FeedLane.feedId], result: .component(FeedSchemas.feedRange))

  static let method = Method.task(contract, lane: FeedLane.byId) { params, context in
    let load = try await context.session.feeds.beginRefresh(
      params[FeedLane.feedId],
      notify: FeedNotifications.sender(
        context.notify, method: context.method, locale: context.locale))
    context.leaveLane()
    return try await load.value.json
  }
}
