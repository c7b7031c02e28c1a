import Protocol
import Services

/// `products/listUpdated {reason, id?}` after every change ("refresh the
/// list") and `products/changed {product}` after an update ("refresh the detail").
enum ProductNotifications {
  static let listUpdated = "products/listUpdated"
  static let changed = "products/changed"

  static func sender(_ notify: @escaping @Sendable (String, JSON?) -> Void)
    -> @Sendable (ProductChange) -> Void
  {
    { change in send(change, notify) }
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
