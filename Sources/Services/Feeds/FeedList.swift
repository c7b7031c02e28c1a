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

  private(set) var items: [FeedItem] = []
  /// The items' keys, side by side: a binary search reads them without
  /// visiting each item (an object of its own, a cache miss each).
  private var keys: [FeedSortKey?] = []
  private(set) var window = Window.unloaded
  /// The ids of `items`: most changes are of items a feed does not hold.
  private var ids: Set<String> = []

  var count: Int { items.count }
  var isLoaded: Bool { window != .unloaded }

  /// Appends a page; `complete` when it is the list's last.
  mutating func append(_ page: [FeedItem], complete: Bool) {
    items += page
    keys += page.map(\.key)
    for item in page { ids.insert(item.id) }
    if complete {
      window = .all
    } else if let key = page.last?.key ?? items.last?.key {
      window = .through(key)
    } else if window == .unloaded {
      // A source without keys: loaded, but changes are never placed in it.
      window = .all
    }
  }

  /// Ends the window at the last item: a feed cut at its item limit does
  /// not take items beyond it.
  mutating func closeAtLastItem() {
    if let key = items.last?.key { window = .through(key) }
  }

  /// Puts the record `id` where `item` says (removing it when `item` is nil
  /// or falls beyond the window); returns the steps that did it. At most
  /// `limit` items stay: the last ones go and the window ends before them.
  mutating func apply(id: String, item: FeedItem?, limit: Int) -> [FeedItemOp] {
    guard isLoaded else { return [] }
    let placed = item.flatMap { item in contains(item.key) ? item : nil }
    let oldIndex = ids.contains(id) ? items.firstIndex { $0.id == id } : nil
    switch (oldIndex, placed) {
    case (nil, nil):
      return []
    case (let index?, nil):
      items.remove(at: index)
      keys.remove(at: index)
      ids.remove(id)
      return [.remove(index: index, count: 1)]
    case (nil, let item?):
      let index = insertionIndex(item.key)
      items.insert(item, at: index)
      keys.insert(item.key, at: index)
      ids.insert(id)
      return [.insert(index: index, items: [item.json])] + trim(to: limit)
    case (let old?, let item?):
      let previous = items.remove(at: old)
      keys.remove(at: old)
      let index = insertionIndex(item.key)
      items.insert(item, at: index)
      keys.insert(item.key, at: index)
      if index == old {
        return previous.json == item.json ? [] : [.update(index: index, items: [item.json])]
      }
      return [.remove(index: old, count: 1), .insert(index: index, items: [item.json])]
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

  /// Where an item with `key` goes: after every item that sorts before it.
  private func insertionIndex(_ key: FeedSortKey?) -> Int {
    guard let key else { return items.count }
    var (low, high) = (0, items.count)
    while low < high {
      let middle = (low + high) / 2
      if let other = keys[middle], other < key { low = middle + 1 } else { high = middle }
    }
    return low
  }

  private mutating func trim(to limit: Int) -> [FeedItemOp] {
    guard items.count > limit else { return [] }
    let excess = items.count - limit
    for item in items.suffix(excess) { ids.remove(item.id) }
    items.removeLast(excess)
    keys.removeLast(excess)
    closeAtLastItem()
    return [.remove(index: limit, count: excess)]
  }
}
