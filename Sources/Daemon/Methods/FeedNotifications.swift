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
  /// A run is one change reaching many feeds, each with the same item: each
  /// item is written as JSON once for the run, not once per feed.
  static func runSender(_ notifyAll: @escaping @Sendable ([[UInt8]]) -> Void, method: String)
    -> FeedEngine.NotifyAll
  {
    { events in
      var written = ItemTexts()
      notifyAll(
        events.map { event in
          if case .itemsChanged(let feedId, let generation, let changes, let count) = event {
            return itemsChangedBody(feedId, generation, changes, count, &written)
          }
          let (name, params) = notification(event, method: method)
          return OutgoingMessage.notification(method: name, params: params)
        })
    }
  }

  /// Items written as JSON in one run, by id (with the value, should two differ).
  private struct ItemTexts {
    private var texts: [String: (item: JSON, text: [UInt8])] = [:]

    mutating func write(_ item: JSON, into output: inout [UInt8]) {
      guard let id = item["id"]?.stringValue else { return JSONWriter.write(item, into: &output) }
      if let known = texts[id], known.item == item {
        output += known.text
        return
      }
      var text: [UInt8] = []
      JSONWriter.write(item, into: &text)
      texts[id] = (item, text)
      output += text
    }
  }

  /// `feeds/itemsChanged` as `notification` writes it, its items from `written`.
  private static func itemsChangedBody(
    _ feedId: String, _ generation: Int, _ changes: [FeedItemOp], _ count: Int,
    _ written: inout ItemTexts
  ) -> [UInt8] {
    var body = Array(#"{"jsonrpc":"2.0","method":"feeds/itemsChanged","params":{"feedId":"#.utf8)
    JSONWriter.writeString(feedId, into: &body)
    body += #","generation":\#(generation),"changes":["#.utf8
    for (position, change) in changes.enumerated() {
      if position > 0 { body.append(UInt8(ascii: ",")) }
      switch change {
      case .remove(let index, let count):
        body += #"{"op":"remove","index":\#(index),"count":\#(count)}"#.utf8
      case .insert(let index, let items), .update(let index, let items):
        let op = if case .insert = change { "insert" } else { "update" }
        body += #"{"op":"\#(op)","index":\#(index),"items":["#.utf8
        for (offset, item) in items.enumerated() {
          if offset > 0 { body.append(UInt8(ascii: ",")) }
          written.write(item, into: &body)
        }
        body += "]}".utf8
      }
    }
    body += #"],"count":\#(count)}}"#.utf8
    return body
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
    notifyAll: @escaping @Sendable ([[UInt8]]) -> Void
  ) async {
    await sourceChanged(
      FeedSourceEvent(change), services.feeds, notify: notify, notifyAll: notifyAll,
      method: ProductNotifications.listUpdated)
  }

  /// Brings the feeds of a live source up to date after `event`; `method`
  /// names what caused it in the log line of a reload's mapped error.
  static func sourceChanged(
    _ event: FeedSourceEvent, _ feeds: FeedEngine,
    notify: @escaping @Sendable (String, JSON?) -> Void,
    notifyAll: @escaping @Sendable ([[UInt8]]) -> Void, method: String
  ) async {
    await feeds.apply(
      event, notify: sender(notify, method: method),
      notifyAll: runSender(notifyAll, method: method))
  }
}

/// Every request on one feed names it; the key of its lane, should it get one.
enum FeedLane {
  @Sendable static func byId(_ params: JSON?) -> String? {
    params?["feedId"]?.stringValue.map { "feed:" + $0 }
  }
}
