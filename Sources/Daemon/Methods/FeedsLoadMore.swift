import Protocol

/// `feeds/loadMore {feedId}` → `{start, end, endReached}`, after its
/// `feeds/stateChanged` and `feeds/pageLoaded`. A call while a load of the
/// feed runs joins it (one upstream fetch; the same range or error).
///
/// Operations on one feed share a lane, so they take effect in arrival order;
/// the call leaves the lane once it has (the load started, or it joined one),
/// so the next `loadMore` can join it and a `refresh` can abandon it.
enum FeedsLoadMore {
  static let contract = MethodContract(
    "feeds/loadMore",
    "Appends the next page; feeds/stateChanged and feeds/pageLoaded precede the reply. A call "
      + "while a load of the feed runs joins it (one upstream fetch, the same range or error; "
      + "during a refresh, the refresh's range). At the end: start == end, endReached, no fetch. "
      + "A failed load answers the upstream error and leaves the next page where it was. A feed "
      + "keeps at most 10000 items: the page that reaches the limit is cut to it and the feed "
      + "ends there. Unknown feed: -32001.",
    params: [FeedLane.feedId], result: .component(FeedSchemas.feedRange))

  static let method = Method.task(contract, lane: FeedLane.byId) { params, context in
    let load = try await context.session.feeds.beginLoadMore(
      params[FeedLane.feedId],
      notify: FeedNotifications.sender(
        context.notify, method: context.method, locale: context.locale))
    context.leaveLane()
    return try await load.value.json
  }
}
