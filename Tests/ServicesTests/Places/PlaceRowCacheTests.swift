import FoundationEssentials
import XCTest

@testable import Services

/// `PlaceRowCache`: rows come back as they went in, with their distance
/// written in place; the cache stays within its budget and keeps the rows
/// still asked for; and a search answers as of its index, rows included.
final class PlaceRowCacheTests: XCTestCase {
  var folder = ""

  override func setUp() {
    folder = FileManager.default.temporaryDirectory.path + "/place-row-cache-tests-\(UUID())"
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: folder)
  }

  static func entry(_ number: Int, padding: Int = 0) -> PlaceRowCache.Entry {
    let head = #"{"id":"\#(number)\#(String(repeating: " ", count: padding))","distance":"#
    return PlaceRowCache.Entry(
      text: Array((head + #","placeUrl":""}"#).utf8), distanceAt: head.utf8.count)
  }

  func testAnEntryWritesItsDistanceOrNullWhereItGoes() {
    var output: [UInt8] = []
    Self.entry(7).write(distance: 1_234, into: &output)
    output.append(UInt8(ascii: ","))
    Self.entry(8).write(distance: nil, into: &output)
    XCTAssertEqual(
      String(decoding: output, as: UTF8.self),
      #"{"id":"7","distance":1234,"placeUrl":""},{"id":"8","distance":null,"placeUrl":""}"#)
  }

  func testRowsAreFoundByKeyAndMissingOnesAreNil() {
    let cache = PlaceRowCache()
    cache.insert([1: Self.entry(1), 3: Self.entry(3)])
    let found = cache.entries([3, 2, 1])
    XCTAssertEqual(
      found.map { $0.map { String(decoding: $0.text, as: UTF8.self) } },
      [
        String(decoding: Self.entry(3).text, as: UTF8.self), nil,
        String(decoding: Self.entry(1).text, as: UTF8.self),
      ])
  }

  func testTheCacheStaysWithinItsBudgetAndKeepsTheRowsStillAskedFor() {
    // Entries of about 100 bytes with the overhead (their arrays' capacity
    // may be more): a few fit in a generation of 1,000.
    let padding = 100 - PlaceRowCache.entryOverheadBytes - Self.entry(0).text.count
    let cache = PlaceRowCache(budgetBytes: 2_000)
    for key in 0..<1_000 {
      cache.insert([Int64(key): Self.entry(key, padding: padding)])
      // Key 0 is asked for all along: it never leaves.
      XCTAssertNotNil(cache.entries([0])[0], "key 0 after \(key)")
      XCTAssertLessThanOrEqual(cache.held.bytes, 2_000)
    }
    XCTAssertGreaterThanOrEqual(cache.held.rows, 5)
    XCTAssertNil(cache.entries([1])[0], "an early row not asked for again left")
    XCTAssertNotNil(cache.entries([999])[0])
  }

  func testARowLargerThanAGenerationIsNotKept() {
    let cache = PlaceRowCache(budgetBytes: 200)
    cache.insert([1: Self.entry(1, padding: 200)])
    XCTAssertNil(cache.entries([1])[0])
    XCTAssertEqual(cache.held.rows, 0)
  }

  /// Another connection renames the places of a search's page: a search
  /// answers as of its index, rows included, until a check of the file's
  /// version rebuilds both.
  func testRowsChangedByAnotherConnectionShowWithTheNextIndex() async throws {
    let search = try PlaceSearch(
      category: .cafe, x: 126.9784, y: 37.5667, radius: 2_000, size: 15, sort: .distance)
    let path = folder + "/places.sqlite"
    let trusting = PlaceStore(path: path, demoCount: 2_000, recheckInterval: .seconds(3_600))
    let checking = PlaceStore(path: path, demoCount: 2_000, recheckInterval: .zero)
    let before = try await trusting.searchJSON(search)
    let checked = try await checking.searchJSON(search)
    XCTAssertEqual(checked, before)
    XCTAssertTrue(String(decoding: before, as: UTF8.self).contains(#""placeName":"#))

    let other = try SQLiteDatabase(path: path, readOnly: false)
    _ = try other.run("UPDATE places SET place_name = '새 이름 ' || key")

    let after = try await checking.searchJSON(search)
    XCTAssertTrue(String(decoding: after, as: UTF8.self).contains(#""placeName":"새 이름 "#))
    let trusted = try await trusting.searchJSON(search)
    XCTAssertEqual(trusted, before, "as of the index searched")
    let tree = try await checking.search(search).json.serialized()
    XCTAssertEqual(String(decoding: tree, as: UTF8.self), String(decoding: after, as: UTF8.self))
  }
}
