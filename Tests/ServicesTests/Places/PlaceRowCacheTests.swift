import FoundationEssentials
import Protocol
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

  static func text(_ number: Int, distance: String) -> String {
    #"{"id":"\#(number)","distance":\#(distance),"placeUrl":""}"#
  }

  /// Whether `cache` holds `key`, written with no distance; nil when it misses it.
  static func written(_ key: Int64, _ cache: PlaceRowCache) -> String? {
    var output = JSONBuffer(capacity: 0)
    guard cache.write([(key, nil)], into: &output).isEmpty else { return nil }
    return String(decoding: output.bytes, as: UTF8.self)
  }

  func testRowsAreWrittenInThePagesOrderWithTheirDistanceOrNull() {
    let cache = PlaceRowCache()
    cache.insert([1: Self.entry(1), 3: Self.entry(3)])
    var output = JSONBuffer(capacity: 0)
    output.append(UInt8(ascii: "["))
    let missing = cache.write([(3, 1_234), (1, nil)], into: &output)
    XCTAssertEqual(missing, [])
    XCTAssertEqual(
      String(decoding: output.bytes, as: UTF8.self),
      "[" + Self.text(3, distance: "1234") + "," + Self.text(1, distance: "null"))
  }

  func testMissingRowsAreReturnedAndNothingIsWritten() {
    let cache = PlaceRowCache()
    cache.insert([1: Self.entry(1), 3: Self.entry(3)])
    var output = JSONBuffer(capacity: 0)
    output.append(UInt8(ascii: "["))
    XCTAssertEqual(cache.write([(3, 5), (2, 6), (1, 7), (4, 8)], into: &output), [2, 4])
    XCTAssertEqual(output.bytes, Array("[".utf8))
  }

  func testKnownRowsAreWrittenFromThereAndKnownAbsentOnesLeftOut() {
    let cache = PlaceRowCache()
    cache.insert([1: Self.entry(1)])
    var output = JSONBuffer(capacity: 0)
    let missing = cache.write(
      [(4, 40), (1, 10), (2, 20)], known: [2: Self.entry(2), 4: nil], into: &output)
    XCTAssertEqual(missing, [])
    XCTAssertEqual(
      String(decoding: output.bytes, as: UTF8.self),
      Self.text(1, distance: "10") + "," + Self.text(2, distance: "20"))
  }

  func testTheCacheStaysWithinItsBudgetAndKeepsTheRowsStillAskedFor() {
    // Rows of 100 bytes with the overhead: a few fit in a generation of 1,000.
    let padding = 100 - PlaceRowCache.entryOverheadBytes - Self.entry(0).text.count
    let cache = PlaceRowCache(budgetBytes: 2_000)
    for key in 0..<1_000 {
      cache.insert([Int64(key): Self.entry(key, padding: padding)])
      // Key 0 is asked for all along: it never leaves.
      XCTAssertNotNil(Self.written(0, cache), "key 0 after \(key)")
      XCTAssertLessThanOrEqual(cache.held.bytes, 2_000)
    }
    XCTAssertGreaterThanOrEqual(cache.held.rows, 10)
    XCTAssertNil(Self.written(1, cache), "an early row not asked for again left")
    XCTAssertEqual(
      Self.written(999, cache),
      String(decoding: Self.entry(999, padding: padding).text, as: UTF8.self)
        .replacing(#""distance":,"#, with: #""distance":null,"#))
  }

  func testARowLargerThanAGenerationIsNotKept() {
    let cache = PlaceRowCache(budgetBytes: 200)
    cache.insert([1: Self.entry(1, padding: 200)])
    XCTAssertNil(Self.written(1, cache))
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
