import Synchronization
import XCTest

@testable import Daemon

final class SerialLanesTests: XCTestCase {
  func testAnOperationThatLeavesItsLaneLetsTheNextOnesStartInOrder() async {
    let lanes = SerialLanes()
    let order = Mutex<[String]>([])
    let turn = LaneTurn()
    let first = lanes.enqueue("k", turn: turn) {
      order.withLock { $0.append("first takes effect") }
      turn.leave()
      try? await Task.sleep(for: .milliseconds(150))
      order.withLock { $0.append("first ends") }
    }
    let second = lanes.enqueue("k") {
      try? await Task.sleep(for: .milliseconds(20))
      order.withLock { $0.append("second") }
    }
    let third = lanes.enqueue("k") { order.withLock { $0.append("third") } }
    await first.value
    await second.value
    await third.value
    XCTAssertEqual(
      order.withLock { $0 }, ["first takes effect", "second", "third", "first ends"],
      "the second waits for the first to leave, the third for the second to end")
  }
}
