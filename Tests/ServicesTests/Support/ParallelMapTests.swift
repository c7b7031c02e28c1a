import Synchronization
import XCTest

@testable import Services

/// `ParallelMap`: every index once, the results in index order.
final class ParallelMapTests: XCTestCase {
  func testEveryIndexOnceInOrder() {
    let calls = Mutex<[Int]>([])
    let results = ParallelMap.map(1_000, threads: 8) { index in
      calls.withLock { $0.append(index) }
      return "#\(index)"
    }
    XCTAssertEqual(results, (0..<1_000).map { "#\($0)" })
    XCTAssertEqual(calls.withLock { $0.sorted() }, Array(0..<1_000))
  }

  func testFewerItemsThanThreadsAndNone() {
    XCTAssertEqual(ParallelMap.map(3, threads: 16) { $0 * 2 }, [0, 2, 4])
    XCTAssertEqual(ParallelMap.map(1, threads: 1) { $0 + 1 }, [1])
    XCTAssertEqual(ParallelMap.map(0, threads: 4) { $0 }, [])
  }
}
