import Glibc
import XCTest

@testable import Services

/// The spatial index against a brute-force haversine scan written here, on
/// random points worldwide and dense clusters, including the antimeridian and
/// the poles.
final class PlaceIndexTests: XCTestCase {

  static let seoul = PlaceCoordinate(x: 126.978, y: 37.5665)
  static let antimeridian = PlaceCoordinate(x: 180, y: -16.5)
  static let northPole = PlaceCoordinate(x: 0, y: 90)
  static let southPole = PlaceCoordinate(x: 0, y: -90)

  /// 100,000 points anywhere, dense clusters in Seoul (mostly restaurants),
  /// on the antimeridian (Fiji) and at both poles, and points exactly on the
  /// antimeridian and the poles.
  static let points: [PlaceIndex.Point] = {
    var random = SplitMix64(seed: 42)
    var points: [PlaceIndex.Point] = []
    func add(_ coordinate: PlaceCoordinate, _ category: PlaceCategory) {
      points.append(PlaceIndex.Point(category: category, x: coordinate.x, y: coordinate.y))
    }
    for _ in 0..<100_000 { add(random.anywhere(), random.category()) }
    for _ in 0..<30_000 {
      add(
        random.near(seoul, metres: 25_000),
        random.unit() < 0.6 ? .restaurant : random.category())
    }
    for center in [antimeridian, northPole, southPole] {
      for _ in 0..<6_000 {
        add(random.near(center, metres: 30_000), random.unit() < 0.5 ? .cafe : random.category())
      }
    }
    for _ in 0..<200 {
      add(
        PlaceCoordinate(x: random.unit() < 0.5 ? 180 : -180, y: random.double(-20...(-13))), .cafe)
      add(PlaceCoordinate(x: random.double(-180...180), y: random.unit() < 0.5 ? 90 : -90), .cafe)
    }
    // Points sharing one position, so distances tie.
    for _ in 0..<50 { add(seoul, .restaurant) }
    return points
  }()

  static let index = PlaceIndex(points)

  /// The answer computed the slow way: every point, the exact test, a full sort.
  static func bruteForce(_ query: PlaceIndex.Query, _ points: [PlaceIndex.Point])
    -> PlaceIndex.Result
  {
    var matches: [(number: Int, distance: Int?)] = []
    for (number, point) in points.enumerated() where point.category == query.category {
      let coordinate = PlaceCoordinate(x: point.x, y: point.y)
      let metres = query.origin.map { PlaceGeometry.distance($0, coordinate) }
      switch query.area {
      case .circle(_, let radius):
        guard let metres, metres <= Double(radius) else { continue }
      case .rect(let rect):
        guard rect.contains(x: point.x, y: point.y) else { continue }
      }
      matches.append((number, metres.map(PlaceGeometry.wholeMetres)))
    }
    if query.sort == .distance, query.origin != nil {
      matches.sort { ($0.distance ?? 0, $0.number) < ($1.distance ?? 0, $1.number) }
    }
    return PlaceIndex.Result(
      totalCount: matches.count,
      hits: matches.prefix(query.limit).map {
        PlaceIndex.Hit(point: $0.number, distance: $0.distance)
      })
  }

  /// A random query: mostly circles near the clusters, some anywhere, some
  /// rectangles (a few across the antimeridian).
  static func randomQuery(_ random: inout SplitMix64) -> PlaceIndex.Query {
    let centers = [seoul, antimeridian, northPole, southPole]
    let center =
      random.unit() < 0.75
      ? random.near(centers[random.int(0...3)], metres: 30_000) : random.anywhere()
    let category: PlaceCategory =
      random.unit() < 0.5 ? (random.unit() < 0.5 ? .restaurant : .cafe) : random.category()
    let sort: PlaceSort = random.unit() < 0.5 ? .distance : .accuracy
    let limit = [1, 15, 45, 45, 1_000_000][random.int(0...4)]
    if random.unit() < 0.25 {
      let width = random.double(0...(random.unit() < 0.2 ? 40 : 0.5))
      let height = random.double(0...(random.unit() < 0.2 ? 20 : 0.4))
      let rect = rect(around: center, width: width, height: height)
      let origin = random.unit() < 0.7 ? center : nil
      return PlaceIndex.Query(
        category: category, area: .rect(rect), origin: origin, sort: sort, limit: limit)
    }
    let radius = random.unit() < 0.1 ? random.int(0...50) : random.int(0...20_000)
    return PlaceIndex.Query(
      category: category, area: .circle(center: center, radius: radius), sort: sort, limit: limit)
  }

  func testMatchesBruteForceOnRandomQueries() {
    var random = SplitMix64(seed: 7)
    var nonEmpty = 0
    var pruned = 0
    for number in 0..<400 {
      let query = Self.randomQuery(&random)
      let expected = Self.bruteForce(query, Self.points)
      let found = Self.index.search(query)
      XCTAssertEqual(found.totalCount, expected.totalCount, "query \(number): \(query)")
      XCTAssertEqual(found.hits, expected.hits, "query \(number): \(query)")
      XCTAssertEqual(Self.index.scan(query), expected, "scan, query \(number): \(query)")
      if expected.totalCount > 0 { nonEmpty += 1 }
      if expected.totalCount > query.limit { pruned += 1 }
    }
    XCTAssertGreaterThan(nonEmpty, 200, "most queries find something")
    XCTAssertGreaterThan(pruned, 100, "many queries find more than they return")
  }

  func testCircleAcrossTheAntimeridianFindsBothSides() {
    let query = PlaceIndex.Query(
      category: .cafe, area: .circle(center: PlaceCoordinate(x: 179.99, y: -16.5), radius: 20_000),
      sort: .distance, limit: 1_000_000)
    let found = Self.index.search(query)
    let xs = found.hits.map { Self.points[$0.point].x }
    XCTAssertTrue(xs.contains { $0 < 0 }, "points west of the antimeridian")
    XCTAssertTrue(xs.contains { $0 > 0 }, "points east of it")
    XCTAssertTrue(xs.contains { $0 == -180 || $0 == 180 }, "points on it")
    XCTAssertEqual(found, Self.bruteForce(query, Self.points))
  }

  func testCircleAroundAPoleFindsEveryLongitude() {
    for center in [PlaceCoordinate(x: 45, y: 89.95), PlaceCoordinate(x: -120, y: -89.9)] {
      let query = PlaceIndex.Query(
        category: .cafe, area: .circle(center: center, radius: 20_000), sort: .distance,
        limit: 1_000_000)
      let found = Self.index.search(query)
      let xs = found.hits.map { Self.points[$0.point].x }
      XCTAssertTrue(xs.contains { $0 < -90 } && xs.contains { $0 > 90 }, "\(center)")
      XCTAssertTrue(found.hits.contains { abs(Self.points[$0.point].y) == 90 }, "the pole itself")
      XCTAssertEqual(found, Self.bruteForce(query, Self.points))
    }
  }

  func testRectAcrossTheAntimeridian() {
    let rect = PlaceRect(minX: 179.8, minY: -17, maxX: -179.8, maxY: -16)
    let query = PlaceIndex.Query(
      category: .cafe, area: .rect(rect), origin: Self.antimeridian, sort: .distance,
      limit: 1_000_000)
    let found = Self.index.search(query)
    XCTAssertGreaterThan(found.totalCount, 100)
    XCTAssertEqual(found, Self.bruteForce(query, Self.points))
    let world = PlaceIndex.Query(
      category: .bank, area: .rect(PlaceRect(minX: -180, minY: -90, maxX: 180, maxY: 90)),
      limit: 45)
    XCTAssertEqual(Self.index.search(world).totalCount, Self.index.count(of: .bank))
  }

  func testEqualDistancesAreOrderedByNumber() {
    let query = PlaceIndex.Query(
      category: .restaurant, area: .circle(center: Self.seoul, radius: 0), sort: .distance,
      limit: 45)
    let found = Self.index.search(query)
    XCTAssertGreaterThanOrEqual(found.totalCount, 50)
    XCTAssertEqual(found.hits.map(\.point), found.hits.map(\.point).sorted())
    XCTAssertTrue(found.hits.allSatisfy { $0.distance == 0 })
  }

  func testGridResolutionsAgree() {
    var random = SplitMix64(seed: 99)
    let points = Array(Self.points.prefix(40_000)) + Self.points.suffix(20_000)
    let indexes = [1, 256, 2_048, PlaceGrid.maxCellsPerDegree].map {
      PlaceIndex(points, cellsPerDegree: $0)
    }
    for _ in 0..<60 {
      let query = Self.randomQuery(&random)
      let expected = Self.bruteForce(query, points)
      for index in indexes {
        XCTAssertEqual(
          index.search(query), expected, "\(index.cellsPerDegree(of: query.category)): \(query)")
      }
    }
  }

  func testDenseCategoriesGetFinerCells() {
    // Restaurants: 18,000 within 25 km of Seoul, about 48 in a 3.6 km cell;
    // banks: 5,500 over the globe and 700 in Seoul.
    let restaurants = Self.index.cellsPerDegree(of: .restaurant)
    let banks = Self.index.cellsPerDegree(of: .bank)
    XCTAssertEqual(restaurants, 31)
    XCTAssertLessThan(banks, restaurants / 2)
    XCTAssertEqual(
      PlaceIndex(Self.points, cellsPerDegree: 100_000).cellsPerDegree(of: .bank),
      PlaceGrid.maxCellsPerDegree)
    XCTAssertEqual(PlaceIndex([]).cellsPerDegree(of: .cafe), 8, "nothing to fit: the coarse grid")
  }

  /// 64,000 restaurants within 2 km of a point of Seoul, all in one cell of
  /// the coarse grid (so their grid fits above 256 cells per degree), 8,000
  /// cafés within 2 km of the antimeridian and of each pole, a few thousand
  /// points anywhere, and points sharing a position.
  static let densePoints: [PlaceIndex.Point] = {
    var random = SplitMix64(seed: 2_048)
    var points: [PlaceIndex.Point] = []
    func add(_ coordinate: PlaceCoordinate, _ category: PlaceCategory) {
      points.append(PlaceIndex.Point(category: category, x: coordinate.x, y: coordinate.y))
    }
    for _ in 0..<64_000 {
      add(random.near(denseCenter, metres: 2_000), random.unit() < 0.9 ? .restaurant : .cafe)
    }
    for center in [antimeridian, northPole, southPole] {
      for _ in 0..<8_000 {
        add(random.near(center, metres: random.unit() < 0.8 ? 2_000 : 200), .cafe)
      }
    }
    for _ in 0..<5_000 { add(random.anywhere(), random.unit() < 0.5 ? .restaurant : .cafe) }
    for _ in 0..<30 { add(denseCenter, .restaurant) }
    return points
  }()

  /// The middle of a cell of the coarse grid, in Seoul.
  static let denseCenter = PlaceCoordinate(x: 126.9375, y: 37.5625)

  func testDenseClustersMatchBruteForceOnFineGrids() {
    let fitted = PlaceIndex(Self.densePoints)
    XCTAssertGreaterThan(fitted.cellsPerDegree(of: .restaurant), 256)
    let indexes = [
      fitted, PlaceIndex(Self.densePoints, cellsPerDegree: 2_048),
      PlaceIndex(Self.densePoints, cellsPerDegree: PlaceGrid.maxCellsPerDegree),
    ]
    var random = SplitMix64(seed: 11)
    var nonEmpty = 0
    var pruned = 0
    for number in 0..<150 {
      let centers = [
        Self.denseCenter, Self.antimeridian, Self.northPole, Self.southPole,
        PlaceCoordinate(x: -179.995, y: -16.49), PlaceCoordinate(x: 30, y: 89.99),
      ]
      let pick = random.int(0...5)
      let center = random.near(centers[pick], metres: 2_500)
      // Restaurants are only in Seoul (and anywhere).
      let category: PlaceCategory = pick == 0 && random.unit() < 0.8 ? .restaurant : .cafe
      let sort: PlaceSort = random.unit() < 0.7 ? .distance : .accuracy
      let limit = [1, 15, 15, 45, 1_000_000][random.int(0...4)]
      let query: PlaceIndex.Query
      if random.unit() < 0.2 {
        let width = random.double(0...0.05)
        let height = random.double(0...0.04)
        let rect = rect(around: center, width: width, height: height)
        query = PlaceIndex.Query(
          category: category, area: .rect(rect), origin: center, sort: sort, limit: limit)
      } else {
        let radius = random.unit() < 0.1 ? random.int(0...30) : random.int(0...4_000)
        query = PlaceIndex.Query(
          category: category, area: .circle(center: center, radius: radius), sort: sort,
          limit: limit)
      }
      let expected = Self.bruteForce(query, Self.densePoints)
      if expected.totalCount > 0 { nonEmpty += 1 }
      if expected.totalCount > query.limit { pruned += 1 }
      for index in indexes {
        let resolution = index.cellsPerDegree(of: category)
        XCTAssertEqual(index.search(query), expected, "query \(number), \(resolution): \(query)")
      }
    }
    XCTAssertGreaterThan(nonEmpty, 100, "most queries find something")
    XCTAssertGreaterThan(pruned, 60, "many queries find more than they return")
  }

  /// Rings of points a few decimetres inside and outside circles of three
  /// radii: a cell taken for wholly inside one of them, or a point decided
  /// by a bound that was short, shows in the count at once.
  func testCirclesCountTheirEdgeToTheDecimetre() {
    let center = Self.denseCenter
    let radii = [300.0, 1_000, 2_500]
    var points: [PlaceIndex.Point] = []
    let metresPerDegree = PlaceGeometry.earthRadius * PlaceGeometry.radiansPerDegree
    for radius in radii {
      for offset in [-0.3, 0.3] {
        for step in 0..<2_000 {
          let bearing = Double(step) / 2_000 * 2 * .pi
          let metres = radius + offset
          points.append(
            PlaceIndex.Point(
              category: .restaurant,
              x: center.x + metres * sin(bearing)
                / (metresPerDegree * PlaceGeometry.cosLatitude(center.y)),
              y: center.y + metres * cos(bearing) / metresPerDegree))
        }
      }
    }
    for cellsPerDegree in [nil, 256, 1_024, 4_096] {
      let index = PlaceIndex(points, cellsPerDegree: cellsPerDegree)
      for radius in radii {
        let query = PlaceIndex.Query(
          category: .restaurant, area: .circle(center: center, radius: Int(radius)), limit: 15)
        let expected = Self.bruteForce(query, points)
        XCTAssertEqual(
          index.search(query), expected,
          "\(radius) m, \(cellsPerDegree.map(String.init) ?? "fitted")")
      }
    }
  }

  func testBadPointsAreLeftOutAndLimitsHold() {
    let index = PlaceIndex([
      PlaceIndex.Point(category: .cafe, x: .nan, y: 10),
      PlaceIndex.Point(category: .cafe, x: 10, y: 10),
      PlaceIndex.Point(category: .cafe, x: 10, y: .infinity),
    ])
    XCTAssertEqual(index.count, 1)
    let query = PlaceIndex.Query(
      category: .cafe, area: .circle(center: PlaceCoordinate(x: 10, y: 10), radius: 10), limit: 0)
    XCTAssertEqual(index.search(query), PlaceIndex.Result(totalCount: 1, hits: []))
    let empty = PlaceIndex([])
    XCTAssertEqual(empty.search(query), PlaceIndex.Result(totalCount: 0, hits: []))
  }

  func testDistancesUseTheMeanEarthRadius() {
    // One degree of a meridian is R·π/180.
    XCTAssertEqual(
      PlaceGeometry.distance(PlaceCoordinate(x: 10, y: 0), PlaceCoordinate(x: 10, y: 1)),
      111_195.08, accuracy: 0.01)
    // Seoul City Hall to Busan City Hall, about 325 km.
    let busan = PlaceCoordinate(x: 129.0756, y: 35.1796)
    XCTAssertEqual(PlaceGeometry.distance(Self.seoul, busan), 325_000, accuracy: 1_500)
    // Across the antimeridian and over the pole.
    XCTAssertEqual(
      PlaceGeometry.distance(PlaceCoordinate(x: 179.5, y: 0), PlaceCoordinate(x: -179.5, y: 0)),
      111_195.08, accuracy: 0.01)
    XCTAssertEqual(
      PlaceGeometry.distance(PlaceCoordinate(x: 0, y: 89.5), PlaceCoordinate(x: 180, y: 89.5)),
      111_195.08, accuracy: 0.01)
    XCTAssertEqual(PlaceGeometry.wholeMetres(10.5), 11)
    XCTAssertEqual(PlaceGeometry.wholeMetres(10.49), 10)
  }
}

/// Draws for the place tests, from the demo data's generator (same seed, same draws).
extension SplitMix64 {

  /// Uniform in [0, 1).
  mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

  mutating func double(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + unit() * (range.upperBound - range.lowerBound)
  }

  mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
  }

  mutating func category() -> PlaceCategory {
    PlaceCategory.allCases[int(0...17)]
  }

  /// A point spread evenly over the sphere.
  mutating func anywhere() -> PlaceCoordinate {
    PlaceCoordinate(x: double(-180...180), y: asin(double(-1...1)) * 180 / .pi)
  }

  /// A point within about `metres` of `center`, longitudes wrapped.
  mutating func near(_ center: PlaceCoordinate, metres: Double) -> PlaceCoordinate {
    let degrees = metres / 111_195
    let y = min(max(center.y + double(-degrees...degrees), -90), 90)
    let stretch = max(cos(center.y * .pi / 180), 0.001)
    var x = center.x + double(-degrees...degrees) / stretch
    while x > 180 { x -= 360 }
    while x < -180 { x += 360 }
    return PlaceCoordinate(x: x, y: y)
  }
}

/// A rectangle of `width` × `height` degrees centred on `center`, wrapped
/// across the antimeridian and clipped at the poles.
private func rect(around center: PlaceCoordinate, width: Double, height: Double) -> PlaceRect {
  var minX = center.x - width / 2
  var maxX = center.x + width / 2
  if minX < -180 { minX += 360 }
  if maxX > 180 { maxX -= 360 }
  return PlaceRect(
    minX: minX, minY: max(center.y - height / 2, -90), maxX: maxX,
    maxY: min(center.y + height / 2, 90))
}
