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
      [.insert(index: 2, items: [item(9).json])])
    XCTAssertEqual(
      FeedDiff.steps(from: old, to: [item(0), item(3), item(4)]),
      [.remove(index: 1, count: 2)])
    XCTAssertEqual(
      FeedDiff.steps(from: old, to: [item(0), item(1, 7), item(2, 7), item(3), item(4)]),
      [.update(index: 1, items: [item(1, 7).json, item(2, 7).json])])
    XCTAssertEqual(
      FeedDiff.steps(from: old, to: [item(1), item(2), item(3), item(4), item(0)]),
      [.remove(index: 0, count: 1), .insert(index: 4, items: [item(0).json])],
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

  func testAListFollowsItsSourceThroughRandomChanges() {
    var random = SplitMix64(seed: 11)
    for _ in 0..<100 {
      // The source: ids 0..<60, each with a key (duplicates broken by id) and a value.
      var records: [Int: (key: Int, value: Int)] = [:]
      for id in 0..<40 { records[id] = (Int(random.next() % 50), 0) }
      func sorted() -> [FeedItem] {
        records.map { id, record in
          FeedItem(
            id: "\(id)", key: FeedSortKey(.integer(Int64(record.key)), tiebreak: Int64(id)),
            json: ["id": JSON("\(id)"), "k": JSON(record.key), "v": JSON(record.value)])
        }.sorted { $0.key! < $1.key! }
      }
      var list = FeedList()
      let loaded = 1 + Int(random.next() % 40)
      let all = sorted()
      list.append(Array(all.prefix(loaded)), complete: loaded >= all.count)
      var shown = list.items.map(\.json)
      let bound = list.items.last?.key
      for step in 0..<30 {
        let id = Int(random.next() % 60)
        var item: FeedItem?
        if random.next() % 4 == 0 {
          records[id] = nil
        } else {
          records[id] = (Int(random.next() % 50), step + 1)
          item = sorted().first { $0.id == "\(id)" }
        }
        for op in list.apply(id: "\(id)", item: item, limit: 1_000) { op.apply(to: &shown) }
        XCTAssertEqual(shown, list.items.map(\.json))
        let expected = sorted().filter { item in
          loaded >= 40 || bound.map { item.key! <= $0 } ?? false
        }
        XCTAssertEqual(list.items, expected)
      }
    }
  }

  private func randomItems(_ random: inout SplitMix64) -> [FeedItem] {
    var ids = Array(0..<12).shuffled(using: &random)
    ids.removeLast(Int(random.next() % 12))
    return ids.map { item($0, Int(random.next() % 2)) }
  }
}
