import Protocol

/// The feeds of one client session: paginated lists whose state lives in the
/// daemon (what is loaded, where the next page starts, whether a load runs,
/// whether the end is reached), kept up to date as their sources change.
///
/// Rules, per feed:
/// - One fetch at a time. A `loadMore` while a fetch runs joins it: the
///   caller gets that fetch's range (or its error); no second upstream fetch.
///   During a reload that is the reload's range. A fetch is never cancelled
///   by its callers (others may share it), only by `refresh` and `close`.
/// - The next position moves only when a page arrived and decoded; after a
///   failure (`failed`) the next `loadMore` fetches the same page again.
/// - `refresh` reloads as many items as are loaded (at least one page) while
///   they stay; when the reload arrived, one `pageLoaded` with `reset`
///   replaces them (a new generation). A failed refresh leaves items,
///   generation and next position as they were. A refresh abandons (cancels)
///   a running fetch; the callers of the abandoned fetch are answered with
///   the outcome of the fetch that replaced it.
/// - Every load reports `stateChanged` when it starts and when it ends, and
///   `pageLoaded` (or `itemsChanged`) before the final `stateChanged` of a
///   successful load; all of them are sent before the calls they answer return.
/// - A live source's changes (`apply`) become `itemsChanged` steps on every
///   feed whose loaded window they touch, before `apply` returns. A page
///   fetched while changes arrived may predate them: when it lands, the
///   records they named are brought up to date in it. `resync` (changes may
///   have been missed), a source that cannot place a change by itself, and
///   feeds opened with `changes: reset` reload the loaded items instead,
///   after `changeRefreshDelay`, so that a burst of changes costs one reload.
/// - Bounds: at most `maxOpenFeeds` feeds; at most `maxItemsPerFeed` items per
///   feed: the page that reaches the limit is cut to it and the feed ends
///   there (`endReached`, state `ended`); `refresh` starts it over.
public actor FeedEngine {
  public typealias Notify = @Sendable (FeedEvent) -> Void
  /// Receives a run of events to send together (one write for a change that reaches many feeds).
  public typealias NotifyAll = @Sendable ([FeedEvent]) -> Void

  public static let defaultMaxOpenFeeds = 64
  public static let defaultMaxItemsPerFeed = 10_000
  /// Short enough not to be seen, long enough to cover a burst of writes
  /// (many durable creates, each waiting for its commit: see Benchmarks/README.md).
  public static let defaultChangeRefreshDelay = Duration.milliseconds(50)
  /// A change that reaches many feeds goes out in runs of this many
  /// notifications: the first are written while the rest are placed.
  static let stepsPerWrite = 128

  /// What a fetch does with what it brings.
  private enum FetchKind: Int, Comparable {
    /// Appends the next page.
    case append
    /// Reloads the loaded items and sends the difference (`itemsChanged`).
    case resync
    /// Reloads the loaded items and replaces them (`pageLoaded` with `reset`).
    case refresh

    static func < (a: FetchKind, b: FetchKind) -> Bool { a.rawValue < b.rawValue }
  }

  /// A fetch in progress, shared by the callers that joined it.
  private struct Fetch {
    /// Identifies the fetch among all of this engine's fetches.
    let token: UInt64
    let task: Task<FeedRange, any Error>
    let kind: FetchKind
    /// True while it waits before fetching (a reload started by a change).
    var waiting: Bool
    /// The records that changed while it ran: what it brings may predate them.
    var changed: [String] = []
  }

  /// One open feed.
  private final class Feed {
    /// Where its pages come from.
    let source: any FeedSource
    /// The same source when its list changes in place.
    let live: (any LiveFeedSource)?
    /// Items per fetch.
    let pageSize: Int
    let changes: FeedChangeMode
    /// The state last reported.
    var state = FeedState.idle
    /// Grows by one at each refresh that arrived.
    var generation = 0
    /// The items loaded in this generation.
    var list = FeedList()
    /// Where the next page starts; nil before the first page and at the end.
    var next: FeedPosition?
    /// True once the last page is loaded.
    var endReached = false
    /// The fetch in progress, if any.
    var fetch: Fetch?
    /// A reload to start when the running fetch ends (it may have missed changes).
    var reloadDue: FetchKind?

    init(source: any FeedSource, pageSize: Int, changes: FeedChangeMode) {
      self.source = source
      live = source as? any LiveFeedSource
      self.pageSize = pageSize
      self.changes = changes
    }

    /// Whether the feed shows or is getting anything that a change could touch.
    var isActive: Bool { list.isLoaded || fetch != nil }
  }

  /// Open feeds by id.
  private var feeds: [String: Feed] = [:]
  /// The number in the next feed id.
  private var nextFeedNumber = 1
  /// The token of the next fetch.
  private var nextToken: UInt64 = 1
  /// For each abandoned fetch, the fetch that replaced it (its callers get that one's outcome).
  private var successors: [UInt64: Task<FeedRange, any Error>] = [:]
  /// The newest state of recently changed records, by topic.
  private var latest: [String: LatestRecords] = [:]
  /// Open feeds at most; `open` fails beyond it.
  public nonisolated let maxOpenFeeds: Int
  /// Items kept per feed at most.
  public nonisolated let maxItemsPerFeed: Int
  /// How long a reload started by a change waits before it fetches.
  public nonisolated let changeRefreshDelay: Duration
  /// The feeds' items as sent so far, for `itemsNow`.
  private nonisolated let snapshots = FeedSnapshots()

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
  public func open(source: any FeedSource, pageSize: Int, changes: FeedChangeMode = .diff) throws
    -> String
  {
    guard pageSize >= 1 else {
      throw InvalidArgument(field: "pageSize", reason: "must be at least 1")
    }
    guard feeds.count < maxOpenFeeds else {
      throw InvalidArgument(
        field: "source", reason: "too many open feeds (\(maxOpenFeeds)): close one first")
    }
    let id = "feed-\(nextFeedNumber)"
    nextFeedNumber += 1
    feeds[id] = Feed(source: source, pageSize: pageSize, changes: changes)
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
      // After a failed refresh of an ended feed, the footer shows the end again.
      if feed.state != .ended { setState(feed, id, .ended, notify: notify) }
      let range = FeedRange(start: feed.list.count, end: feed.list.count, endReached: true)
      return Task { range }
    }
    setState(feed, id, .loading, notify: notify)
    return startFetch(feed, id, .append, notify: notify)
  }

  /// Reloads the loaded items and replaces them (a new generation); answers its range.
  /// - Throws: `NotFound` for an unknown feed; the source's error when the load fails.
  public func refresh(_ id: String, notify: @escaping Notify) async throws -> FeedRange {
    try await beginRefresh(id, notify: notify).value
  }

  /// Starts `refresh` and returns its fetch without waiting for it (see
  /// `beginLoadMore`).
  /// - Throws: `NotFound` for an unknown feed.
  public func beginRefresh(_ id: String, notify: @escaping Notify) throws -> Task<
    FeedRange, any Error
  > {
    let feed = try self.feed(id)
    return startReload(feed, id, .refresh, after: nil, notify: notify)
  }

  /// Items `start..<end` of the feed (`end` past the count is cut to it),
  /// also given to `deliver` before this returns: notifications the engine
  /// sends later cannot overtake what `deliver` sends.
  /// - Throws: `NotFound`; `InvalidArgument` when `start` is negative or above `end`.
  public func items(
    _ id: String, start: Int, end: Int, deliver: ([JSON]) -> Void = { _ in }
  ) throws -> [JSON] {
    let feed = try self.feed(id)
    guard start >= 0 else { throw InvalidArgument(field: "start", reason: "must be at least 0") }
    guard end >= start else {
      throw InvalidArgument(field: "end", reason: "must be at least start")
    }
    let count = feed.list.count
    let items = feed.list.items(in: min(start, count)..<min(end, count)).map(\.json)
    deliver(items)
    // Every notification of these items has been handed over by now.
    if !snapshots.contains(id) { snapshots.publish(id, feed.list.items) }
    return items
  }

  /// Feeds of at most this many items per change publish their snapshot as
  /// soon as the notifications of the changes went out; larger ones when
  /// `items` is next asked (a copy of every item per change would cost more
  /// than it saves, but one per batch of changes, as another daemon's poll
  /// brings them, is worth it: reads go on from the snapshot meanwhile).
  static let eagerSnapshotItems = 1_000

  /// Publishes the feed's items when the feed is small for the `changes`
  /// records that changed it; called once every notification of its items
  /// was handed over.
  private func publishIfSmall(_ feed: Feed, _ id: String, changes: Int = 1) {
    guard feed.list.count <= Self.eagerSnapshotItems * max(changes, 1), feeds[id] === feed
    else { return }
    snapshots.publish(id, feed.list.items)
  }

  /// `items`, answered on the calling thread from the items the feed's
  /// notifications so far have shown (`FeedSnapshots`), when the engine
  /// published them since they last changed: `deliver` gets them, as JSON
  /// text (`{"items":[…]}`), and this returns true. False when `items` must
  /// be asked (no snapshot, a range it refuses, an unknown feed).
  public nonisolated func itemsNow(
    _ id: String, start: Int, end: Int, deliver: (EncodedJSON) -> Void
  ) -> Bool {
    guard start >= 0, end >= start else { return false }
    return snapshots.read(id, start: start, end: end) { items in
      var output = Array(#"{"items":["#.utf8)
      output.reserveCapacity(16 + items.reduce(0) { $0 + $1.encoded.count + 1 })
      for (index, item) in items.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        output.append(contentsOf: item.encoded)
      }
      output.append(contentsOf: "]}".utf8)
      deliver(EncodedJSON(writtenBy: output))
    }
  }

  /// The feed's state, item count and generation.
  /// - Throws: `NotFound`.
  public func status(_ id: String) throws -> (state: FeedState, count: Int, generation: Int) {
    let feed = try self.feed(id)
    return (feed.state, feed.list.count, feed.generation)
  }

  /// Closes a feed; its running fetch is cancelled and its callers get `NotFound`.
  /// - Throws: `NotFound` for an unknown feed.
  public func close(_ id: String) throws {
    guard let feed = feeds.removeValue(forKey: id) else {
      throw NotFound(resource: "feed", id: id)
    }
    snapshots.invalidate(id)
    feed.fetch?.task.cancel()
  }

  /// Closes every feed (the session ended).
  public func closeAll() {
    for feed in feeds.values { feed.fetch?.task.cancel() }
    feeds.removeAll()
    snapshots.removeAll()
  }

  /// The ids of the open feeds.
  public var openFeedIds: [String] { feeds.keys.sorted() }

  // MARK: - Changes

  /// Applies what happened to a live source's records to every feed of its
  /// topic: steps are sent (or reloads started, with `refreshing`) when this
  /// returns, the steps of all feeds in runs through `notifyAll` when given.
  public func apply(
    _ event: FeedSourceEvent, notify: @escaping Notify, notifyAll: NotifyAll? = nil
  ) {
    switch event {
    case .resync(let topic):
      for (id, feed) in feeds where feed.live?.topic == topic && feed.isActive {
        reloadAfterChange(feed, id, notify: notify)
      }
    case .changed(let topic, let changes):
      // In place: a copy taken out of the dictionary and put back shares its
      // storage, so each change copied every kept record (up to 100,000).
      var fresh: [FeedRecordChange] = []
      for change in changes where latest[topic, default: LatestRecords()].keep(change) {
        fresh.append(change)
      }
      guard !fresh.isEmpty else { return }
      var run: [FeedEvent] = []
      var changed: [(id: String, feed: Feed)] = []
      defer {
        if let notifyAll {
          if !run.isEmpty { notifyAll(run) }
        } else {
          run.forEach(notify)
        }
        for (id, feed) in changed { publishIfSmall(feed, id, changes: fresh.count) }
      }
      for (id, feed) in feeds {
        guard let live = feed.live, live.topic == topic, feed.isActive else { continue }
        feed.fetch?.changed += fresh.map(\.id)
        guard feed.changes == .diff, live.appliesChanges else {
          reloadAfterChange(feed, id, notify: notify)
          continue
        }
        snapshots.invalidate(id)
        changed.append((id, feed))
        var steps: [FeedItemOp] = []
        for change in fresh {
          feed.list.apply(
            id: change.id, item: change.record.flatMap(live.item(for:)), limit: maxItemsPerFeed,
            into: &steps)
        }
        if !steps.isEmpty {
          run.append(
            .itemsChanged(
              feedId: id, generation: feed.generation, changes: steps, count: feed.list.count))
          if let notifyAll, run.count == Self.stepsPerWrite {
            notifyAll(run)
            run.removeAll(keepingCapacity: true)
          }
        }
      }
    }
  }

  /// Starts a reload of the feed's loaded items after a change, unless one
  /// waits to start (it will see the change): a refresh for a feed opened
  /// with `changes: reset`, else a resync. With a fetch running, the reload
  /// starts when it ends.
  private func reloadAfterChange(_ feed: Feed, _ id: String, notify: @escaping Notify) {
    let kind = feed.changes == .reset ? FetchKind.refresh : .resync
    if let fetch = feed.fetch {
      if fetch.waiting && fetch.kind >= kind { return }
      feed.reloadDue = max(feed.reloadDue ?? kind, kind)
      return
    }
    _ = startReload(feed, id, kind, after: changeRefreshDelay, notify: notify)
  }

  // MARK: - Fetching

  private func feed(_ id: String) throws -> Feed {
    guard let feed = feeds[id] else { throw NotFound(resource: "feed", id: id) }
    return feed
  }

  /// Abandons the running fetch and starts a reload, after `delay` if one is given.
  private func startReload(
    _ feed: Feed, _ id: String, _ kind: FetchKind, after delay: Duration?,
    notify: @escaping Notify
  ) -> Task<FeedRange, any Error> {
    let abandoned = feed.fetch
    abandoned?.task.cancel()
    feed.fetch = nil
    feed.reloadDue = nil
    setState(feed, id, .refreshing, notify: notify)
    let task = startFetch(feed, id, kind, after: delay, notify: notify)
    if let abandoned {
      successors[abandoned.token] = task
      // What it was told of changes, the reload must hear too.
      feed.fetch?.changed = abandoned.changed
    }
    return task
  }

  /// Starts fetching for the feed, after `delay` if one is given: its next
  /// page, or as many items as it holds (at least a page) for a reload.
  private func startFetch(
    _ feed: Feed, _ id: String, _ kind: FetchKind, after delay: Duration? = nil,
    notify: @escaping Notify
  ) -> Task<FeedRange, any Error> {
    let token = nextToken
    nextToken += 1
    let (source, pageSize) = (feed.source, feed.pageSize)
    let position = kind == .append ? feed.next : nil
    let target = min(max(feed.list.count, pageSize), maxItemsPerFeed)
    let task = Task<FeedRange, any Error> {
      let outcome: Result<FeedPage, any Error>
      do {
        if let delay {
          // Cancelled by a refresh or a close while waiting: abandoned, like a cancelled fetch.
          try await Task.sleep(for: delay)
          self.stopWaiting(id, token: token)
        }
        if kind == .append {
          outcome = .success(try await source.fetch(after: position, pageSize: pageSize))
        } else {
          outcome = .success(try await Self.reload(source, pageSize: pageSize, target: target))
        }
      } catch {
        outcome = .failure(error)
      }
      return try await self.complete(id, token: token, outcome, notify: notify)
    }
    feed.fetch = Fetch(token: token, task: task, kind: kind, waiting: delay != nil)
    return task
  }

  /// The first `target` items of the source (whole pages, so more when the
  /// last page is not full), as one page.
  private static func reload(_ source: any FeedSource, pageSize: Int, target: Int) async throws
    -> FeedPage
  {
    let size = source.reloadPageSize(pageSize: pageSize, target: target)
    var items: [FeedItem] = []
    var position: FeedPosition?
    repeat {
      let page = try await source.fetch(after: position, pageSize: size)
      items += page.items
      position = page.next
    } while position != nil && items.count < target
    return FeedPage(items: items, next: position)
  }

  /// A delayed fetch is about to read: a change from now on may come too late for it.
  private func stopWaiting(_ id: String, token: UInt64) {
    guard let feed = feeds[id], feed.fetch?.token == token else { return }
    feed.fetch?.waiting = false
  }

  /// Applies a fetch's outcome, unless a refresh or a close abandoned it.
  private func complete(
    _ id: String, token: UInt64, _ outcome: Result<FeedPage, any Error>,
    notify: @escaping Notify
  ) async throws -> FeedRange {
    let successor = successors.removeValue(forKey: token)
    guard let feed = feeds[id] else { throw NotFound(resource: "feed", id: id) }
    guard let fetch = feed.fetch, fetch.token == token else {
      // Abandoned: its page (or error) belongs to an older generation.
      guard let successor else { throw NotFound(resource: "feed", id: id) }
      return try await successor.value
    }
    feed.fetch = nil
    let page: FeedPage
    switch outcome {
    case .failure(let error):
      feed.reloadDue = nil
      setState(feed, id, .failed, error: error, notify: notify)
      throw error
    case .success(let arrived):
      page = arrived
    }
    snapshots.invalidate(id)
    var items = page.items
    var next = page.next
    let base = fetch.kind == .append ? feed.list.count : 0
    let cut = items.count >= maxItemsPerFeed - base
    if cut {
      // The item limit: the feed ends here.
      items = Array(items.prefix(maxItemsPerFeed - base))
      next = nil
    }
    var list = fetch.kind == .append ? feed.list : FeedList()
    list.append(items, complete: next == nil && !cut)
    if cut { list.closeAtLastItem() }
    feed.next = next
    feed.endReached = next == nil
    let range: FeedRange
    switch fetch.kind {
    case .append:
      feed.list = list
      notify(
        .pageLoaded(
          feedId: id, generation: feed.generation, start: base, end: list.count,
          items: items.map(\.json), endReached: feed.endReached, reset: false))
      let steps = bringUpToDate(feed, fetch.changed, in: &feed.list)
      if !steps.isEmpty {
        notify(
          .itemsChanged(
            feedId: id, generation: feed.generation, changes: steps, count: feed.list.count))
      }
      range = FeedRange(start: base, end: list.count, endReached: feed.endReached)
    case .refresh:
      _ = bringUpToDate(feed, fetch.changed, in: &list)
      feed.list = list
      feed.generation += 1
      notify(
        .pageLoaded(
          feedId: id, generation: feed.generation, start: 0, end: list.count,
          items: list.items.map(\.json), endReached: feed.endReached, reset: true))
      range = FeedRange(start: 0, end: list.count, endReached: feed.endReached)
    case .resync:
      _ = bringUpToDate(feed, fetch.changed, in: &list)
      let steps = feed.list.replace(with: list)
      if !steps.isEmpty {
        notify(
          .itemsChanged(
            feedId: id, generation: feed.generation, changes: steps, count: feed.list.count))
      }
      range = FeedRange(start: 0, end: list.count, endReached: feed.endReached)
    }
    setState(feed, id, feed.endReached ? .ended : .idle, notify: notify)
    publishIfSmall(feed, id)
    if let due = feed.reloadDue {
      _ = startReload(feed, id, due, after: nil, notify: notify)
    }
    return range
  }

  /// Puts the newest known state of each record in `changed` into `list`;
  /// returns the steps.
  private func bringUpToDate(_ feed: Feed, _ changed: [String], in list: inout FeedList)
    -> [FeedItemOp]
  {
    guard let live = feed.live, live.appliesChanges, !changed.isEmpty,
      let records = latest[live.topic]
    else { return [] }
    var steps: [FeedItemOp] = []
    var seen = Set<String>()
    for id in changed where seen.insert(id).inserted {
      guard let entry = records.latest(id) else { continue }
      list.apply(
        id: id, item: entry.record.flatMap(live.item(for:)), limit: maxItemsPerFeed, into: &steps)
    }
    return steps
  }

  private func setState(
    _ feed: Feed, _ id: String, _ state: FeedState, error: (any Error)? = nil, notify: Notify
  ) {
    feed.state = state
    notify(.stateChanged(feedId: id, state: state, count: feed.list.count, error: error))
  }
}
