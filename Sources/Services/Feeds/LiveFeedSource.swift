import Protocol

/// A record a live source lists, as a change carries it.
public enum FeedRecord: Sendable {
  case product(ProductRecord)
  case photo(Photo, relativePath: String)
}

/// A record of a live source created, changed or removed.
public struct FeedRecordChange: Sendable {
  /// The record's id (the `id` of its item).
  public let id: String
  /// Grows with each change of the record, when the source counts them: a
  /// change older than one already applied is ignored. `Int.max` for a
  /// removal that is final (product ids are never reused).
  public let version: Int?
  /// The record as it is now; nil when it was removed.
  public let record: FeedRecord?

  public init(id: String, version: Int?, record: FeedRecord?) {
    self.id = id
    self.version = version
    self.record = record
  }
}

/// What happened to a live source's records.
public enum FeedSourceEvent: Sendable {
  /// These records changed, in this order.
  case changed(topic: String, [FeedRecordChange])
  /// Changes may have been missed: reload what is loaded and send the difference.
  case resync(topic: String)
}

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
