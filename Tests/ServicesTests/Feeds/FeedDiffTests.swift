import Protocol
import XCTest

@testable import Services

final class FeedDiffTests: XCTestCase {
  private func item(_ id: Int, _ value: Int = 0) -> FeedItem {
    FeedItem(
      id: "\(id)", key: FeedSortKey(.integer(Int64(id))),
      json: ["id": JSON("\(id)"), "v": JSON(value)])
  }

  private func applied(_ steps: [FeedItemOp], to items: [FeedItem]) -> [JSON] {
    var list = items.map(\.json)
    for step in steps { step.apply(to: &list) }
    return list
  }

  func testStepsOfTypicalChanges() {
    let old = (0..<5).map { item($0) }
    XCTAssertEqual(FeedDiff.steps(from: old, to: old), [])
    XCTAssertEqual(
      FeedDiff.steps(from: old, to: [item(0), item(1), item(9), item(2), item(3), item(4)]),
      [.insert(index: 2, items: [item(9)])])
    XCTAssertEqual(
      FeedDiff.steps(from: old, to: [item(0), item(3), item(4)]),
      [.remove(index: 1, count: 2)])
    XCTAssertEqual(
      FeedDiff.steps(from: old, to: [item(0), item(1, 7), item(2, 7), item(3), item(4)]),
      [.update(index: 1, items: [item(1, 7), item(2, 7)])])
    XCTAssertEqual(
      FeedDiff.steps(from: old, to: [item(1), item(2), item(3), item(4), item(0)]),
      [.remove(index: 0, count: 1), .insert(index: 4, items: [item(0)])],
      "a move is a remove and an insert")
  }

  func testRandomListsAreTurnedIntoEachOther() {
    var random = SplitMix64(seed: 7)
    for _ in 0..<2_000 {
      let old = randomItems(&random)
      let new = randomItems(&random)
      let steps = FeedDiff.steps(from: old, to: new)
      XCTAssertEqual(applied(steps, to: old), new.map(\.json))
    }
  }

  func testRepeatedIdsAreReplacedWhole() {
    let old = [item(1), item(1)]
    let new = [item(2)]
    XCTAssertEqual(applied(FeedDiff.steps(from: old, to: new), to: old), new.map(\.json))
  }

  private func randomItems(_ random: inout SplitMix64) -> [FeedItem] {
    var ids = Array(0..<12).shuffled(using: &random)
    ids.removeLast(Int(random.next() % 12))
    return ids.map { item($0, Int(random.next() % 2)) }
  }
}
