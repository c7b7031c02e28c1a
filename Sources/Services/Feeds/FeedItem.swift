import Protocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One item of a feed: its wire value, the id it is known by, and, for a
/// live source, where it sorts in the source's list.
///
/// A class: a feed's list moves references when a change lands in its
/// middle, and a change reaching many feeds shares one item among them.
public final class FeedItem: Sendable, Hashable {
  /// The item's `id` member (what diffs match items by).
  public let id: String
  /// Where the item sorts; nil for sources whose lists do not change in place.
  public let key: FeedSortKey?
  /// The item as the source's list method returns it.
  public let json: JSON
  /// `json`'s text, written once when the item is made: `feeds/items`
  /// answered from a snapshot copies it instead of writing the tree each time.
  public let encoded: [UInt8]

  public init(id: String, key: FeedSortKey?, json: JSON) {
    self.id = id
    self.key = key
    self.json = json
    encoded = json.serialized()
  }

  /// An item of a source that does not change in place, known by its `id` member.
  public convenience init(json: JSON) {
    self.init(id: json["id"]?.stringValue ?? "", key: nil, json: json)
  }

  public static func == (a: FeedItem, b: FeedItem) -> Bool {
    a === b || (a.id == b.id && a.key == b.key && a.json == b.json)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(key)
    hasher.combine(json)
  }
}
