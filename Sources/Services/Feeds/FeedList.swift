/// What a feed holds of its source's list: the loaded items, in the list's
/// order, and how far into the list they reach (the window).
///
/// For a live source the window is every item of the list up to the key of
/// the last item the last page brought (all of them once the list's end is
/// loaded), so a change is placed in the window when its key falls in it and
/// only changes the totals when it falls beyond: the next page, which starts
/// after that key, brings it then. Nothing loaded is fetched again.
struct FeedList {
  /// How far the loaded items reach into the source's list.
  enum Window: Hashable {
    /// No page has arrived: changes have nothing to apply to.
    case unloaded
    /// Every item whose key is at most this one.
    case through(FeedSortKey)
    /// Every item (the list's end is loaded).
    case all
  }

  /// The items with their keys beside them: a binary search reads the keys
  /// without visiting each item (an object of its own, a cache miss each).
  private var entries = RingBuffer<Entry>()
  private(set) var window = Window.unloaded
  /// The ids of `items`: most changes are of items a feed does not hold.
  private var ids: Set<String> = []

  private struct Entry {
    let item: FeedItem
    let key: FeedSortKey?

    init(_ item: FeedItem) {
      self.item = item
      key = item.key
    }
  }

  /// The loaded items, in the list's order.
  var items: [FeedItem] { entries.map(\.item) }

  /// The loaded items in `range`.
  func items(in range: Range<Int>) -> [FeedItem] { entries[range].map(\.item) }
  var count: Int { entries.count }
  var isLoaded: Bool { window != .unloaded }

  /// Appends a page; `complete` when it is the list's last.
  mutating func append(_ page: [FeedItem], complete: Bool) {
    entries.append(contentsOf: page.lazy.map(Entry.init))
    for item in page { ids.insert(item.id) }
    if complete {
      window = .all
    } else if let key = page.last?.key ?? entries.last?.key {
      window = .through(key)
    } else if window == .unloaded {
      // A source without keys: loaded, but changes are never placed in it.
      window = .all
    }
  }

  /// Ends the window at the last item: a feed cut at its item limit does
  /// not take items beyond it.
  mutating func closeAtLastItem() {
    if let key = entries.last?.key { window = .through(key) }
  }

  /// Puts the record `id` where `item` says (removing it when `item` is nil
  /// or falls beyond the window); appends the steps that did it to `steps`.
  /// At most `limit` items stay: the last ones go and the window ends before them.
  ///
  /// One operation on `ids` per change, whose answer says whether the feed
  /// held the record: a change visits every open feed, and this is most of
  /// what it touches in a feed that did not.
  mutating func apply(id: String, item: FeedItem?, limit: Int, into steps: inout [FeedItemOp]) {
    guard isLoaded else { return }
    guard let item, contains(item.key) else {
      guard ids.remove(id) != nil, let index = entries.firstIndex(where: { $0.item.id == id })
      else { return }
      entries.remove(at: index)
      steps.append(.remove(index: index, count: 1))
      return
    }
    guard !ids.insert(id).inserted else {
      let index = insertionIndex(item.key)
      entries.insert(Entry(item), at: index)
      steps.append(.insert(index: index, items: [item]))
      trim(to: limit, into: &steps)
      return
    }
    guard let old = entries.firstIndex(where: { $0.item.id == id }) else { return }
    let previous = entries.remove(at: old).item
    let index = insertionIndex(item.key)
    entries.insert(Entry(item), at: index)
    if index != old {
      steps += [.remove(index: old, count: 1), .insert(index: index, items: [item])]
    } else if previous.json != item.json {
      steps.append(.update(index: index, items: [item]))
    }
  }

  /// Replaces the items with `reloaded` (the window as far as it reaches);
  /// returns the steps that turn the old items into the new ones.
  mutating func replace(with reloaded: FeedList) -> [FeedItemOp] {
    let steps = FeedDiff.steps(from: items, to: reloaded.items)
    self = reloaded
    return steps
  }

  /// Whether an item with `key` belongs in the window.
  private func contains(_ key: FeedSortKey?) -> Bool {
    switch window {
    case .unloaded: false
    case .all: true
    case .through(let last): key.map { $0 <= last } ?? false
    }
  }

  /// The key of the item at `index`, read without touching the item.
  private func keyOf(_ index: Int) -> FeedSortKey? { entries.read(index) { $0.key } }

  /// Where an item with `key` goes: after every item that sorts before it.
  /// The ends are tried first: a new item mostly goes first (newest first) or last.
  private func insertionIndex(_ key: FeedSortKey?) -> Int {
    guard let key, count > 0 else { return count }
    if let first = keyOf(0), key < first { return 0 }
    if let last = keyOf(count - 1), last < key { return count }
    var (low, high) = (0, count)
    while low < high {
      let middle = (low + high) / 2
      if let other = keyOf(middle), other < key { low = middle + 1 } else { high = middle }
    }
    return low
  }

  private mutating func trim(to limit: Int, into steps: inout [FeedItemOp]) {
    guard count > limit else { return }
    let excess = count - limit
    for entry in entries.suffix(excess) { ids.remove(entry.item.id) }
    entries.removeLast(excess)
    closeAtLastItem()
    steps.append(.remove(index: limit, count: excess))
  }
}
