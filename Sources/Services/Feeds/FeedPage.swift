/// One page a source returned.
public struct FeedPage: Sendable, Hashable {
  /// The page's items.
  public let items: [FeedItem]
  /// Where the page after this one starts; nil when this page is the last.
  public let next: FeedPosition?

  public init(items: [FeedItem], next: FeedPosition?) {
    self.items = items
    self.next = next
  }
}
