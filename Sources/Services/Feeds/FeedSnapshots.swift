import Synchronization

/// The items of a session's feeds as the notifications sent so far show them,
/// for `feeds/items` answered on the session's reader thread without a hop
/// onto the feed engine (`FeedEngine.itemsNow`).
///
/// The engine drops a feed's snapshot before it changes the feed's items, so
/// before it sends the notifications of the change; it publishes one once
/// every notification of the items it holds has been handed to the session
/// (docs/reads.md, "Feeds"). A reader answers from a snapshot only while
/// holding the lock, and hands its reply to the session inside it: a reply
/// from a snapshot is queued either before the notifications of the next
/// change (its items predate them), or not at all (the engine answers, in
/// order).
final class FeedSnapshots: Sendable {
  private let items = Mutex<[String: [FeedItem]]>([:])

  /// Drops the feed's snapshot: its items are about to change.
  func invalidate(_ id: String) {
    items.withLock { _ = $0.removeValue(forKey: id) }
  }

  /// Drops every snapshot (the feeds closed).
  func removeAll() {
    items.withLock { $0.removeAll() }
  }

  /// Whether the feed has a snapshot.
  func contains(_ id: String) -> Bool {
    items.withLock { $0[id] != nil }
  }

  /// Makes `feedItems` the feed's snapshot.
  func publish(_ id: String, _ feedItems: [FeedItem]) {
    items.withLock { $0[id] = feedItems }
  }

  /// Gives `deliver` the items `start..<end` of the feed's snapshot (an end
  /// past the count cut to it), with the lock held; false when there is none.
  func read(_ id: String, start: Int, end: Int, deliver: (ArraySlice<FeedItem>) -> Void) -> Bool {
    items.withLock { snapshots in
      guard let feedItems = snapshots[id] else { return false }
      let count = feedItems.count
      deliver(feedItems[min(start, count)..<min(end, count)])
      return true
    }
  }
}
