import Protocol

/// The feeds of one client session: paginated lists whose state lives in the
/// daemon (what is loaded, where the next page starts, whether a load runs,
/// whether the end is reached).
///
/// Rules, per feed:
/// - One fetch at a time. A `loadMore` while a fetch runs joins it: the
///   caller gets that fetch's range (or its error); no second upstream fetch.
///   During a refresh that is the refresh's range. A fetch is never cancelled
///   by its callers (others may share it), only by `refresh` and `close`.
/// - The next position moves only when a page arrived and decoded; after a
///   failure (`failed`) the next `loadMore` fetches the same page again.
/// - `refresh` starts a new generation: it drops the loaded items at once,
///   abandons (cancels) a running fetch and loads the first page. A page
///   fetched for an older generation is never delivered; the callers of the
///   abandoned fetch are answered with the outcome of the fetch that replaced it.
/// - Every load reports `stateChanged` when it starts and when it ends, and
///   `pageLoaded` before the final `stateChanged` of a successful load; all of
///   them are sent before the calls they answer return.
/// - Bounds: at most `maxOpenFeeds` feeds; at most `maxItemsPerFeed` items per
///   feed: the page that reaches the limit is cut to it and the feed ends
///   there (`endReached`, state `ended`); `refresh` starts it over.
/// - A product change refreshes the products feeds at once (`refreshing` is
///   reported before the call that made the change returns), but the fetch
///   waits `changeRefreshDelay` first, and changes arriving while it waits join
///   that refresh: it has not read anything yet, so it will see them. A burst
///   of changes (a client creating 100 products) costs one refresh, not 100
///   abandoned ones, each with its notification.
public actor FeedEngine {
  public typealias Notify = @Sendable (FeedEvent) -> Void

  public static let defaultMaxOpenFeeds = 64
  public static let defaultMaxItemsPerFeed = 10_000
  /// Short enough not to be seen, long enough to cover a burst of writes
  /// (durable creates take about a millisecond each).
  public static let defaultChangeRefreshDelay = Duration.milliseconds(50)

  /// A fetch in progress, shared by the callers that joined it.
  private struct Fetch {
    /// Identifies the fetch among all of this engine's fetches.
    let token: UInt64
    let task: Task<FeedRange, any Error>
    /// True when it loads the first page of a new generation.
    let isRefresh: Bool
    /// True while it waits before fetching (a refresh started by a change).
    var waiting = false
  }

  /// One open feed.
  private struct Feed {
    /// Where its pages come from.
    let source: any FeedSource
    /// Items per fetch.
    let pageSize: Int
    /// The state last reported.
    var state = FeedState.idle
    /// Grows by one at each refresh.
    var generation = 0
    /// The items loaded in this generation.
    var items: [JSON] = []
    /// Where the next page starts; nil before the first page.
    var next: FeedPosition?
    /// True once the last page is loaded.
    var endReached = false
    /// The fetch in progress, if any.
    var fetch: Fetch?
  }

  /// Open feeds by id.
  private var feeds: [String: Feed] = [:]
  /// The number in the next feed id.
  private var nextFeedNumber = 1
  /// The token of the next fetch.
  private var nextToken: UInt64 = 1
  /// For each abandoned fetch, the fetch that replaced it (its callers get that one's outcome).
  private var successors: [UInt64: Task<FeedRange, any Error>] = [:]
  /// Open feeds at most; `open` fails beyond it.
  public nonisolated let maxOpenFeeds: Int
  /// Items kept per feed at most.
  public nonisolated let maxItemsPerFeed: Int
  /// How long a refresh started by a product change waits before it fetches.
  public nonisolated let changeRefreshDelay: Duration

  public init(
    maxOpenFeeds: Int = FeedEngine.defaultMaxOpenFeeds,
    maxItemsPerFeed: Int = FeedEngine.defaultMaxItemsPerFeed,
    changeRefreshDelay: Duration = FeedEngine.defaultChangeRefreshDelay
  ) {
    self.maxOpenFeeds = max(1, maxOpenFeeds)
    self.maxItemsPerFeed = max(1, maxItemsPerFeed)
    self.changeRefreshDelay = max(.zero, changeRefreshDelay)
  }

  /// Opens an idle, empty feed over `source`; returns its id.
  /// - Throws: `InvalidArgument` when `maxOpenFeeds` feeds are open or `pageSize` is below 1.
  public func open(source: any FeedSource, pageSize: Int) throws -> String {
    guard pageSize >= 1 else {
      throw InvalidArgument(field: "pageSize", reason: "must be at least 1")
    }
    guard feeds.count < maxOpenFeeds else {
      throw InvalidArgument(
        field: "source", reason: "too many open feeds (\(maxOpenFeeds)): close one first")
    }
    let id = "feed-\(nextFeedNumber)"
    nextFeedNumber += 1
    feeds[id] = Feed(source: source, pageSize: pageSize)
    return id
  }

  /// Appends the next page, or joins the fetch that runs. At the end, answers
  /// `start == end` with `endReached` and fetches nothing.
  /// - Throws: `NotFound` for an unknown feed; the source's error when the load fails.
  public func loadMore(_ id: String, notify: @escaping Notify) async throws -> FeedRange {
    try await beginLoadMore(id, notify: notify).value
  }

  /// Starts `loadMore` (or joins the fetch that runs) and returns the fetch
  /// without waiting for it: when this returns, the call has taken effect
  /// (`stateChanged` is sent) and later calls see it.
  /// - Throws: `NotFound` for an unknown feed.
  public func beginLoadMore(_ id: String, notify: @escaping Notify) throws -> Task<
    FeedRange, any Error
  > {
    let feed = try self.feed(id)
    if let fetch = feed.fetch { return fetch.task }
    if feed.endReached {
      let range = FeedRange(start: feed.items.count, end: feed.items.count, endReached: true)
      return Task { range }
    }
    setState(id, .loading, notify: notify)
    return startFetch(id, isRefresh: false, notify: notify)
  }

  /// Starts a new generation from the first page; answers its range.
  /// - Throws: `NotFound` for an unknown feed; the source's error when the load fails.
  public func refresh(_ id: String, notify: @escaping Notify) async throws -> FeedRange {
    try await beginRefresh(id, notify: notify).value
  }

  /// Items `start..<end` of the feed (`end` past the count is cut to it).
  /// - Throws: `NotFound`; `InvalidArgument` when `start` is negative or above `end`.
  public func items(_ id: String, start: Int, end: Int) throws -> [JSON] {
    let feed = try self.feed(id)
    guard start >= 0 else { throw InvalidArgument(field: "start", reason: "must be at least 0") }
    guard end >= start else {
      throw InvalidArgument(field: "end", reason: "must be at least start")
    }
    let count = feed.items.count
    return Array(feed.items[min(start, count)..<min(end, count)])
  }

  /// The feed's state and item count.
  /// - Throws: `NotFound`.
  public func status(_ id: String) throws -> (state: FeedState, count: Int, generation: Int) {
    let feed = try self.feed(id)
    return (feed.state, feed.items.count, feed.generation)
  }

  /// Closes a feed; its running fetch is cancelled and its callers get `NotFound`.
  /// - Throws: `NotFound` for an unknown feed.
  public func close(_ id: String) throws {
    guard let feed = feeds.removeValue(forKey: id) else {
      throw NotFound(resource: "feed", id: id)
    }
    feed.fetch?.task.cancel()
  }

  /// Closes every feed (the session ended).
  public func closeAll() {
    for feed in feeds.values { feed.fetch?.task.cancel() }
    feeds.removeAll()
  }

  /// The ids of the open feeds.
  public var openFeedIds: [String] { feeds.keys.sorted() }

  /// A product changed: every products feed that has loaded or is loading
  /// something starts a refresh (without waiting for it here), unless a
  /// refresh that has not fetched yet covers the change.
  public func productsChanged(notify: @escaping Notify) {
    for (id, feed) in feeds where feed.source.name == "products" {
      let pristine = feed.generation == 0 && feed.items.isEmpty && feed.fetch == nil
      if pristine && feed.state == .idle { continue }
      if feed.fetch?.waiting == true { continue }
      _ = try? beginRefresh(id, after: changeRefreshDelay, notify: notify)
    }
  }

  // MARK: - Fetching

  private func feed(_ id: String) throws -> Feed {
    guard let feed = feeds[id] else { throw NotFound(resource: "feed", id: id) }
    return feed
  }

  /// Starts `refresh` and returns its fetch without waiting for it (see
  /// `beginLoadMore`); the fetch starts after `delay` when one is given.
  /// - Throws: `NotFound` for an unknown feed.
  public func beginRefresh(
    _ id: String, after delay: Duration? = nil, notify: @escaping Notify
  ) throws -> Task<FeedRange, any Error> {
    guard var feed = feeds[id] else { throw NotFound(resource: "feed", id: id) }
    let abandoned = feed.fetch
    abandoned?.task.cancel()
    feed.fetch = nil
    feed.generation += 1
    feed.items = []
    feed.next = nil
    feed.endReached = false
    feeds[id] = feed
    setState(id, .refreshing, notify: notify)
    let task = startFetch(id, isRefresh: true, after: delay, notify: notify)
    if let abandoned { successors[abandoned.token] = task }
    return task
  }

  /// Starts fetching the feed's next page, after `delay` if one is given.
  /// The caller has checked that the feed exists.
  private func startFetch(
    _ id: String, isRefresh: Bool, after delay: Duration? = nil, notify: @escaping Notify
  ) -> Task<FeedRange, any Error> {
    let token = nextToken
    nextToken += 1
    let feed = feeds[id]
    let source = feed?.source
    let position = feed?.next
    let pageSize = feed?.pageSize ?? 1
    let task = Task<FeedRange, any Error> {
      let outcome: Result<FeedPage, any Error>
      do {
        guard let source else { throw NotFound(resource: "feed", id: id) }
        if let delay {
          // Cancelled by a refresh or a close while waiting: abandoned, like a cancelled fetch.
          try await Task.sleep(for: delay)
          self.stopWaiting(id, token: token)
        }
        outcome = .success(try await source.fetch(after: position, pageSize: pageSize))
      } catch {
        outcome = .failure(error)
      }
      return try await self.complete(id, token: token, outcome, notify: notify)
    }
    feeds[id]?.fetch = Fetch(token: token, task: task, isRefresh: isRefresh, waiting: delay != nil)
    return task
  }

  /// A delayed fetch is about to read: a change from now on may come too late for it.
  private func stopWaiting(_ id: String, token: UInt64) {
    if feeds[id]?.fetch?.token == token { feeds[id]?.fetch?.waiting = false }
  }

  /// Applies a fetch's outcome, unless a refresh or a close abandoned it.
  private func complete(
    _ id: String, token: UInt64, _ outcome: Result<FeedPage, any Error>,
    notify: @escaping Notify
  ) async throws -> FeedRange {
    let successor = successors.removeValue(forKey: token)
    guard var feed = feeds[id] else { throw NotFound(resource: "feed", id: id) }
    guard let fetch = feed.fetch, fetch.token == token else {
      // Abandoned: its page (or error) belongs to an older generation.
      guard let successor else { throw NotFound(resource: "feed", id: id) }
      return try await successor.value
    }
    feed.fetch = nil
    switch outcome {
    case .failure(let error):
      feeds[id] = feed
      setState(id, .failed, error: error, notify: notify)
      throw error
    case .success(let page):
      let start = feed.items.count
      var items = page.items
      var next = page.next
      let room = maxItemsPerFeed - start
      if items.count >= room {
        // The item limit: the feed ends here.
        items = Array(items.prefix(room))
        next = nil
      }
      feed.items += items
      feed.next = next
      feed.endReached = next == nil
      feeds[id] = feed
      let end = feed.items.count
      notify(
        .pageLoaded(
          feedId: id, generation: feed.generation, start: start, end: end, items: items,
          endReached: feed.endReached, reset: fetch.isRefresh))
      setState(id, feed.endReached ? .ended : .idle, notify: notify)
      return FeedRange(start: start, end: end, endReached: feed.endReached)
    }
  }

  private func setState(
    _ id: String, _ state: FeedState, error: (any Error)? = nil, notify: Notify
  ) {
    guard let count = feeds[id]?.items.count else { return }
    feeds[id]?.state = state
    notify(.stateChanged(feedId: id, state: state, count: count, error: error))
  }
}
