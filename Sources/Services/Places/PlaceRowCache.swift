import CPlaceCount
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
///
/// A generation's rows lie end to end in one buffer, found by offsets: a
/// page's rows are copied out under the lock with no reference counted per
/// row, and the rows of a page read together lie together in memory.
final class PlaceRowCache: Sendable {
  /// A row's JSON object without its distance: the distance's value goes at
  /// `distanceAt`, right after `"distance":`.
  struct Entry: Sendable {
    let text: [UInt8]
    let distanceAt: Int
  }

  /// The default budget: about 30,000 rows of the demo places.
  static let defaultBudgetBytes = 16 << 20
  /// What a row is counted as beyond its text: its slot in the dictionary.
  static let entryOverheadBytes = 32

  let budgetBytes: Int

  /// Where a row's text lies in its generation's buffer.
  private struct Slot {
    let start: Int32
    let distanceAt: Int32
    let end: Int32
  }

  private struct Generation {
    var text: [UInt8] = []
    var rows: [Int64: Slot] = [:]

    /// What it holds, as the budget counts it; text of rows moved out stays counted.
    var bytes: Int { text.count + rows.count * PlaceRowCache.entryOverheadBytes }

    init(capacity: Int) {
      text.reserveCapacity(capacity)
    }

    /// Writes the row of `slot` with `distance` (or null) where it goes.
    func write(_ slot: Slot, distance: Int?, into output: inout JSONBuffer) {
      text.withUnsafeBufferPointer { text in
        PlaceRowCache.write(
          UnsafeBufferPointer(rebasing: text[Int(slot.start)..<Int(slot.end)]),
          distanceAt: Int(slot.distanceAt), distance: distance, into: &output)
      }
    }
  }

  private struct Generations {
    var current: Generation
    var previous: Generation
  }

  private let generations: Mutex<Generations>

  init(budgetBytes: Int = PlaceRowCache.defaultBudgetBytes) {
    precondition(budgetBytes < Int(Int32.max), "a generation's offsets are 32-bit")
    self.budgetBytes = budgetBytes
    // Reserved, not touched: the system gives the pages as rows fill them.
    generations = Mutex(
      Generations(current: Generation(capacity: budgetBytes / 2), previous: Generation(capacity: 0))
    )
  }

  /// Writes the rows of `page` in its order, each with its distance,
  /// separated by commas, after the text already in `output`. A key in
  /// `known` is taken from there (nil: a row that is not in the file, left
  /// out), the others from the cache. Returns the keys neither holds:
  /// nothing is written then.
  func write(
    _ page: [(key: Int64, distance: Int?)], known: [Int64: Entry?] = [:],
    into output: inout JSONBuffer
  ) -> [Int64] {
    generations.withLock { stored in
      // The rows are asked for first and copied after: their bytes, often
      // pushed out of the processor's caches by other requests since, come
      // in together rather than one row after the other.
      stored.current.text.withUnsafeBufferPointer { text in
        guard let base = text.baseAddress else { return }
        for (key, _) in page {
          guard let slot = stored.current.rows[key] else { continue }
          cplacecount_prefetch_bytes(base + Int(slot.start), Int64(slot.end - slot.start))
        }
      }
      let start = output.count
      var missing: [Int64] = []
      var first = true
      for (key, distance) in page {
        if let known = known[key] {
          guard let entry = known else { continue }
          if !first { output.append(UInt8(ascii: ",")) }
          first = false
          entry.text.withUnsafeBufferPointer { text in
            Self.write(text, distanceAt: entry.distanceAt, distance: distance, into: &output)
          }
          continue
        }
        guard let slot = slot(of: key, in: &stored) else {
          missing.append(key)
          continue
        }
        if !first { output.append(UInt8(ascii: ",")) }
        first = false
        stored.current.write(slot, distance: distance, into: &output)
      }
      if !missing.isEmpty { output.removeAll(from: start) }
      return missing
    }
  }

  /// Caches `entries` by key.
  func insert(_ entries: [Int64: Entry]) {
    generations.withLock { stored in
      for (key, entry) in entries {
        entry.text.withUnsafeBufferPointer { text in
          _ = add(key, text, distanceAt: entry.distanceAt, to: &stored)
        }
      }
    }
  }

  /// Rows and bytes held now, for tests.
  var held: (rows: Int, bytes: Int) {
    generations.withLock { stored in
      (
        stored.current.rows.count + stored.previous.rows.count,
        stored.current.bytes + stored.previous.bytes
      )
    }
  }

  /// A row's text with `distance` (or null) written at `distanceAt`.
  private static func write(
    _ text: UnsafeBufferPointer<UInt8>, distanceAt: Int, distance: Int?,
    into output: inout JSONBuffer
  ) {
    output.append(bytes: UnsafeBufferPointer(rebasing: text[..<distanceAt]))
    if let distance {
      JSONWriter.writeInteger(distance, into: &output)
    } else {
      JSONWriter.writeLiteral("null", into: &output)
    }
    output.append(bytes: UnsafeBufferPointer(rebasing: text[distanceAt...]))
  }

  /// The row's slot in the current generation, moving it there from the
  /// previous one; nil when neither holds it (or it cannot be kept).
  private func slot(of key: Int64, in stored: inout Generations) -> Slot? {
    if let slot = stored.current.rows[key] { return slot }
    guard let slot = stored.previous.rows.removeValue(forKey: key) else { return nil }
    // Copied out first: adding may make the current generation the previous one.
    let text = stored.previous.text[Int(slot.start)..<Int(slot.end)]
    return Array(text).withUnsafeBufferPointer { text in
      add(key, text, distanceAt: Int(slot.distanceAt), to: &stored)
    }
  }

  /// Adds a row to the current generation, which becomes the previous one
  /// first when it has no room; nil for a row larger than a generation. A
  /// row the current generation holds already (two searches read it at
  /// once) stays as it is.
  private func add(
    _ key: Int64, _ text: UnsafeBufferPointer<UInt8>, distanceAt: Int,
    to stored: inout Generations
  ) -> Slot? {
    if let slot = stored.current.rows[key] { return slot }
    let generationBytes = budgetBytes / 2
    let cost = text.count + Self.entryOverheadBytes
    guard cost <= generationBytes else { return nil }
    if stored.current.bytes + cost > generationBytes {
      stored.previous = stored.current
      stored.current = Generation(capacity: generationBytes)
    }
    let start = stored.current.text.count
    stored.current.text.append(contentsOf: text)
    let slot = Slot(
      start: Int32(start), distanceAt: Int32(distanceAt), end: Int32(start + text.count))
    stored.current.rows[key] = slot
    return slot
  }
}
