import Glibc

/// A position on the Earth: `x` is the longitude and `y` the latitude, in
/// degrees, as Kakao Local names them.
public struct PlaceCoordinate: Sendable, Hashable {
  /// Longitude, -180…180.
  public var x: Double
  /// Latitude, -90…90.
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// Whether both numbers are finite and in range.
  public var isValid: Bool {
    x.isFinite && y.isFinite && (-180...180).contains(x) && (-90...90).contains(y)
  }
}

/// A longitude/latitude rectangle: `[minX, minY, maxX, maxY]` on the wire.
///
/// `minX > maxX` means the rectangle crosses the antimeridian: `[170, -10,
/// -170, 10]` holds longitudes 170…180 and -180…-170. Edges are inclusive.
public struct PlaceRect: Sendable, Hashable {
  public var minX: Double
  public var minY: Double
  public var maxX: Double
  public var maxY: Double

  public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
    self.minX = minX
    self.minY = minY
    self.maxX = maxX
    self.maxY = maxY
  }

  /// Whether the rectangle crosses the antimeridian.
  public var wrapsAround: Bool { minX > maxX }

  /// Whether `x`/`y` lies inside or on an edge.
  @inline(__always)
  public func contains(x: Double, y: Double) -> Bool {
    guard y >= minY, y <= maxY else { return false }
    return minX <= maxX ? (x >= minX && x <= maxX) : (x >= minX || x <= maxX)
  }
}

/// Great-circle distances on a sphere of the Earth's mean radius.
///
/// The haversine formula, with R = 6,371,008.8 m (the IUGG mean radius, which
/// Kakao and most map services use to within a few metres at city scale; the
/// ellipsoid differs from it by at most 0.5 %). Every distance the service
/// reports, filters on or sorts by comes from `distance`, so the spatial index,
/// the brute-force scan and the tests agree to the last bit.
public enum PlaceGeometry {
  /// The Earth's mean radius in metres.
  public static let earthRadius = 6_371_008.8
  /// Degrees to radians.
  public static let radiansPerDegree = Double.pi / 180

  /// The cosine of latitude `y` (degrees), as `distance` takes it: the index
  /// stores it per point so a query computes it once per point, never again.
  @inline(__always)
  public static func cosLatitude(_ y: Double) -> Double {
    cos(y * radiansPerDegree)
  }

  /// The distance in metres between two points, unrounded, given with the
  /// cosines of their latitudes (`cosLatitude`). Longitudes need no
  /// normalizing: 179.9 and -179.9 are 0.2° apart.
  @inline(__always)
  public static func distance(
    x1: Double, y1: Double, cosY1: Double, x2: Double, y2: Double, cosY2: Double
  ) -> Double {
    let halfLatitude = sin((y2 - y1) * radiansPerDegree * 0.5)
    let halfLongitude = sin((x2 - x1) * radiansPerDegree * 0.5)
    let a = halfLatitude * halfLatitude + cosY1 * cosY2 * (halfLongitude * halfLongitude)
    return 2 * earthRadius * asin(min(1, a.squareRoot()))
  }

  /// The distance in metres between two points, unrounded.
  public static func distance(_ from: PlaceCoordinate, _ to: PlaceCoordinate) -> Double {
    distance(
      x1: from.x, y1: from.y, cosY1: cosLatitude(from.y), x2: to.x, y2: to.y,
      cosY2: cosLatitude(to.y))
  }

  /// A distance as the API reports it: whole metres, halves rounded up.
  @inline(__always)
  public static func wholeMetres(_ metres: Double) -> Int {
    Int(metres.rounded(.toNearestOrAwayFromZero))
  }
}
