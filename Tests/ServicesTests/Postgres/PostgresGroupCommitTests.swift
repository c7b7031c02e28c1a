import Synchronization
import XCTest

@testable import Services

final class PostgresGroupCommitTests: XCTestCase {
  private struct Refused: Error, Equatable { let item: Int }

  /// Items submitted while a batch is written go together into the next one
  /// (at most `maxBatchSize`), and each caller gets its own result: an
  /// item's failure fails only that item.
  func testItemsArrivingDuringACommitShareTheNextBatchAndKeepTheirOwnResults() async throws {
    let batches = Mutex<[[Int]]>([])
    let (release, releaser) = AsyncStream<Void>.makeStream()
    let group = PostgresGroupCommit<Int, Int>(maxBatchSize: 8) { items in
      let isFirst = batches.withLock { batches in
        batches.append(items)
        return batches.count == 1
      }
      if isFirst {
        // The first batch's commit lasts until the others are waiting.
        for await _ in release { break }
      }
      return items.map { $0 == 7 ? .failure(Refused(item: 7)) : .success($0 * 10) }
    }

    let first = Task { try await group.submit(0) }
    try await waitUntil { batches.withLock { $0.count == 1 } }
    let later = (1...12).map { item in Task { try await group.submit(item) } }
    try await waitUntil { group.pendingCount == 12 }
    releaser.yield()

    let firstValue = try await first.value
    XCTAssertEqual(firstValue, 0)
    for (index, task) in later.enumerated() {
      let item = index + 1
      if item == 7 {
        let error = await thrownError { try await task.value }
        XCTAssertEqual(error as? Refused, Refused(item: 7))
      } else {
        let value = try await task.value
        XCTAssertEqual(value, item * 10)
      }
    }
    XCTAssertEqual(batches.withLock { $0.map(\.count) }, [1, 8, 4])
  }

  private func waitUntil(_ condition: () -> Bool) async throws {
    for _ in 0..<1_000 where !condition() {
      try await Task.sleep(for: .milliseconds(5))
    }
    XCTAssertTrue(condition())
  }
}
