import XCTest

@testable import Services

final class RingBufferTests: XCTestCase {
  /// Random inserts, removals, appends and cuts, at the ends and in the
  /// middle, across growth and wrap-around: always the same as an array.
  func testFollowsAnArrayThroughRandomEdits() {
    var random = SplitMix64(seed: 13)
    for _ in 0..<50 {
      var ring = RingBuffer<String>()
      var array: [String] = []
      for step in 0..<400 {
        let value = "v\(step)"
        switch random.next() % 6 {
        case 0:
          ring.insert(value, at: 0)
          array.insert(value, at: 0)
        case 1:
          let index = Int(random.next() % UInt64(array.count + 1))
          ring.insert(value, at: index)
          array.insert(value, at: index)
        case 2 where !array.isEmpty:
          let index = Int(random.next() % UInt64(array.count))
          XCTAssertEqual(ring.remove(at: index), array.remove(at: index))
        case 3:
          let values = (0..<Int(random.next() % 20)).map { "\(value).\($0)" }
          ring.append(contentsOf: values)
          array.append(contentsOf: values)
        case 4 where !array.isEmpty:
          let count = Int(random.next() % UInt64(min(array.count, 5) + 1))
          ring.removeLast(count)
          array.removeLast(count)
        default:
          ring.append(value)
          array.append(value)
        }
        XCTAssertEqual(Array(ring), array)
        if let index = array.indices.randomElement(using: &random) {
          XCTAssertEqual(ring.read(index) { $0 }, array[index])
        }
      }
    }
  }
}
