import XCTest

@testable import Services

/// `PlaceCountBounds.verdicts` four points at a time in C (`cplacecount_bounds`)
/// and one at a time in Swift give the same verdicts, to the point: the
/// second pass of the count relies on it.
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
}
