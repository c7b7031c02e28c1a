import Protocol

/// Every request on one feed names it; the key of its lane, should it get one.
enum FeedLane {
  static let feedId: Param<String> = .requiredString("feedId", maxLength: 100, "from feeds/open")

  @Sendable static func byId(_ params: JSON?) -> String? {
    params?["feedId"]?.stringValue.map { "feed:" + $0 }
  }
}
