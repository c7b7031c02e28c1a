/// The newest state of each recently changed record of a live source, so
/// that a change that arrives late (read before a newer one was applied) is
/// not applied over it, and a page fetched while changes arrived can be
/// brought up to date.
///
/// Races between the writers of a catalog last milliseconds, so only recent
/// records are kept: two generations of `capacity` entries each.
struct LatestRecords {
  struct Entry {
    let version: Int?
    let record: FeedRecord?
  }

  private let capacity: Int
  private var current: [String: Entry] = [:]
  private var previous: [String: Entry] = [:]

  init(capacity: Int = 50_000) {
    self.capacity = max(1, capacity)
  }

  /// Keeps `change` unless a newer version of its record is known; returns
  /// whether it was kept (and is to be applied).
  mutating func keep(_ change: FeedRecordChange) -> Bool {
    if let known = latest(change.id)?.version, let version = change.version, version < known {
      return false
    }
    if current.count >= capacity {
      previous = current
      current.removeAll(keepingCapacity: true)
    }
    current[change.id] = Entry(version: change.version, record: change.record)
    return true
  }

  /// The newest state known of record `id`.
  func latest(_ id: String) -> Entry? {
    current[id] ?? previous[id]
  }
}
