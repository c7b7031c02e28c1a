import Protocol
import Synchronization
import XCTest

@testable import Services

/// `FeedEngine.itemsNow`: items answered off the engine only from a snapshot
/// the engine published after the notifications of those items, never from
/// one that a change has made stale.
final class FeedSnapshotTests: XCTestCase {
  func testASmallFeedIsPublishedOnceTheNotificationsOfAChangeWentOut() async throws {
    let engine = FeedEngine()
    let id = try await engine.open(source: FakeFeedSource(total: 20), pageSize: 5)
    XCTAssertNil(itemsNow(engine, id, 0, 10), "nothing loaded, nothing published")

    _ = try await engine.loadMore(id, notify: { _ in })
    let loaded = try await engine.items(id, start: 0, end: 10)
    XCTAssertEqual(loaded.count, 5)
    XCTAssertEqual(itemsNow(engine, id, 0, 10), loaded)
    XCTAssertEqual(itemsNow(engine, id, 2, 4), Array(loaded[2..<4]))
    XCTAssertEqual(itemsNow(engine, id, 3, 100), Array(loaded[3...]), "cut to the count")
    XCTAssertEqual(itemsNow(engine, id, 9, 12), [])
    XCTAssertNil(itemsNow(engine, id, 4, 2), "a range the engine refuses is left to it")

    _ = try await engine.loadMore(id, notify: { _ in })
    let both = try await engine.items(id, start: 0, end: 100)
    XCTAssertEqual(both.count, 10)
    XCTAssertEqual(itemsNow(engine, id, 0, 100), both)
    _ = try await engine.refresh(id, notify: { _ in })
    XCTAssertEqual(itemsNow(engine, id, 0, 100)?.count, 10, "the reload's items")
    try await engine.close(id)
    XCTAssertNil(itemsNow(engine, id, 0, 10), "closed")
  }

  /// A large feed is published when the engine next answers `items` itself:
  /// copying all its items at every change would cost more than it saves.
  func testALargeFeedIsPublishedWhenItsItemsAreAsked() async throws {
    let engine = FeedEngine()
    let pageSize = FeedEngine.eagerSnapshotItems + 1
    let id = try await engine.open(source: FakeFeedSource(total: 3 * pageSize), pageSize: pageSize)
    _ = try await engine.loadMore(id, notify: { _ in })
    XCTAssertNil(itemsNow(engine, id, 0, 10), "a page arrived: the engine answers first")
    let loaded = try await engine.items(id, start: 0, end: 10)
    XCTAssertEqual(itemsNow(engine, id, 0, 10), loaded)
    XCTAssertEqual(itemsNow(engine, id, 0, .max)?.count, pageSize, "published whole")
    _ = try await engine.loadMore(id, notify: { _ in })
    XCTAssertNil(itemsNow(engine, id, 0, 10), "the next page dropped it")
  }

  /// The snapshot is dropped inside the change, before the notification of
  /// its items is handed over: an answer from it can only precede it.
  func testAChangeDropsTheSnapshotBeforeItsNotificationsGoOut() async throws {
    let engine = FeedEngine()
    let source = FakeFeedSource(total: 20)
    let id = try await engine.open(source: source, pageSize: 5)
    _ = try await engine.loadMore(id, notify: { _ in })
    _ = try await engine.items(id, start: 0, end: 5)
    let published = Published()
    _ = try await engine.loadMore(id) { event in
      guard case .pageLoaded = event else { return }
      published.record(engine.itemsNow(id, start: 0, end: 5, deliver: { _ in }))
    }
    XCTAssertFalse(published.seen.isEmpty)
    XCTAssertEqual(Set(published.seen), [false])
  }

  /// The items `itemsNow` answers, read back from its JSON text.
  private func itemsNow(_ engine: FeedEngine, _ id: String, _ start: Int, _ end: Int) -> [JSON]? {
    var answered: EncodedJSON?
    guard engine.itemsNow(id, start: start, end: end, deliver: { answered = $0 }) else {
      return nil
    }
    guard let answered, let value = try? JSONParser.parse(answered.bytes),
      case .array(let items)? = value["items"]
    else {
      XCTFail("not {\"items\": […]}")
      return nil
    }
    return items
  }
}

/// Whether a snapshot was there at each notification.
private final class Published: Sendable {
  private let answers = Mutex<[Bool]>([])
  var seen: [Bool] { answers.withLock { $0 } }
  func record(_ answered: Bool) { answers.withLock { $0.append(answered) } }
}
