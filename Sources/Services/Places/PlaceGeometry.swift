import Glibc

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

  /// A difference of longitudes (degrees, within a turn and a half) as the
  /// same difference within -180...180: east of the antimeridian is 360°
  /// west of it.
  @inline(__always)
  public static func wrappedLongitude(_ degrees: Double) -> Double {
    degrees > 180 ? degrees - 360 : degrees < -180 ? degrees + 360 : degrees
  }

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
