import Protocol

/// Mutations of one product share a lane, so they apply in arrival order.
enum ProductLane {
  @Sendable static func byId(_ params: JSON?) -> String? {
    params?["id"]?.stringValue.map { "product:" + $0 }
  }
}
