/// Bounds on the haversine term `a` of a point's distance from a circle's
/// centre (`terms`), made of the half angles alone, and the terms of the
/// circle's radius they are compared with: a search decides most points of
/// its page's cells with them (`PlaceIndex.Matcher.bounds`) and, for most
/// points, their whole metres (`wholeMetres`); the count of a circle's edge
/// cells takes its terms from here (`PlaceCellCount`).
struct PlaceCountBounds {
  let originX: Double
  let originY: Double
  let originCos: Double
  /// `a` at most this is certainly within the radius.
  let insideTerm: Double
  /// `a` above this is certainly beyond it.
  let outsideTerm: Double

  /// Half a degree in radians.
  static let scale = PlaceGeometry.radiansPerDegree * 0.5
  /// A multiplication, not a division, in the lower bound: its rounding is
  /// far inside the margins.
  static let third = 1.0 / 3

  /// Bounds on the point's haversine term, `low` ≤ `a` ≤ `high`, made of the
  /// half angles alone (sin²t ≤ t² and sin²t ≥ t²(1 − t²/3)); they hold when
  /// `isNear`: both half angles under 0.05 rad (about 5.7° apart).
  @inline(__always)
  func terms(x: Double, y: Double, cosY: Double) -> (low: Double, high: Double, isNear: Bool) {
    let halfY = (y - originY) * Self.scale
    let halfX = (x - originX) * Self.scale
    let squareY = halfY * halfY
    let squareX = halfX * halfX
    let largest = max(squareY, squareX)
    let high = squareY + originCos * cosY * squareX
    return (high * (1 - largest * Self.third), high, largest <= 0.0025)
  }

  /// The whole metres of a point's distance, as `PlaceGeometry.wholeMetres`
  /// gives them for its exact distance, from bounds on its term `a` alone
  /// when they settle them; else nil. The distance is 2R·asin(√a), and for
  /// 0 ≤ x ≤ 0.1, x + x³/6 ≤ asin x ≤ x + x³/6 + x⁵/10 (the series' other
  /// terms are positive and add up to less than 0.076·x⁵): the distance is
  /// bounded by a square root instead of two sines and an arc sine. Ends
  /// widened by a relative 1e-9 that round to the same metre settle it.
  static func wholeMetres(low: Double, high: Double) -> Int? {
    let near = low.squareRoot()
    let far = high.squareRoot()
    guard far <= 0.1 else { return nil }
    let diameter = 2 * PlaceGeometry.earthRadius
    let nearest = diameter * (near + near * near * near / 6) * (1 - 1e-9)
    let farSquare = far * far
    let farthest = diameter * far * (1 + farSquare / 6 + farSquare * farSquare / 10) * (1 + 1e-9)
    let metres = PlaceGeometry.wholeMetres(nearest)
    return metres == PlaceGeometry.wholeMetres(farthest) ? metres : nil
  }
}
