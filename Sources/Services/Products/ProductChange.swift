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

extension AsyncStream<[ProductChange]>.Continuation {
  /// Yields a batch of changes. When the stream's buffer (which keeps the
  /// newest) was full and dropped an older batch, a resync follows, so the
  /// clients of a consumer that fell behind reload what they show instead of
  /// missing changes.
  func yieldOrResync(_ changes: [ProductChange]) {
    if case .dropped = yield(changes) {
      yield([ProductChange(reason: .resync, id: nil)])
    }
  }
}
