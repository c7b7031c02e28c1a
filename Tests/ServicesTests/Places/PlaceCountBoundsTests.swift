import XCTest

@testable import Services

/// `PlaceCountBounds.verdicts` four points at a time in C (`cplacecount_bounds`)
/// and one at a time in Swift give the same verdicts, to the point: the
/// second pass of the count relies on it. Whole metres from the bounds are
/// those of the exact distance.
final class PlaceCountBoundsTests: XCTestCase {
  func testTheWideAndTheNarrowPassAgree() throws {
    try XCTSkipUnless(PlaceCountBounds.isWide, "this processor has no AVX2")
    var random = SplitMix64(seed: 18)
    let count = 20_003
    for _ in 0..<50 {
      let originX: Double = 126 + Double.random(in: 0..<1, using: &random)
      let originY: Double = 37 + Double.random(in: 0..<1, using: &random)
      // Points from beside the origin to beyond the bounds' reach (15°, half
      // angles over 0.05 rad), so that every verdict occurs: inside,
      // outside, near the edge, too far.
      let spread: Double = [0.005, 0.02, 0.2, 6.0, 30.0].randomElement(using: &random) ?? 0
      var xs: [Double] = []
      var ys: [Double] = []
      for _ in 0..<count {
        xs.append(originX + (Double.random(in: 0..<1, using: &random) - 0.5) * spread)
        ys.append(originY + (Double.random(in: 0..<1, using: &random) - 0.5) * spread)
      }
      let cosYs = ys.map(PlaceGeometry.cosLatitude)
      let metres = Double(Int.random(in: 0..<3_000, using: &random))
      let half = sin(metres / (2 * PlaceGeometry.earthRadius))
      let term = half * half
      let bounds = PlaceCountBounds(
        originX: originX, originY: originY, originCos: PlaceGeometry.cosLatitude(originY),
        insideTerm: term * (1 - 1e-10), outsideTerm: term * (1 + 1e-10))
      // Starts and ends that leave the wide loop a remainder.
      let positions =
        Int.random(in: 0..<7, using: &random)..<(count - Int.random(in: 0..<3, using: &random))
      let (wide, narrow) = xs.withUnsafeBufferPointer { xs in
        ys.withUnsafeBufferPointer { ys in
          cosYs.withUnsafeBufferPointer { cosYs in
            (
              bounds.verdicts(xs: xs, ys: ys, cosYs: cosYs, positions: positions, wide: true),
              bounds.verdicts(xs: xs, ys: ys, cosYs: cosYs, positions: positions, wide: false)
            )
          }
        }
      }
      XCTAssertEqual(wide.inside, narrow.inside, "spread \(spread), \(metres) m")
      XCTAssertEqual(wide.decided, narrow.decided, "spread \(spread), \(metres) m")
      XCTAssertGreaterThan(narrow.decided, 0)
    }
  }

  /// Whole metres from the bounds are those of the exact distance, on
  /// points half a metre from a whole one give or take a hair (due north of
  /// the origin, where the distance is the latitude's offset), and on
  /// points anywhere near; and the bounds settle nearly all of the latter.
  func testWholeMetresFromTheBoundsAreThoseOfTheExactDistance() {
    var random = SplitMix64(seed: 45)
    var settled = 0
    var tried = 0
    for _ in 0..<20_000 {
      let originX = random.double(126...127.5)
      let originY = random.double(33...38.5)
      let originCos = PlaceGeometry.cosLatitude(originY)
      let bounds = PlaceCountBounds(
        originX: originX, originY: originY, originCos: originCos, insideTerm: 0, outsideTerm: 0)
      let metres =
        Double(random.int(0...20_000)) + 0.5
        + [0, 1e-9, -1e-9, 1e-7, -1e-7, 1e-4, -1e-4].randomElement(using: &random)!
      let onMeridian = (
        originX, originY + metres / PlaceGeometry.earthRadius / PlaceGeometry.radiansPerDegree
      )
      let near = random.near(PlaceCoordinate(x: originX, y: originY), metres: 20_000)
      for (x, y) in [onMeridian, (near.x, near.y)] {
        let cosY = PlaceGeometry.cosLatitude(y)
        let terms = bounds.terms(x: x, y: y, cosY: cosY)
        let exact = PlaceGeometry.wholeMetres(
          PlaceGeometry.distance(
            x1: originX, y1: originY, cosY1: originCos, x2: x, y2: y, cosY2: cosY))
        guard terms.isNear,
          let whole = PlaceCountBounds.wholeMetres(low: terms.low, high: terms.high)
        else { continue }
        XCTAssertEqual(whole, exact, "(\(x), \(y)) from (\(originX), \(originY))")
        if x == near.x, y == near.y { settled += 1 }
      }
      tried += 1
    }
    XCTAssertGreaterThan(settled, tried * 99 / 100)
  }
}
