import XCTest

@testable import Services

/// `PlaceCountBounds`: whole metres from the bounds are those of the exact distance.
final class PlaceCountBoundsTests: XCTestCase {
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
