import Protocol

/// Requests on one product name it; mutations of one product share a lane,
/// so they apply in arrival order.
enum ProductLane {
  static let id: Param<String> = .requiredString("id", maxLength: 100, "the product's id")

  @Sendable static func byId(_ params: JSON?) -> String? {
    params?["id"]?.stringValue.map { "product:" + $0 }
  }
}
