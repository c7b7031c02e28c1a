import Protocol
import Services

/// `feeds/pageLoaded {feedId, generation, start, end, items, endReached, reset}`,
/// `feeds/itemsChanged {feedId, generation, changes, count}` and
/// `feeds/stateChanged {feedId, state, count, error?}`, where `error` is
/// the failed load's wire error object `{code, message, data?}`.
enum FeedNotifications {
  static let pageLoaded = "feeds/pageLoaded"
  static let itemsChanged = "feeds/itemsChanged"
  static let stateChanged = "feeds/stateChanged"

  /// The engine's events as notifications through `notify`; `method` names
  /// the request for the log line of a mapped error.
  static func sender(_ notify: @escaping @Sendable (String, JSON?) -> Void, method: String)
    -> FeedEngine.Notify
  {
    { event in
      let (name, params) = notification(event, method: method)
      notify(name, params)
    }
  }

  /// Runs of the engine's events as runs of notifications through `notifyAll`.
  static func runSender(
    _ notifyAll: @escaping @Sendable ([(method: String, params: JSON?)]) -> Void, method: String
  ) -> FeedEngine.NotifyAll {
    { events in notifyAll(events.map { notification($0, method: method) }) }
  }

  /// The notification of one of the engine's events.
  private static func notification(_ event: FeedEvent, method: String) -> (
    method: String, params: JSON?
  ) {
    switch event {
    case .pageLoaded(
      let feedId, let generation, let start, let end, let items, let endReached,
      let reset):
      return (
        pageLoaded,
        [
          "feedId": JSON(feedId), "generation": JSON(generation), "start": JSON(start),
          "end": JSON(end), "items": .array(items), "endReached": JSON(endReached),
          "reset": JSON(reset),
        ]
      )
    case .itemsChanged(let feedId, let generation, let changes, let count):
      return (
        itemsChanged,
        [
          "feedId": JSON(feedId), "generation": JSON(generation),
          "changes": .array(changes.map(\.json)), "count": JSON(count),
        ]
      )
    case .stateChanged(let feedId, let state, let count, let error):
      var params: JSONObject = [
        "feedId": JSON(feedId), "state": JSON(state.rawValue), "count": JSON(count),
      ]
      if let error { params["error"] = wireError(error, method: method).json }
      return (stateChanged, .object(params))
    }
  }

  /// Brings the products feeds up to date after a product changed (here or
  /// in another daemon): their `feeds/itemsChanged` (or, for reloads,
  /// `feeds/stateChanged {state: "refreshing"}`) are sent when this returns.
  static func productsChanged(
    _ change: ProductChange, _ services: ServiceHub,
    notify: @escaping @Sendable (String, JSON?) -> Void,
    notifyAll: @escaping @Sendable ([(method: String, params: JSON?)]) -> Void
  ) async {
    let method = ProductNotifications.listUpdated
    await services.feeds.apply(
      FeedSourceEvent(change), notify: sender(notify, method: method),
      notifyAll: runSender(notifyAll, method: method))
  }
}

/// Every request on one feed names it; the key of its lane, should it get one.
enum FeedLane {
  @Sendable static func byId(_ params: JSON?) -> String? {
    params?["feedId"]?.stringValue.map { "feed:" + $0 }
  }
}
