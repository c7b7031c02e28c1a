import FoundationEssentials
import Protocol
import XCTest

@testable import Services

/// `PlaceStore.searchJSON`, written straight from the rows, is byte for byte
/// the serialized `search` result, whatever the rows hold.
final class PlaceSearchJSONTests: XCTestCase {
  var folder = ""

  override func setUp() {
    folder = FileManager.default.temporaryDirectory.path + "/place-json-tests-\(UUID())"
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: folder)
  }

  static let demo = DemoPlaces.places(count: 3_000)

  /// Searches of every shape around some demo places.
  static func searches() throws -> [PlaceSearch] {
    var searches: [PlaceSearch] = []
    for place in demo.prefix(600).enumerated().filter({ $0.offset % 40 == 0 }).map(\.element) {
      for radius in [0, 300, 1_000, 5_000, 20_000] {
        searches.append(
          try PlaceSearch(
            category: place.category, x: place.x, y: place.y, radius: radius, sort: .distance))
        searches.append(
          try PlaceSearch(
            category: place.category, x: place.x + 0.001, y: place.y, radius: radius, page: 2,
            size: 7))
      }
      let rect = PlaceRect(
        minX: place.x - 0.02, minY: place.y - 0.02, maxX: place.x + 0.02, maxY: place.y + 0.02)
      searches.append(try PlaceSearch(category: place.category, rect: rect))
      searches.append(
        try PlaceSearch(
          category: place.category, x: place.x, y: place.y, rect: rect, sort: .distance))
      searches.append(try PlaceSearch(category: place.category, rect: rect, page: 45, size: 15))
    }
    return searches
  }

  func assertSameAsTree(_ store: PlaceStore, file: StaticString = #filePath, line: UInt = #line)
    async throws
  {
    for search in try Self.searches() {
      let tree = try await store.search(search).json.serialized()
      let direct = try await store.searchJSON(search)
      XCTAssertEqual(
        String(decoding: direct, as: UTF8.self), String(decoding: tree, as: UTF8.self),
        "\(search)", file: file, line: line)
    }
  }

  func testTheDemoPlaces() async throws {
    try await assertSameAsTree(PlaceStore(path: folder + "/places.sqlite", demoCount: 3_000))
  }

  func testRowsWithTextToEscapeInvalidUTF8AndRowsGoneSinceTheIndexWasBuilt() async throws {
    let store = PlaceStore(path: folder + "/places.sqlite", demoCount: 3_000)
    _ = try await store.search(try Self.searches()[0])  // builds the index
    let other = try SQLiteDatabase(path: folder + "/places.sqlite", readOnly: false)
    let texts: [String] = [
      "\"따옴표\" \\ 역슬래시", "줄\n바꿈\t탭\r", "\u{0}\u{1}\u{1f}\u{7f}", "", "😀 𝄞",
    ]
    for (offset, place) in Self.demo.prefix(600).enumerated() where offset % 3 == 0 {
      let text = texts[offset % texts.count]
      _ = try other.run(
        """
        UPDATE places SET place_name = ?, category_name = ?, phone = ?, address_name = ?,
          road_address_name = ?, place_url = ? WHERE id = ?
        """,
        [
          .text(text), .text(text + "b"), .text(text), .text(""), .text(text), .text(text),
          .text(place.id),
        ])
    }
    // Invalid UTF-8, which another program may have stored: repaired the same way.
    for (offset, place) in Self.demo.prefix(600).enumerated() where offset % 7 == 1 {
      _ = try other.run(
        "UPDATE places SET place_name = CAST(X'41C328EDA080F0908041E282' AS TEXT), phone = CAST(X'FF' AS TEXT) WHERE id = ?",
        [.text(place.id)])
    }
    // Rows deleted after the index was built: left out of both.
    for (offset, place) in Self.demo.prefix(600).enumerated() where offset % 11 == 2 {
      _ = try other.run("DELETE FROM places WHERE id = ?", [.text(place.id)])
    }
    try await assertSameAsTree(store)
  }
}
