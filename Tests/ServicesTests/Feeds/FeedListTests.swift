import Protocol
import XCTest

@testable import Services

final class FeedListTests: XCTestCase {
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
        var steps: [FeedItemOp] = []
        list.apply(id: "\(id)", item: item, limit: 1_000, into: &steps)
        for op in steps { op.apply(to: &shown) }
        XCTAssertEqual(shown, list.items.map(\.json))
        let expected = sorted().filter { item in
          loaded >= 40 || bound.map { item.key! <= $0 } ?? false
        }
        XCTAssertEqual(list.items, expected)
      }
    }
  }

  /// A page fetched after a product was created may bring it before its
  /// create is applied: the create then finds it held, and moves or updates
  /// it, never adds it twice.
  func testAChangeOfARecordAlreadyLoadedNeverAddsItTwice() {
    func item(_ id: Int, key: Int? = nil) -> FeedItem {
      let key = Int64(key ?? id)
      return FeedItem(
        id: "\(id)", key: FeedSortKey(.integer(key), tiebreak: Int64(id), descending: true),
        json: ["id": JSON("\(id)"), "key": JSON(Int(key))])
    }
    var list = FeedList()
    list.append([item(9), item(8), item(7)], complete: false)
    var steps: [FeedItemOp] = []
    list.apply(id: "8", item: item(8), limit: 100, into: &steps)
    XCTAssertEqual(steps, [])
    list.apply(id: "8", item: item(8, key: 11), limit: 100, into: &steps)
    XCTAssertEqual(
      steps, [.remove(index: 1, count: 1), .insert(index: 0, items: [item(8, key: 11)])])
    steps = []
    list.apply(id: "10", item: item(10), limit: 100, into: &steps)
    list.apply(id: "6", item: item(6), limit: 100, into: &steps)
    XCTAssertEqual(steps, [.insert(index: 1, items: [item(10)])], "6 is beyond the window")
    XCTAssertEqual(list.items.map(\.id), ["8", "10", "9", "7"])
    list.apply(id: "10", item: nil, limit: 100, into: &steps)
    list.apply(id: "6", item: nil, limit: 100, into: &steps)
    XCTAssertEqual(list.items.map(\.id), ["8", "9", "7"])
    XCTAssertEqual(steps.last, .remove(index: 1, count: 1))
  }
}
