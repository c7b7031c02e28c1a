/// The match counts of recent searches, each kept with what its catalog needs
/// to bring it up to date (`Entry`). Paging through a search asks for the same
/// count at every page, and counting a broad search costs far more than its page.
struct SearchCounts<Entry> {
  /// The most entries kept; beyond, the cache starts over.
  static var capacity: Int { 256 }

  private var entries: [SearchKey: Entry] = [:]

  func latest(_ key: SearchKey) -> Entry? { entries[key] }

  mutating func store(_ entry: Entry, for key: SearchKey) {
    if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
    entries[key] = entry
  }
}
