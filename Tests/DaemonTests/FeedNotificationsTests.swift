import Protocol
import Services
import Synchronization
import XCTest

@testable import Daemon

final class FeedNotificationsTests: XCTestCase {
  /// A run of steps is written by hand, each item once: it must read back as
  /// the notifications written one by one from their JSON trees.
  func testARunIsWrittenAsTheSameNotificationsOneByOne() throws {
    // One item object in two feeds' steps: written once, read back in both.
    let product = FeedItem(json: [
      "id": "7", "nameKo": "사과 \"부사\"\n", "nameEn": .null, "price": 1500,
      "supplier": ["id": "2", "name": "바른농장"], "version": 3,
    ])
    let other = FeedItem(json: ["id": "8", "nameKo": "배", "price": 900])
    let events: [FeedEvent] = [
      .itemsChanged(
        feedId: "feed-1", generation: 0, changes: [.insert(index: 3, items: [product])], count: 4),
      .itemsChanged(
        feedId: "feed-\u{1F600}", generation: 2,
        changes: [
          .remove(index: 0, count: 2), .insert(index: 5, items: [product, other]),
          .update(index: 1, items: [other]),
        ], count: 9),
      .stateChanged(feedId: "feed-1", state: .refreshing, count: 4, error: nil),
      .itemsChanged(feedId: "feed-3", generation: 1, changes: [], count: 0),
    ]
    let written = Mutex<[[UInt8]]>([])
    FeedNotifications.runSender(
      { run in written.withLock { $0 += run.bodies.map { Array($0) } } }, method: "m",
      locale: .english)(
        events)
    let one = Mutex<[JSON]>([])
    let sender = FeedNotifications.sender(
      { method, params in
        one.withLock {
          $0.append(
            try! JSONParser.parse(OutgoingMessage.notification(method: method, params: params)))
        }
      }, method: "m", locale: .english)
    for event in events { sender(event) }
    let run = try written.withLock { try $0.map { try JSONParser.parse($0) } }
    XCTAssertEqual(run, one.withLock { $0 })
  }
}
