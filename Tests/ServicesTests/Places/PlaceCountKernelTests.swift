import CPlaceCount
import XCTest

@testable import Services

/// `cplacecount_bounds`, the first pass of the index's count four points at a
/// time, gives the verdicts of the same bounds computed one point at a time
/// in Swift, to the point: the second pass relies on it.
final class PlaceCountKernelTests: XCTestCase {
  func testTheWideBoundsAgreeWithTheScalarOnes() throws {
    try XCTSkipUnless(cplacecount_is_wide() != 0, "this processor has no AVX2")
    var random = SplitMix64(seed: 18)
    let count = 20_003
    let scale = PlaceGeometry.radiansPerDegree * 0.5
    let third = 1.0 / 3
    for _ in 0..<50 {
      let originX: Double = 126 + Double.random(in: 0..<1, using: &random)
      let originY: Double = 37 + Double.random(in: 0..<1, using: &random)
      let originCos = PlaceGeometry.cosLatitude(originY)
      // Points from beside the origin to several degrees away, so that
      // every verdict occurs: inside, outside, near the edge, too far.
      let spread: Double = [0.005, 0.02, 0.2, 6.0].randomElement(using: &random) ?? 0
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
      let (insideTerm, outsideTerm) = (term * (1 - 1e-10), term * (1 + 1e-10))
      let start = Int.random(in: 0..<7, using: &random)
      var expected = (inside: 0, decided: 0)
      for position in start..<count {
        let halfY = (ys[position] - originY) * scale
        let halfX = (xs[position] - originX) * scale
        let squareY = halfY * halfY
        let squareX = halfX * halfX
        let largest = max(squareY, squareX)
        let high = squareY + originCos * cosYs[position] * squareX
        let low = high * (1 - largest * third)
        let isNear = largest <= 0.0025
        let isInside = isNear && high <= insideTerm
        let isOutside = isNear && low > outsideTerm
        expected.inside += isInside ? 1 : 0
        expected.decided += isInside || isOutside ? 1 : 0
      }
      let verdicts = cplacecount_bounds(
        xs, ys, cosYs, Int64(start), Int64(count), originX, originY, originCos, scale, third,
        insideTerm, outsideTerm)
      XCTAssertEqual(Int(verdicts.inside), expected.inside, "spread \(spread), \(metres) m")
      XCTAssertEqual(Int(verdicts.decided), expected.decided, "spread \(spread), \(metres) m")
      XCTAssertGreaterThan(expected.decided, 0)
    }
  }
}
