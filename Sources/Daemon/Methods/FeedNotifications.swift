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
  static func sender(
    _ notify: @escaping @Sendable (String, JSON?) -> Void, method: String, locale: MessageLocale
  ) -> FeedEngine.Notify {
    { event in
      let (name, params) = notification(event, method: method, locale: locale)
      notify(name, params)
    }
  }

  /// Runs of the engine's events as runs of notifications through `notifyAll`.
  /// A run is one change reaching many feeds, each with the same item: each
  /// item is written as JSON once for the run, not once per feed.
  static func runSender(
    _ notifyAll: @escaping @Sendable (MessageRun) -> Void, method: String, locale: MessageLocale
  ) -> FeedEngine.NotifyAll {
    { events in
      var written = ItemTexts()
      var run = MessageRun(reservingCapacity: events.count * 512)
      for event in events {
        run.append { body in
          if case .itemsChanged(let feedId, let generation, let changes, let count) = event {
            writeItemsChanged(feedId, generation, changes, count, &written, into: &body)
          } else {
            let (name, params) = notification(event, method: method, locale: locale)
            OutgoingMessage.notification(method: name, params: params, into: &body)
          }
        }
      }
      notifyAll(run)
    }
  }

  /// Items written as JSON in one run, by identity: the run's events hold
  /// the items, so an identifier is not reused while it is known here.
  private struct ItemTexts {
    private var texts: [ObjectIdentifier: [UInt8]] = [:]

    mutating func write(_ item: FeedItem, into output: inout [UInt8]) {
      if let text = texts[ObjectIdentifier(item)] {
        output += text
        return
      }
      var text: [UInt8] = []
      JSONWriter.write(item.json, into: &text)
      texts[ObjectIdentifier(item)] = text
      output += text
    }
  }

  /// `feeds/itemsChanged` as `notification` writes it, its items from `written`.
  private static func writeItemsChanged(
    _ feedId: String, _ generation: Int, _ changes: [FeedItemOp], _ count: Int,
    _ written: inout ItemTexts, into body: inout [UInt8]
  ) {
    JSONWriter.writeLiteral(
      #"{"jsonrpc":"2.0","method":"feeds/itemsChanged","params":{"feedId":"#, into: &body)
    JSONWriter.writeString(feedId, into: &body)
    JSONWriter.writeLiteral(#","generation":"#, into: &body)
    JSONWriter.writeInteger(generation, into: &body)
    JSONWriter.writeLiteral(#","changes":["#, into: &body)
    for (position, change) in changes.enumerated() {
      if position > 0 { body.append(UInt8(ascii: ",")) }
      switch change {
      case .remove(let index, let count):
        JSONWriter.writeLiteral(#"{"op":"remove","index":"#, into: &body)
        JSONWriter.writeInteger(index, into: &body)
        JSONWriter.writeLiteral(#","count":"#, into: &body)
        JSONWriter.writeInteger(count, into: &body)
        body.append(UInt8(ascii: "}"))
      case .insert(let index, let items), .update(let index, let items):
        if case .insert = change {
          JSONWriter.writeLiteral(#"{"op":"insert","index":"#, into: &body)
        } else {
          JSONWriter.writeLiteral(#"{"op":"update","index":"#, into: &body)
        }
        JSONWriter.writeInteger(index, into: &body)
        JSONWriter.writeLiteral(#","items":["#, into: &body)
        for (offset, item) in items.enumerated() {
          if offset > 0 { body.append(UInt8(ascii: ",")) }
          written.write(item, into: &body)
        }
        JSONWriter.writeLiteral("]}", into: &body)
      }
    }
    JSONWriter.writeLiteral(#"],"count":"#, into: &body)
    JSONWriter.writeInteger(count, into: &body)
    JSONWriter.writeLiteral("}}", into: &body)
  }

  /// The notification of one of the engine's events.
  private static func notification(
    _ event: FeedEvent, method: String, locale: MessageLocale
  ) -> (
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
      if let error { params["error"] = wireError(error, method: method).json(in: locale) }
      return (stateChanged, .object(params))
    }
  }

  /// Brings a session's products feeds up to date after products changed
  /// (in this session, another, or another daemon): their `feeds/itemsChanged`,
  /// one per feed for all of `changes` (or, for reloads, `feeds/stateChanged
  /// {state: "refreshing"}`), are sent when this returns.
  static func productsChanged(_ changes: [ProductChange], _ session: Session) async {
    for event in FeedSourceEvent.events(changes) {
      await sourceChanged(event, session, method: ProductNotifications.listUpdated)
    }
  }

  /// Brings a session's feeds of a live source up to date after `event`;
  /// `method` names what caused it in the log line of a reload's mapped error.
  static func sourceChanged(_ event: FeedSourceEvent, _ session: Session, method: String) async {
    let locale = session.locale
    await session.feeds.apply(
      event, notify: sender(session.notify, method: method, locale: locale),
      notifyAll: runSender(session.notifyAll, method: method, locale: locale))
  }
}
