import Protocol
import Synchronization

/// The JSON objects of the place rows searches have written lately, by row
/// key, with their distance left out: a row met again is copied from here
/// instead of being read from SQLite and written as JSON anew, which took
/// more than half of a 1 km search (figures in Benchmarks/README.md).
///
/// One cache belongs to one built index (`PlaceStore.LoadedIndex`) and goes
/// with it: a file changed by another process shows in the rows no later
/// than in the index, when the next check of the file's version rebuilds
/// both (`PlaceStore.recheckInterval`). Until then a search answers as of
/// the index it searched, rows included.
///
/// Bounded by `budgetBytes`, in two generations: rows are added to the
/// current one, and once it holds half the budget it becomes the previous
/// one, replacing the one before. A row found only in the previous
/// generation moves back to the current one, so the rows of the areas a map
/// keeps showing stay, and the others leave within two generations.
final class PlaceRowCache: Sendable {
  /// A row's JSON object without its distance: the distance's value goes at
  /// `distanceAt`, right after `"distance":`.
  struct Entry: Sendable {
    let text: [UInt8]
    let distanceAt: Int

    /// The object with `distance` (or null) written where it goes.
    func write(distance: Int?, into output: inout [UInt8]) {
      output.append(contentsOf: text[..<distanceAt])
      if let distance {
        JSONWriter.writeInteger(distance, into: &output)
      } else {
        output.append(contentsOf: "null".utf8)
      }
      output.append(contentsOf: text[distanceAt...])
    }
  }

  /// The default budget: about 30,000 rows of the demo places.
  static let defaultBudgetBytes = 16 << 20
  /// What an entry is counted as beyond its text's storage: the
  /// dictionary's slot and the array's header.
  static let entryOverheadBytes = 64

  let budgetBytes: Int

  private struct Generations {
    var current: [Int64: Entry] = [:]
    var currentBytes = 0
    var previous: [Int64: Entry] = [:]
  }

  private let generations = Mutex(Generations())

  init(budgetBytes: Int = PlaceRowCache.defaultBudgetBytes) {
    self.budgetBytes = budgetBytes
  }

  /// The entry of each key, nil for a key not cached.
  func entries(_ keys: [Int64]) -> [Entry?] {
    generations.withLock { stored in
      keys.map { key in
        if let entry = stored.current[key] { return entry }
        guard let entry = stored.previous.removeValue(forKey: key) else { return nil }
        add(key, entry, to: &stored)
        return entry
      }
    }
  }

  /// Caches `entries` by key.
  func insert(_ entries: [Int64: Entry]) {
    generations.withLock { stored in
      for (key, entry) in entries { add(key, entry, to: &stored) }
    }
  }

  /// Rows and bytes held now, for tests.
  var held: (rows: Int, bytes: Int) {
    generations.withLock { stored in
      let previousBytes = stored.previous.values.reduce(0) { $0 + Self.cost($1) }
      return (stored.current.count + stored.previous.count, stored.currentBytes + previousBytes)
    }
  }

  private func add(_ key: Int64, _ entry: Entry, to stored: inout Generations) {
    let cost = Self.cost(entry)
    // A row larger than a generation is not kept at all.
    guard cost <= budgetBytes / 2 else { return }
    if stored.currentBytes + cost > budgetBytes / 2 {
      stored.previous = stored.current
      stored.current = [:]
      stored.currentBytes = 0
    }
    if let replaced = stored.current.updateValue(entry, forKey: key) {
      stored.currentBytes -= Self.cost(replaced)
    }
    stored.currentBytes += cost
  }

  private static func cost(_ entry: Entry) -> Int {
    entry.text.capacity + entryOverheadBytes
  }
}
