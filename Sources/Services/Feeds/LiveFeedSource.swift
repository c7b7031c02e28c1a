import Protocol

/// A source whose list changes while feeds show it (the products catalog, a
/// photos folder). Its feeds apply each change to their loaded items.
///
/// A class: a change visits every open feed of its topic, and a reference
/// is checked and passed around without copying the source's fields.
public protocol LiveFeedSource: FeedSource, AnyObject {
  /// The changes this source's feeds follow (every source of one topic
  /// lists the same records: "products", "photos").
  var topic: String { get }
  /// True when a change can be placed from its record alone (the record
  /// carries the sort key and the filtered fields); false when a change
  /// must reload the loaded items to see where it went.
  var appliesChanges: Bool { get }
  /// The item `record` is in this source's list; nil when it does not
  /// belong to it (another supplier, a name the query does not match).
  func item(for record: FeedRecord) -> FeedItem?
}
