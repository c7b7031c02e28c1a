import Protocol
import Services

/// `feeds/items {feedId, start, end}` → `{items}`: the loaded items
/// `start..<end` (an `end` past the count is cut to it). The reply is sent
/// by the feed engine itself, so that it comes after exactly the feed's
/// notifications that the items reflect.
enum FeedsItems {
  static let method = Method.task("feeds/items", lane: FeedLane.byId) { params, context in
    let params = try Params(params)
    let feedId = try params.requiredString("feedId", maxLength: 100)
    let start = try params.requiredInt("start", in: 0...Int(Int32.max))
    let end = try params.requiredInt("end", in: 0...Int(Int32.max))
    let items = try await context.daemon.services.feeds.items(feedId, start: start, end: end) {
      context.reply(["items": .array($0)])
    }
    return ["items": .array(items)]
  }
}
