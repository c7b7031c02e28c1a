import Protocol

/// `feeds/items {feedId, start, end}` → `{items}`: the loaded items
/// `start..<end` (an `end` past the count is cut to it). The reply is sent
/// by the feed engine itself, so that it comes after exactly the feed's
/// notifications that the items reflect.
enum FeedsItems {
  static let start: Param<Int> = .requiredInteger("start", 0...Int(Int32.max), "first index")
  static let end: Param<Int> = .requiredInteger("end", 0...Int(Int32.max), "index after the last")

  static let contract = MethodContract(
    "feeds/items",
    "The loaded items start..<end (an end past the count is cut to it). end below "
      + "start: -32602.",
    params: [FeedLane.feedId, start, end],
    result: MethodResult(
      "FeedItems", .object([Member("items", FeedSchemas.items, required: true)])))

  static let method = Method.task(contract, lane: FeedLane.byId) { params, context in
    let items = try await context.session.feeds.items(
      params[FeedLane.feedId], start: params[start], end: params[end]
    ) {
      context.reply(["items": .array($0)])
    }
    return ["items": .array(items)]
  }
}
