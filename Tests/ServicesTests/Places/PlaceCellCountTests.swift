import CPlaceCount
import XCTest

@testable import Services

/// `PlaceCellCount`, the first pass of the count of an edge cell: what its
/// bounds decide agrees with each point's exact distance (it may leave a
/// point undecided, never decide one wrongly), it decides nearly all, and
/// the pass eight points at a time in C (`cplacecount_cells`) gives the same
/// verdicts as the Swift loop, to the point.
final class PlaceCellCountTests: XCTestCase {
  struct Case {
    let origin: PlaceCoordinate
    let radius: Double
    let grid: PlaceGrid
    let corner: (west: Double, south: Double)
    let xs: [Double]
    let ys: [Double]
  }

  /// A circle, and the points of a cell its edge crosses: spread over the
  /// cell, on its four edges, and within a few steps of an offset from the
  /// circle (close calls, where the offsets' rounding matters).
  static func edgeCell(_ random: inout SplitMix64) -> Case {
    let origin =
      random.int(0...3) == 0
      ? random.anywhere()
      : PlaceCoordinate(x: random.double(126.7...127.2), y: random.double(37.4...37.7))
    let radius = Double(random.int(0...20_000))
    let grid = PlaceGrid(cellsPerDegree: [1, 8, 100, 300, 1_000, 4_096][random.int(0...5)])
    // A point on the circle, and the cell that holds it.
    let onEdge = random.near(origin, metres: 0)
    let bearing = random.double(0...(2 * .pi))
    let degrees = radius / PlaceGeometry.earthRadius / PlaceGeometry.radiansPerDegree
    var x = onEdge.x + degrees * sin(bearing) / max(PlaceGeometry.cosLatitude(onEdge.y), 0.01)
    if x > 180 { x -= 360 } else if x < -180 { x += 360 }
    let y = min(max(onEdge.y + degrees * cos(bearing), -90), 90)
    let corner = grid.corner(grid.cell(x: x, y: y))
    var xs: [Double] = []
    var ys: [Double] = []
    let north = min(corner.south + grid.cellDegrees, 90)
    let east = corner.west + grid.cellDegrees
    for number in 0..<4_099 {
      var fraction = (random.unit(), random.unit())
      switch number % 8 {
      case 0: fraction.0 = 0
      case 1: fraction.1 = 0
      case 2: fraction.0 = 1
      case 3: fraction.1 = 1
      case 4, 5, 6:
        let step = grid.cellDegrees / PlaceCellCount.steps
        fraction = (
          (x - corner.west + random.double(-4...4) * step) / grid.cellDegrees,
          (y - corner.south + random.double(-4...4) * step) / grid.cellDegrees
        )
      default: break
      }
      // Clamped as the index clamps, and kept in the cell as the grid finds it.
      let px = min(corner.west + fraction.0 * (east - corner.west), 180)
      let py = min(corner.south + fraction.1 * (north - corner.south), 90)
      guard grid.cell(x: px, y: py) == grid.cell(x: x, y: y) else { continue }
      xs.append(px)
      ys.append(py)
    }
    return Case(origin: origin, radius: radius, grid: grid, corner: corner, xs: xs, ys: ys)
  }

  static func counter(_ test: Case) -> PlaceCellCount {
    let half = sin(min(test.radius / (2 * PlaceGeometry.earthRadius), .pi / 2))
    let term = half * half
    return PlaceCellCount(
      PlaceCountBounds(
        originX: test.origin.x, originY: test.origin.y,
        originCos: PlaceGeometry.cosLatitude(test.origin.y), insideTerm: term * (1 - 1e-10),
        outsideTerm: term * (1 + 1e-10)), cellDegrees: test.grid.cellDegrees)
  }

  static func span(_ test: Case, _ counter: PlaceCellCount, _ positions: Range<Int>)
    -> cplacecount_span
  {
    counter.span(
      counter.row(south: test.corner.south), west: test.corner.west, positions: positions)
  }

  func testTheBoundsNeverDecideAPointWrongly() {
    var random = SplitMix64(seed: 18)
    var points = 0
    var undecided = 0
    for _ in 0..<400 {
      let test = Self.edgeCell(&random)
      let counter = Self.counter(test)
      let cell = Self.span(test, counter, 0..<test.xs.count)
      let originCos = PlaceGeometry.cosLatitude(test.origin.y)
      for (x, y) in zip(test.xs, test.ys) {
        let offset = PlaceCellCount.pack(
          x: x, y: y, west: test.corner.west, south: test.corner.south,
          cellDegrees: test.grid.cellDegrees)
        let exact =
          PlaceGeometry.distance(
            x1: test.origin.x, y1: test.origin.y, cosY1: originCos, x2: x, y2: y,
            cosY2: PlaceGeometry.cosLatitude(y)) <= test.radius
        points += 1
        guard let verdict = counter.verdict(offset, cell) else {
          undecided += 1
          continue
        }
        XCTAssertEqual(
          verdict, exact,
          "(\(x), \(y)) from \(test.origin), \(test.radius) m, \(test.grid.cellsPerDegree)/°")
      }
    }
    // Three points in eight are close calls on purpose; nearly all the others are decided.
    XCTAssertLessThan(Double(undecided), Double(points) * 0.45, "\(undecided) of \(points)")
  }

  func testTheWideAndTheNarrowPassAgree() throws {
    try XCTSkipUnless(PlaceCellCount.isWide, "this processor has no AVX2")
    var random = SplitMix64(seed: 27)
    for _ in 0..<200 {
      let test = Self.edgeCell(&random)
      let counter = Self.counter(test)
      let offsets = zip(test.xs, test.ys).map { x, y in
        PlaceCellCount.pack(
          x: x, y: y, west: test.corner.west, south: test.corner.south,
          cellDegrees: test.grid.cellDegrees)
      }
      // Spans of 0 to 40 points, so that the wide loop leaves remainders,
      // and gaps between them.
      var spans: [cplacecount_span] = []
      var start = random.int(0...6)
      while start < offsets.count {
        let end = min(start + random.int(0...40), offsets.count)
        spans.append(Self.span(test, counter, start..<end))
        start = end + random.int(0...3)
      }
      var wideUndecided = [Int32](repeating: -1, count: offsets.count)
      var narrowUndecided = wideUndecided
      let (wide, narrow) = offsets.withUnsafeBufferPointer { offsets in
        spans.withUnsafeBufferPointer { spans in
          (
            wideUndecided.withUnsafeMutableBufferPointer {
              counter.count(offsets, spans, undecided: $0, wide: true)
            },
            narrowUndecided.withUnsafeMutableBufferPointer {
              counter.count(offsets, spans, undecided: $0, wide: false)
            }
          )
        }
      }
      let label = "\(test.origin), \(test.radius) m, \(test.grid.cellsPerDegree)/°"
      XCTAssertEqual(wide.inside, narrow.inside, label)
      XCTAssertEqual(wide.undecided, narrow.undecided, label)
      XCTAssertEqual(wideUndecided, narrowUndecided, label)
    }
  }
}
