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
      for session in sessions.initialized { send(change, session.notify) }
    }
  }

  /// A change made here reaches every session's products feeds, then (for
  /// changes made elsewhere, which no request announced) their notifications:
  /// a client told of a change finds it in its feeds.
  static func broadcast(
    _ change: ProductChange, to sessions: SessionRegistry, announced: Bool = false
  ) async {
    for session in sessions.initialized {
      await FeedNotifications.productsChanged(change, session)
      if !announced { send(change, session.notify) }
    }
  }

  static func send(_ change: ProductChange, _ notify: @Sendable (String, JSON?) -> Void) {
    var params: JSONObject = ["reason": JSON(change.reason.rawValue)]
    if let id = change.id { params["id"] = JSON(id) }
    notify(listUpdated, .object(params))
    if change.reason == .updated, let product = change.product {
      notify(changed, ["product": product.json])
    }
  }
}
