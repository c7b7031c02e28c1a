import Protocol

/// `feeds/items {feedId, start, end}` → `{items}`: the loaded items
/// `start..<end` (an `end` past the count is cut to it). The reply comes
/// after exactly the feed's notifications that the items reflect: the feed
/// engine sends it itself, or the reader thread from the engine's snapshot.
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

  static let method = Method.task(contract, lane: FeedLane.byId, now: now) { params, context in
    let items = try await context.session.feeds.items(
      params[FeedLane.feedId], start: params[start], end: params[end]
    ) {
      context.reply(["items": .array($0)])
    }
    return ["items": .array(items)]
  }

  /// The items from the feed's snapshot on the reader thread, when the
  /// engine has published it and nothing on the feed's lane waits (see
  /// `FeedEngine.itemsNow`); the reply is handed over before the
  /// notifications of any later change.
  private static func now(
    _ params: Params, _ context: RequestContext, _ answer: (Reply) -> Void
  ) -> Bool {
    context.session.feeds.itemsNow(
      params[FeedLane.feedId], start: params[start], end: params[end]
    ) {
      answer(.encodedResult($0))
    }
  }
}
