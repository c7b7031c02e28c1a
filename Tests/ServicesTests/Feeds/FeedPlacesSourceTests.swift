import FoundationEssentials
import Protocol
import XCTest

@testable import Services

final class FeedPlacesSourceTests: XCTestCase {
  func testAPlacesFeedPagesThroughTheFirst45Places() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "feed-places-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let service = PlacesService(backend: PlaceStore(path: folder + "/places.sqlite"))
    let search = try PlaceSearch(
      category: try XCTUnwrap(PlaceCategory(code: "CE7")), x: 126.978, y: 37.5665, sort: .distance)
    let direct = try await service.search(search.page(1, size: 15))
    XCTAssertGreaterThan(direct.meta.pageableCount, 0)
    let engine = FeedEngine()
    let id = try await engine.open(
      source: PlacesFeedSource(service: service, search: search), pageSize: 10)
    var range = FeedRange(start: 0, end: 0, endReached: false)
    var loads = 0
    while !range.endReached {
      range = try await engine.loadMore(id, notify: { _ in })
      loads += 1
      XCTAssertLessThanOrEqual(loads, 5)
    }
    XCTAssertEqual(range.end, direct.meta.pageableCount)
    let items = try await engine.items(id, start: 0, end: 100)
    XCTAssertEqual(Array(items.prefix(direct.items.count)), direct.items.map(\.json))
    XCTAssertEqual(Set(items.compactMap { $0["id"]?.stringValue }).count, items.count)
  }
}
