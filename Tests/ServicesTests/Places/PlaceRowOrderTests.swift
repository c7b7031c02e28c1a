import FoundationEssentials
import XCTest

@testable import Services

/// Rows new to a places file are laid out by category and along a Z-order
/// curve; rows already there keep their keys; the last of an id wins.
final class PlaceRowOrderTests: XCTestCase {
  private var folder: TestFolder!

  override func setUpWithError() throws {
    folder = try TestFolder.make("place-row-order")
  }

  override func tearDown() {
    folder.delete()
  }

  func testZOrderInterleavesColumnAndRowBits() {
    let step = 1.0 / 65_536
    XCTAssertEqual(PlaceRowOrder.zOrder(x: -180, y: -90), 0)
    XCTAssertEqual(PlaceRowOrder.zOrder(x: -180 + step, y: -90), 1)
    XCTAssertEqual(PlaceRowOrder.zOrder(x: -180, y: -90 + step), 2)
    XCTAssertEqual(PlaceRowOrder.zOrder(x: -180 + 3 * step, y: -90 + 3 * step), 15)
    XCTAssertEqual(PlaceRowOrder.zOrder(x: -180 + 4 * step, y: -90), 16)
    // The far corner: 25 column bits and 24 row bits, all set.
    let corner = PlaceRowOrder.zOrder(x: 180, y: 90)
    XCTAssertEqual(corner, PlaceRowOrder.zOrder(x: 500, y: 100), "clamped")
    XCTAssertGreaterThan(corner, 0)
    XCTAssertLessThan(corner, 1 << 52)
  }

  /// Each row's (category, Z-order) by key.
  func layout(_ store: PlaceStore) throws -> [(key: Int64, category: String, z: Int64, id: String)]
  {
    let database = try SQLiteDatabase(path: store.path, readOnly: true)
    return try database.query("SELECT key, category_group_code, x, y, id FROM places ORDER BY key")
    { row in
      (
        try row.int64(0), try row.text(1),
        PlaceRowOrder.zOrder(x: try row.double(2), y: try row.double(3)), try row.text(4)
      )
    }
  }

  func testAFreshFileAndAnImportLayOutNewRowsInOrderAndKeepOldKeys() async throws {
    let store = PlaceStore(path: folder.absolute("places.sqlite"), demoCount: 2_000)
    try await store.open()
    let demo = try layout(store)
    XCTAssertEqual(demo.count, 2_000)
    XCTAssertTrue(
      zip(demo, demo.dropFirst()).allSatisfy { ($0.category, $0.z) <= ($1.category, $1.z) },
      "the demo places are in order")

    // New places listed in a shuffled order, and a demo place moved far away.
    var generator = SystemRandomNumberGenerator()
    let fresh = DemoPlaces.places(count: 3_000).dropFirst(2_000).shuffled(using: &generator)
    let moved = demo[500]
    var text = "id,placeName,categoryGroupCode,x,y\n"
    for place in fresh {
      text += "\(place.id),\(place.placeName),\(place.category.code),\(place.x),\(place.y)\n"
    }
    text += "\(moved.id),Moved,\(moved.category),0.5,0.5\n"
    try text.write(toFile: folder.absolute("more.csv"), atomically: true, encoding: .utf8)
    let result = try await store.importPlaces(path: folder.absolute("more.csv")) { _ in }
    XCTAssertEqual(result.imported, 1_001)

    let after = try layout(store)
    XCTAssertEqual(after.count, 3_000)
    let (old, new) = (after.prefix(2_000), after.dropFirst(2_000))
    XCTAssertEqual(old.map(\.key), demo.map(\.key), "keys never move")
    XCTAssertEqual(old.map(\.id), demo.map(\.id))
    XCTAssertEqual(old[500].z, PlaceRowOrder.zOrder(x: 0.5, y: 0.5), "updated in place")
    XCTAssertEqual(Set(new.map(\.id)), Set(fresh.map(\.id)))
    XCTAssertTrue(
      zip(new, new.dropFirst()).allSatisfy { ($0.category, $0.z) <= ($1.category, $1.z) },
      "the imported places are in order, whatever the file's")
  }

  func testTheLastRowOfAnIDInAFileWins() async throws {
    let store = PlaceStore(path: folder.absolute("places.sqlite"), demoCount: 0)
    // The second p1 lies before the first along the curve: file order decides, not layout.
    try """
    id,placeName,categoryGroupCode,x,y
    p1,First,CE7,10,10
    p2,Other,CE7,10.001,10
    p1,Second,CE7,-10,-10
    """.write(toFile: folder.absolute("dup.csv"), atomically: true, encoding: .utf8)
    let result = try await store.importPlaces(path: folder.absolute("dup.csv")) { _ in }
    XCTAssertEqual(result.imported, 3)
    let count = try await store.count()
    XCTAssertEqual(count, 2)
    let place = try await store.get(id: "p1")
    XCTAssertEqual(place.placeName, "Second")
    XCTAssertEqual(place.x, -10)
  }
}
