import CPlaceCount

/// Bounds on the haversine term `a` of a point's distance from a circle's
/// centre (`terms`), and the first pass of the index's count of an edge
/// cell's points (`PlaceIndex.Matcher.count`): for each point, the bounds
/// decide whether it is certainly inside the circle, certainly outside, or
/// neither (then the exact distance decides, in a second pass). The same
/// bounds give a page's whole metres for most points (`wholeMetres`).
///
/// Without a branch per point: whether an edge cell's point is inside is a
/// coin toss the processor cannot predict, so every point's verdict is
/// computed and the verdicts added up. On an x86-64 processor with AVX2 the
/// pass runs four points at a time in C (`cplacecount_bounds`), which a
/// Swift build for the baseline x86-64 cannot do: the same operations in the
/// same order, so the same verdicts.
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
  /// Whether `cplacecount_bounds` runs on this processor.
  static let isWide = cplacecount_is_wide() != 0

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

  /// Whether the bounds put the point inside, and whether they decide it at
  /// all: 1 or 0 each.
  @inline(__always)
  func verdict(x: Double, y: Double, cosY: Double) -> (inside: Int, decided: Int) {
    let terms = terms(x: x, y: y, cosY: cosY)
    // Integers combined with `&` and `|`, not `&&` and `||`, which branch.
    let isNear = terms.isNear ? 1 : 0
    let isInside = isNear & (terms.high <= insideTerm ? 1 : 0)
    let isOutside = isNear & (terms.low > outsideTerm ? 1 : 0)
    return (isInside, isInside | isOutside)
  }

  /// The verdicts of `positions` added up: how many the bounds put inside,
  /// and how many they decide. `wide` is for tests.
  func verdicts(
    xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>,
    cosYs: UnsafeBufferPointer<Double>, positions: Range<Int>, wide: Bool = Self.isWide
  ) -> (inside: Int, decided: Int) {
    if wide, let x = xs.baseAddress, let y = ys.baseAddress, let cosY = cosYs.baseAddress {
      let verdicts = cplacecount_bounds(
        x, y, cosY, Int64(positions.lowerBound), Int64(positions.upperBound), originX, originY,
        originCos, Self.scale, Self.third, insideTerm, outsideTerm)
      return (Int(verdicts.inside), Int(verdicts.decided))
    }
    var inside = 0
    var decided = 0
    for position in positions {
      let verdict = verdict(x: xs[position], y: ys[position], cosY: cosYs[position])
      inside &+= verdict.inside
      decided &+= verdict.decided
    }
    return (inside, decided)
  }
}
