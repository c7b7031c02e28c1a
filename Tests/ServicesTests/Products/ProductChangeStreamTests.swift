import XCTest

@testable import Services

/// A stream of other daemons' changes whose consumer fell behind ends in a
/// resync instead of losing batches silently.
final class ProductChangeStreamTests: XCTestCase {
  func testABatchDroppedForAFullBufferIsFollowedByAResync() async {
    let batches = (1...3).map { [ProductChange(reason: .created, id: String($0))] }
    let received = await Self.received(batches, buffering: 2)
    XCTAssertEqual(received, [batches[2], [ProductChange(reason: .resync, id: nil)]])
  }

  func testNothingIsAddedWhileTheBufferHasRoom() async {
    let batches = (1...2).map { [ProductChange(reason: .deleted, id: String($0))] }
    let received = await Self.received(batches, buffering: 2)
    XCTAssertEqual(received, batches)
  }

  /// What a consumer that reads only after all of `batches` were yielded
  /// (`yieldOrResync`) receives from a stream keeping the newest `count`.
  private static func received(_ batches: [[ProductChange]], buffering count: Int) async
    -> [[ProductChange]]
  {
    let (stream, continuation) = AsyncStream.makeStream(
      of: [ProductChange].self, bufferingPolicy: .bufferingNewest(count))
    for batch in batches { continuation.yieldOrResync(batch) }
    continuation.finish()
    var received: [[ProductChange]] = []
    for await batch in stream { received.append(batch) }
    return received
  }
}
