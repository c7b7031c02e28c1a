import FoundationEssentials
import XCTest

@testable import Services

/// `PlaceStore.searchJSONNow`: nothing before the index is built or while a
/// check of the file's version is due; then the same page as `searchJSON`.
final class PlaceSearchNowTests: XCTestCase {
  var folder = ""

  override func setUp() {
    folder = FileManager.default.temporaryDirectory.path + "/place-search-now-tests-\(UUID())"
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: folder)
  }

  func testASearchIsAnsweredNowOnlyFromABuiltIndexThatNeedsNoCheck() async throws {
    let search = try PlaceSearch(
      category: .cafe, x: 126.9784, y: 37.5667, radius: 1_000, size: 15, sort: .distance)
    let fresh = PlaceStore(
      path: folder + "/places.sqlite", demoCount: 2_000, recheckInterval: .seconds(3_600))
    XCTAssertNil(try fresh.searchJSONNow(search), "no index yet")
    let awaited = try await fresh.searchJSON(search)
    XCTAssertEqual(try fresh.searchJSONNow(search), awaited)

    let checking = PlaceStore(path: folder + "/places.sqlite", recheckInterval: .zero)
    _ = try await checking.searchJSON(search)
    XCTAssertNil(try checking.searchJSONNow(search), "a check of the file is due")
  }
}
