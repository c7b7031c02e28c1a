import Protocol

/// One step of a `feeds/itemsChanged`: its index is in the list as it is
/// when the step is applied, after the steps before it.
///
/// Steps hold the feed's items themselves: a change that reaches many feeds
/// shares one item, and its JSON is written once for all of them.
public enum FeedItemOp: Sendable, Hashable {
  /// `items` inserted at `index`.
  case insert(index: Int, items: [FeedItem])
  /// `count` items removed from `index` on.
  case remove(index: Int, count: Int)
  /// The items from `index` on replaced by `items` (the same ids, new values).
  case update(index: Int, items: [FeedItem])

  /// `{op, index, items}` or `{op: "remove", index, count}`.
  public var json: JSON {
    switch self {
    case .insert(let index, let items):
      ["op": "insert", "index": JSON(index), "items": .array(items.map(\.json))]
    case .remove(let index, let count):
      ["op": "remove", "index": JSON(index), "count": JSON(count)]
    case .update(let index, let items):
      ["op": "update", "index": JSON(index), "items": .array(items.map(\.json))]
    }
  }

  /// Applies the step to `list` (for tests and for clients written in Swift).
  public func apply(to list: inout [JSON]) {
    switch self {
    case .insert(let index, let items): list.insert(contentsOf: items.map(\.json), at: index)
    case .remove(let index, let count): list.removeSubrange(index..<index + count)
    case .update(let index, let items):
      list.replaceSubrange(index..<index + items.count, with: items.map(\.json))
    }
  }
}
