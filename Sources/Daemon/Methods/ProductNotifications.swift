import Protocol
import Services

/// `products/listUpdated {reason, id?}` after every change ("refresh the
/// list") and `products/changed {product}` after an update ("refresh the detail").
enum ProductNotifications {
  static let listUpdated = "products/listUpdated"
  static let changed = "products/changed"

  /// Tells every initialized session of a change: their `products/listUpdated`
  /// (and `products/changed`) at once, before the reply of the request that
  /// made it, for the backend calls this before it returns.
  static func sender(to sessions: SessionRegistry) -> @Sendable (ProductChange) -> Void {
    { change in
      for session in sessions.initialized {
        for (method, params) in messages(change) { session.notify(method, params) }
      }
    }
  }

  /// A change made here reaches every session's products feeds, then (for
  /// changes made elsewhere, which no request announced) their notifications:
  /// a client told of a change finds it in its feeds.
  static func broadcast(
    _ change: ProductChange, to sessions: SessionRegistry, announced: Bool = false
  ) async {
    await broadcast([change], to: sessions, announced: announced)
  }

  /// Changes noticed together (one poll of another daemon's) reach each
  /// session's products feeds at once, as one `feeds/itemsChanged` per feed,
  /// then (unless announced) their notifications, each change's as one
  /// alone would have sent them, in one write.
  static func broadcast(
    _ changes: [ProductChange], to sessions: SessionRegistry, announced: Bool = false
  ) async {
    guard !changes.isEmpty else { return }
    var run = MessageRun()
    if !announced {
      // Written once, for every session: the bytes do not depend on the client.
      run = MessageRun(reservingCapacity: changes.count * 80)
      for change in changes {
        for (method, params) in messages(change) {
          run.append { OutgoingMessage.notification(method: method, params: params, into: &$0) }
        }
      }
    }
    for session in sessions.initialized {
      await FeedNotifications.productsChanged(changes, session)
      if !run.isEmpty { session.notifyAll(run) }
    }
  }

  /// The notifications of one change, in order.
  private static func messages(_ change: ProductChange) -> [(method: String, params: JSON?)] {
    var params: JSONObject = ["reason": JSON(change.reason.rawValue)]
    if let id = change.id { params["id"] = JSON(id) }
    var messages: [(method: String, params: JSON?)] = [(listUpdated, .object(params))]
    if change.reason == .updated, let product = change.product {
      messages.append((changed, ["product": product.json]))
    }
    return messages
  }
}
