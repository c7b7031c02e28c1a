/// A change of the catalog, the cause of a `products/listUpdated` notification.
public struct ProductChange: Sendable, Hashable {
  public enum Reason: String, Sendable {
    case created, updated, deleted
    /// Changes were made elsewhere and their details are unknown, or may have
    /// been missed: reload what you show.
    case resync
  }

  public let reason: Reason
  /// The product's id; `nil` for `resync`.
  public let id: String?
  /// The product after a create or an update (as read back, for other
  /// daemons' changes): for `products/changed` and for live feeds.
  public let product: Product?

  public init(reason: Reason, id: String?, product: Product? = nil) {
    self.reason = reason
    self.id = id
    self.product = product
  }
}
