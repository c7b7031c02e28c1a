import Glibc
import Services

/// The same searches through SQLite's own R*Tree module: a bounding-box query
/// on an `rtree` virtual table, joined back to the rows for their exact
/// coordinates, then the daemon's haversine filter and order.
///
/// The table (`rtree.sqlite` beside the places, built once per data set) has
/// three dimensions, the category as the first, so the tree itself skips the
/// other categories. It stores 32-bit floats rounded outwards, so every point
/// of the query's box is found; the exact distance decides the rest. The
/// places file is attached, and both get a page cache large enough to hold
/// them, so SQLite is measured at its best.
final class PlacesRTree {
  private let database: SQLiteDatabase
  private let data: PlacesDataSet

  static let select = """
    SELECT p.key, p.x, p.y FROM place_boxes AS b JOIN places_file.places AS p ON p.key = b.key
    WHERE b.minCategory <= ?1 AND b.maxCategory >= ?1
      AND b.maxX >= ?2 AND b.minX <= ?3 AND b.maxY >= ?4 AND b.minY <= ?5
    """

  init(_ data: PlacesDataSet) throws {
    self.data = data
    let path = data.folder + "/rtree.sqlite"
    let isBuilt = access(path, R_OK) == 0
    database = try SQLiteDatabase(path: path, readOnly: false)
    try database.execute(
      """
      ATTACH DATABASE '\(data.folder)/places.sqlite' AS places_file;
      PRAGMA main.cache_size = -262144;
      PRAGMA places_file.cache_size = -524288;
      """)
    if !isBuilt {
      printError("building the R*Tree of \(data.count) places in \(path) (once)…")
      let ordinal = PlaceCategory.allCases.map { "WHEN '\($0.code)' THEN \($0.rawValue)" }
        .joined(separator: " ")
      try database.execute(
        """
        BEGIN;
        CREATE VIRTUAL TABLE place_boxes USING rtree(
          key, minCategory, maxCategory, minX, maxX, minY, maxY);
        INSERT INTO place_boxes
          SELECT key, c, c, x, x, y, y
          FROM (SELECT key, CASE category_group_code \(ordinal) END AS c, x, y
                FROM places_file.places);
        COMMIT;
        """)
    }
  }

  func search(_ query: PlacesQuery) throws -> PlacesNearestPage {
    // The circle's box: its latitude span, and at its widest the longitude
    // span asin(sin(angle) / cos(latitude)), a hair wider than any rounding.
    let angle = Double(query.radius) / PlaceGeometry.earthRadius
    let degrees = angle / PlaceGeometry.radiansPerDegree + 1e-7
    let ratio = sin(angle) / PlaceGeometry.cosLatitude(query.y)
    let halfWidth = asin(min(ratio, 1)) / PlaceGeometry.radiansPerDegree + 1e-7
    guard query.y + degrees < 90, query.y - degrees > -90, ratio < 1,
      query.x - halfWidth > -180, query.x + halfWidth < 180
    else { throw BenchError.harness("the R*Tree query handles no pole and no antimeridian") }

    var page = PlacesNearestPage()
    let radius = Double(query.radius)
    let cosY = PlaceGeometry.cosLatitude(query.y)
    try database.withStatement(Self.select) { statement in
      try statement.bind([
        .integer(Int64(query.category.rawValue)), .real(query.x - halfWidth),
        .real(query.x + halfWidth), .real(query.y - degrees), .real(query.y + degrees),
      ])
      while try statement.step() {
        let x = try statement.double(1)
        let y = try statement.double(2)
        let metres = PlaceGeometry.distance(
          x1: query.x, y1: query.y, cosY1: cosY, x2: x, y2: y,
          cosY2: PlaceGeometry.cosLatitude(y))
        if metres <= radius {
          page.offer(metres: metres, number: data.numberOfKey[Int(try statement.int64(0))])
        }
      }
    }
    return page
  }
}
