import FoundationEssentials
import Protocol
import Synchronization
import XCTest

@testable import Services

/// The embedded places backend on a real SQLite file in a temporary folder.
final class PlaceStoreTests: XCTestCase {
  var folder = ""

  override func setUp() {
    folder = FileManager.default.temporaryDirectory.path + "/place-store-tests-\(UUID())"
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: folder)
  }

  static let demoCount = 3_000

  func store(demoCount: Int = demoCount, recheck: Duration = .seconds(60)) -> PlaceStore {
    PlaceStore(path: folder + "/places.sqlite", demoCount: demoCount, recheckInterval: recheck)
  }

  /// Writes `text` to a file of the test folder and returns its path.
  func file(_ name: String, _ text: String) throws -> String {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  static let gangnam = PlaceCoordinate(x: 127.0276, y: 37.4979)

  /// The demo places, with the order the store gives ties (by id).
  static let demo = DemoPlaces.places(count: demoCount)

  /// The expected page of a search over `places`, computed directly.
  static func expected(_ search: PlaceSearch, _ places: [Place]) -> PlaceSearchResult {
    // Ids in the store's order: shorter first, then byte by byte.
    let byID = places.sorted { a, b in
      a.id.unicodeScalars.count != b.id.unicodeScalars.count
        ? a.id.unicodeScalars.count < b.id.unicodeScalars.count
        : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }
    var matches: [Place] = []
    for place in byID where place.category == search.category {
      var place = place
      let metres = search.origin.map { PlaceGeometry.distance($0, place.coordinate) }
      switch search.area {
      case .circle(_, let radius):
        guard let metres, metres <= Double(radius) else { continue }
      case .rect(let rect):
        guard rect.contains(x: place.x, y: place.y) else { continue }
      }
      place.distance = metres.map(PlaceGeometry.wholeMetres)
      matches.append(place)
    }
    if search.sort == .distance {
      // Stable: equal distances keep id order.
      matches = matches.enumerated().sorted { a, b in
        (a.element.distance ?? 0, a.offset) < (b.element.distance ?? 0, b.offset)
      }.map(\.element)
    }
    let window = search.window.clamped(to: 0..<matches.count)
    return PlaceSearchResult(
      items: Array(matches[window]), meta: search.meta(totalCount: matches.count))
  }

  func testAFreshFileHasTheDemoPlacesOfEveryCategory() async throws {
    let store = store()
    let count = try await store.count()
    XCTAssertEqual(count, Self.demoCount)
    for category in PlaceCategory.allCases where category != .largeMart {
      let result = try await store.search(
        PlaceSearch(category: category, x: 126.99, y: 37.55, radius: 20_000))
      XCTAssertGreaterThan(result.meta.totalCount, 0, "\(category.code)")
    }
    let place = try await store.get(id: Self.demo[0].id)
    XCTAssertEqual(place, Self.demo[0])
  }

  func testSearchesMatchADirectComputation() async throws {
    let store = store()
    var random = SplitMix64(seed: 3)
    for _ in 0..<150 {
      let center = random.near(PlaceCoordinate(x: 126.99, y: 37.55), metres: 15_000)
      let category = random.unit() < 0.5 ? PlaceCategory.restaurant : random.category()
      let sort: PlaceSort = random.unit() < 0.5 ? .distance : .accuracy
      let search: PlaceSearch
      if random.unit() < 0.2 {
        let withOrigin = random.unit() < 0.5
        search = try PlaceSearch(
          category: category, x: withOrigin ? center.x : nil, y: withOrigin ? center.y : nil,
          rect: PlaceRect(
            minX: center.x - 0.02, minY: center.y - 0.015, maxX: center.x + 0.02,
            maxY: center.y + 0.015),
          page: random.int(1...4), size: random.int(1...15), sort: withOrigin ? sort : .accuracy)
      } else {
        search = try PlaceSearch(
          category: category, x: center.x, y: center.y, radius: random.int(0...20_000),
          page: random.int(1...5), size: random.int(1...15), sort: sort)
      }
      let found = try await store.search(search)
      XCTAssertEqual(found, Self.expected(search, Self.demo), "\(search)")
    }
  }

  /// Pages are read on the searching threads through one shared connection
  /// (`PlacePageReader`): searches running at once each get their own rows.
  func testConcurrentSearchesEachGetTheirOwnPage() async throws {
    let store = store()
    var random = SplitMix64(seed: 11)
    var searches: [PlaceSearch] = []
    for _ in 0..<60 {
      let center = random.near(PlaceCoordinate(x: 126.99, y: 37.55), metres: 10_000)
      searches.append(
        try PlaceSearch(
          category: random.category(), x: center.x, y: center.y, radius: random.int(500...5_000),
          page: random.int(1...3), sort: .distance))
    }
    let results = try await withThrowingTaskGroup(of: (Int, PlaceSearchResult).self) { group in
      for (offset, search) in searches.enumerated() {
        group.addTask { (offset, try await store.search(search)) }
      }
      var results: [Int: PlaceSearchResult] = [:]
      for try await (offset, result) in group { results[offset] = result }
      return results
    }
    for (offset, search) in searches.enumerated() {
      XCTAssertEqual(results[offset], Self.expected(search, Self.demo), "\(search)")
    }
  }

  /// The page's rows are read afresh at each search (the page reader's cache
  /// holds no stale row): a name changed by another connection shows at once,
  /// though the index is not rebuilt (its coordinates did not change).
  func testAPageShowsRowsAnotherConnectionChanged() async throws {
    let store = store()
    let place = Self.demo[42]
    let search = try PlaceSearch(
      category: place.category, x: place.x, y: place.y, radius: 0, sort: .distance)
    let before = try await store.search(search)
    XCTAssertEqual(before.items.first?.placeName, place.placeName)

    let other = try SQLiteDatabase(path: folder + "/places.sqlite", readOnly: false)
    try other.run(
      "UPDATE places SET place_name = ? WHERE id = ?", [.text("이름 바뀐 곳"), .text(place.id)])
    let after = try await store.search(search)
    XCTAssertEqual(after.items.first?.id, place.id)
    XCTAssertEqual(after.items.first?.placeName, "이름 바뀐 곳")
  }

  func testPagesFollowKakaoPaging() async throws {
    let store = store()
    var seen: [Place] = []
    for page in 1...4 {
      let result = try await store.search(
        PlaceSearch(
          category: .restaurant, x: Self.gangnam.x, y: Self.gangnam.y, page: page, size: 15,
          sort: .distance))
      XCTAssertGreaterThan(result.meta.totalCount, 45)
      XCTAssertEqual(result.meta.pageableCount, 45)
      XCTAssertEqual(result.meta.isEnd, page >= 3, "page \(page)")
      XCTAssertEqual(result.items.count, page <= 3 ? 15 : 0)
      seen += result.items
    }
    XCTAssertEqual(Set(seen.map(\.id)).count, 45)
    let distances = seen.compactMap(\.distance)
    XCTAssertEqual(distances, distances.sorted())
    let last = try await store.search(
      PlaceSearch(
        category: .restaurant, x: Self.gangnam.x, y: Self.gangnam.y, page: 45, size: 1,
        sort: .distance))
    XCTAssertEqual(last.items, [seen[44]], "size 1 pages to the 45th")
    XCTAssertTrue(last.meta.isEnd)
    let past = try await store.search(
      PlaceSearch(category: .restaurant, x: Self.gangnam.x, y: Self.gangnam.y, page: 45))
    XCTAssertEqual(past.items, [])
    XCTAssertTrue(past.meta.isEnd)
    let none = try await store.search(
      PlaceSearch(category: .largeMart, x: 0, y: 0, radius: 20_000))
    XCTAssertEqual(
      none,
      PlaceSearchResult(
        items: [], meta: PlaceSearchMeta(totalCount: 0, pageableCount: 0, isEnd: true)))
  }

  func testUnknownIDIsNotFound() async throws {
    let store = store()
    do {
      _ = try await store.get(id: "no-such-place")
      XCTFail("expected NotFound")
    } catch let error as NotFound {
      XCTAssertEqual(error, NotFound(resource: "place", id: "no-such-place"))
    }
  }

  // MARK: - Import

  func testCSVImportAddsReplacesAndRejectsByLine() async throws {
    let store = store()
    // Build the index first, so that the import must refresh it.
    _ = try await store.search(PlaceSearch(category: .cafe, x: 0, y: 0, radius: 1_000))
    let replaced = Self.demo[10]
    let path = try file(
      "places.csv",
      """
      id,placeName,categoryGroupCode,x,y,phone,addressName,roadAddressName,categoryName,ignored
      p1,"카페 ""따옴표"", 쉼표",CE7,0.001,0.001,02-555-1234,"서울 강남구
      역삼동 1",,음식점 > 카페,zzz
      p2,Missing code,,0.002,0.002,,,,,
      p3,Bad code,XX9,0.002,0.002,,,,,
      p4,Far east,CE7,181,0,,,,,
      p5,Not a number,CE7,abc,0,,,,,
      p6,Too few,CE7,0,0

      \(replaced.id),Moved,CE7,0.003,0.003,,,,,
      ,No id,CE7,0,0,,,,,
      p7,Last,CE7," 0.004 ",0.004,,,,,
      """)
    let reports = Mutex<[PlaceImportProgress]>([])
    let result = try await PlacesService(backend: store).importPlaces(path: path) { progress in
      reports.withLock { $0.append(progress) }
    }
    XCTAssertEqual(result.imported, 3)
    XCTAssertEqual(result.rejectedCount, 6)
    XCTAssertEqual(
      result.rejected,
      [
        PlaceImportRejection(line: 4, reason: "categoryGroupCode is missing"),
        PlaceImportRejection(
          line: 5, reason: "categoryGroupCode \"XX9\" is not a category group code"),
        PlaceImportRejection(line: 6, reason: "x must be a longitude between -180 and 180"),
        PlaceImportRejection(line: 7, reason: "x \"abc\" is not a number"),
        PlaceImportRejection(line: 8, reason: "has 5 fields where the header has 10"),
        PlaceImportRejection(line: 11, reason: "id is missing"),
      ])
    let first = try await store.get(id: "p1")
    XCTAssertEqual(first.placeName, "카페 \"따옴표\", 쉼표")
    XCTAssertEqual(first.addressName, "서울 강남구\n역삼동 1")
    XCTAssertEqual(first.categoryName, "음식점 > 카페")
    XCTAssertEqual(first.phone, "02-555-1234")
    XCTAssertEqual(first.roadAddressName, "")
    let count = try await store.count()
    XCTAssertEqual(count, Self.demoCount + 2, "one row replaced another")

    // The index knows the new places and the moved one.
    let found = try await store.search(
      PlaceSearch(category: .cafe, x: 0, y: 0, radius: 1_000, sort: .distance))
    XCTAssertEqual(found.items.map(\.id), ["p1", replaced.id, "p7"])
    XCTAssertEqual(found.items.map(\.distance), [157, 472, 629])
    XCTAssertEqual(found.items[1].placeName, "Moved")
    let old = try await store.search(
      PlaceSearch(category: replaced.category, x: replaced.x, y: replaced.y, radius: 0))
    XCTAssertFalse(old.items.contains { $0.id == replaced.id })
  }

  func testGeoJSONImportReadsFeaturesWithTheirLines() async throws {
    let store = store(demoCount: 0)
    let path = try file(
      "places.geojson",
      """
      {
        "type": "FeatureCollection",
        "features": [
          {"type": "Feature", "geometry": {"type": "Point", "coordinates": [127.0276, 37.4979]},
           "properties": {"id": "g1", "placeName": "강남역 2호선", "categoryGroupCode": "SW8",
                          "category_name": "교통,수송 > 지하철,전철 > 수도권2호선", "x": 5}},
          {"type": "Feature", "id": 42, "geometry": {"type": "Point", "coordinates": [127.03, 37.5, 12]},
           "properties": {"placeName": "Feature id", "categoryGroupCode": "SW8", "phone": null}},
          {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]},
           "properties": {"id": "g3"}},
          {"type": "Feature", "geometry": {"type": "Point", "coordinates": [0, 95]},
           "properties": {"id": "g4", "placeName": "North", "categoryGroupCode": "SW8"}},
          {"type": "Feature", "geometry": {"type": "Point", "coordinates": [0, 0]},
           "properties": {"id": "g5", "placeName": 5, "categoryGroupCode": "SW8"}},
          {"type": "Feature", "geometry": {"type": "Point", "coordinates": [0, 0]},
           "properties": {"id": "g6", "placeName": "bad", "categoryGroupCode": "SW8", "x": tru}},
          {"type": "Other"}
        ]
      }
      """)
    let result = try await store.importPlaces(path: path) { _ in }
    XCTAssertEqual(result.imported, 2)
    XCTAssertEqual(
      result.rejected,
      [
        PlaceImportRejection(line: 9, reason: "geometry is not a Point"),
        PlaceImportRejection(line: 11, reason: "y must be a latitude between -90 and 90"),
        PlaceImportRejection(line: 13, reason: "placeName is not a string"),
        PlaceImportRejection(
          line: 15, reason: "is not valid JSON (unexpected character '}' at byte 162)"),
        PlaceImportRejection(line: 17, reason: "is not a GeoJSON Feature"),
      ])
    let station = try await store.get(id: "g1")
    XCTAssertEqual(
      station,
      Place(
        id: "g1", placeName: "강남역 2호선", category: .subwayStation,
        categoryName: "교통,수송 > 지하철,전철 > 수도권2호선", x: 127.0276, y: 37.4979))
    let numbered = try await store.get(id: "42")
    XCTAssertEqual(numbered.placeName, "Feature id")
    let found = try await store.search(
      PlaceSearch(category: .subwayStation, x: 127.0276, y: 37.4979, radius: 1_000, sort: .distance)
    )
    XCTAssertEqual(found.items.map(\.id), ["g1", "42"])
  }

  func testAFileThatCannotBeImportedChangesNothing() async throws {
    let store = store()
    let cases: [(String, String, String)] = [
      (
        "no-x.csv", "id,placeName,categoryGroupCode,y\n1,a,CE7,0\n",
        "has a CSV header without x (required: id, placeName, categoryGroupCode, x, y)"
      ),
      ("empty.csv", "", "is an empty file"),
      ("blank.csv", "\n\n", "has no CSV header row"),
      (
        "list.geojson", #"{"type": "FeatureCollection", "features": {}}"#,
        "is not a GeoJSON FeatureCollection: features is not an array (line 1)"
      ),
      (
        "typed.geojson",
        #"{"features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"id": "t", "placeName": "t", "categoryGroupCode": "CE7"}}], "type": "Feature"}"#,
        "is not a GeoJSON FeatureCollection (its type is not \"FeatureCollection\")"
      ),
      (
        "cut.geojson", "{\"type\": \"FeatureCollection\",\n \"features\": [{\"type\": ",
        "is not a GeoJSON FeatureCollection: a bracket is never closed (line 2)"
      ),
    ]
    for (name, text, reason) in cases {
      let path = try file(name, text)
      do {
        _ = try await store.importPlaces(path: path) { _ in }
        XCTFail("\(name) was imported")
      } catch let error as InvalidArgument {
        XCTAssertEqual(
          error, InvalidArgument(field: "path", reason: LocalizedText(template: reason)), name)
      }
    }
    do {
      _ = try await store.importPlaces(path: folder + "/missing.csv") { _ in }
      XCTFail("a missing file was imported")
    } catch let error as InvalidArgument {
      XCTAssertEqual(error.field, "path")
      XCTAssertTrue(error.reason.english.hasPrefix("cannot be opened: "), error.reason.english)
    }
    let count = try await store.count()
    XCTAssertEqual(count, Self.demoCount)
    let typed = try await store.search(
      PlaceSearch(category: .cafe, x: 0, y: 0, radius: 100))
    XCTAssertEqual(typed.meta.totalCount, 0, "the rolled-back rows are not in the index")
  }

  func testCSVEdgeCases() {
    func records(_ text: String) -> [[String]] {
      var bytes = Array(text.utf8)
      return bytes.withUnsafeMutableBytes { buffer in
        var reader = PlaceCSVReader(UnsafeRawBufferPointer(buffer))
        var fields: [String] = []
        var all: [[String]] = []
        while let record = reader.next(into: &fields) {
          all.append(
            fields + (record.isUnterminated ? ["<unterminated>"] : []) + ["@\(record.line)"])
        }
        return all
      }
    }
    XCTAssertEqual(
      records("\u{FEFF}a,b\r\n\r\n\"x\"\"y\",\"multi\r\nline\"\n,\nlast"),
      [["a", "b", "@1"], ["x\"y", "multi\r\nline", "@3"], ["", "", "@5"], ["last", "@6"]])
    XCTAssertEqual(records("a\"b,\"c\"d\n\"\"\n"), [["a\"b", "cd", "@1"], ["", "@2"]])
    XCTAssertEqual(records("a,\"open\nstill"), [["a", "open\nstill", "<unterminated>", "@1"]])
    XCTAssertEqual(records("one\rtwo\r"), [["one", "@1"], ["two", "@2"]])
  }

  func testLargeImportReportsProgressAndIsFast() async throws {
    let store = store(demoCount: 0)
    var text = "id,placeName,categoryGroupCode,x,y,phone,addressName\n"
    DemoPlaces.generate(count: 25_000, seed: 9) { place in
      text += "\(place.id),\(place.placeName),\(place.category.code),\(place.x),\(place.y),"
      text += "\(place.phone),\(place.addressName)\n"
    }
    let path = try file("big.csv", text)
    let reports = Mutex<[PlaceImportProgress]>([])
    let started = ContinuousClock.now
    let result = try await store.importPlaces(path: path) { progress in
      reports.withLock { $0.append(progress) }
    }
    let elapsed = started.duration(to: .now)
    XCTAssertEqual(result.imported, 25_000)
    XCTAssertEqual(result.rejected, [])
    let seen = reports.withLock { $0 }
    XCTAssertEqual(seen.map(\.rows), [10_000, 20_000])
    XCTAssertEqual(seen.map(\.percentage), seen.map(\.percentage).sorted())
    XCTAssertLessThan(elapsed, .seconds(20), "debug build")
    let count = try await store.count()
    XCTAssertEqual(count, 25_000)
  }

  func testAnotherProcessesImportIsNoticed() async throws {
    let first = store(recheck: .zero)
    let before = try await first.search(
      PlaceSearch(category: .bank, x: 10, y: 10, radius: 100))
    XCTAssertEqual(before.meta.totalCount, 0)
    let second = store()
    let path = try file("bank.csv", "id,placeName,categoryGroupCode,x,y\nb1,Bank,BK9,10,10\n")
    _ = try await second.importPlaces(path: path) { _ in }
    let after = try await first.search(
      PlaceSearch(category: .bank, x: 10, y: 10, radius: 100))
    XCTAssertEqual(after.items.map(\.id), ["b1"])
  }

  func testTheDefaultDemoIsFiftyThousandPlacesMadeQuickly() async throws {
    let store = PlaceStore(path: folder + "/places.sqlite")
    let started = ContinuousClock.now
    try await store.open()
    let opened = started.duration(to: .now)
    let count = try await store.count()
    XCTAssertEqual(count, 50_000)
    XCTAssertLessThan(opened, .seconds(15), "debug build; about 0.5 s in release")
    let loaded = try await store.loadedIndex()
    XCTAssertEqual(loaded.index.count, 50_000)
    var perCategory: [PlaceCategory: Int] = [:]
    for category in PlaceCategory.allCases {
      perCategory[category] = loaded.index.count(of: category)
    }
    XCTAssertGreaterThan(perCategory[.restaurant] ?? 0, 15_000)
    XCTAssertGreaterThan(perCategory[.subwayStation] ?? 0, 100)
    XCTAssertTrue(perCategory.values.allSatisfy { $0 > 100 }, "\(perCategory)")
  }
}
