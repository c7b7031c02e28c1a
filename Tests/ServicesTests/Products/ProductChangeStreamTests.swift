import XCTest

@testable import Services

/// A stream of other daemons' changes whose consumer fell behind ends in a
/// resync instead of losing batches silently.
final class ProductChangeStreamTests: XCTestCase {
  func testABatchDroppedForAFullBufferIsFollowedByAResync() async {
    let (stream, continuation) = AsyncStream.makeStream(
      of: [ProductChange].self, bufferingPolicy: .bufferingNewest(2))
    let batches = (1...3).map { [ProductChange(reason: .created, id: String($0))] }
    for batch in batches { continuation.yieldOrResync(batch) }
    continuation.finish()
    var received: [[ProductChange]] = []
    for await batch in stream { received.append(batch) }
    XCTAssertEqual(received, [batches[2], [ProductChange(reason: .resync, id: nil)]])
  }

  func testNothingIsAddedWhileTheBufferHasRoom() async {
    let (stream, continuation) = AsyncStream.makeStream(
      of: [ProductChange].self, bufferingPolicy: .bufferingNewest(2))
    let batches = (1...2).map { [ProductChange(reason: .deleted, id: String($0))] }
    for batch in batches { continuation.yieldOrResync(batch) }
    continuation.finish()
    var received: [[ProductChange]] = []
    for await batch in stream { received.append(batch) }
    XCTAssertEqual(received, batches)
  }
}
