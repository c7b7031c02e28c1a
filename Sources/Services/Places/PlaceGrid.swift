/// A uniform grid of longitude/latitude cells over the globe: `cellsPerDegree`
/// cells per degree both ways, rows from the south pole, columns from the
/// antimeridian (180° and -180° share column 0). A cell's number is
/// `row × columns + column`, below 2⁴⁰ for up to 4096 cells per degree.
struct PlaceGrid: Sendable, Hashable {
  /// The finest grid: cells of about 27 × 22 m in Seoul.
  static let maxCellsPerDegree = 4096

  let cellsPerDegree: Int
  /// 360 × cellsPerDegree.
  let columns: Int
  /// 180 × cellsPerDegree.
  let rows: Int
  /// A cell's side in degrees.
  let cellDegrees: Double

  init(cellsPerDegree: Int) {
    let cellsPerDegree = min(max(cellsPerDegree, 1), Self.maxCellsPerDegree)
    self.cellsPerDegree = cellsPerDegree
    columns = 360 * cellsPerDegree
    rows = 180 * cellsPerDegree
    cellDegrees = 1 / Double(cellsPerDegree)
  }

  /// The row of latitude `y`, clamped at the poles.
  @inline(__always)
  func row(_ y: Double) -> Int {
    let unclamped = ((min(max(y, -90), 90) + 90) * Double(cellsPerDegree)).rounded(.down)
    return min(max(Int(unclamped), 0), rows - 1)
  }

  /// The column of longitude `x` (any finite value: it wraps).
  @inline(__always)
  func column(_ x: Double) -> Int {
    let unwrapped = ((x + 180) * Double(cellsPerDegree)).rounded(.down)
    guard unwrapped.magnitude < 1e15 else { return 0 }
    let column = Int(unwrapped) % columns
    return column < 0 ? column + columns : column
  }

  /// The number of the cell holding a point.
  @inline(__always)
  func cell(x: Double, y: Double) -> UInt64 {
    UInt64(row(y) * columns + column(x))
  }

  /// The south-west corner of cell `cell`, in degrees.
  @inline(__always)
  func corner(_ cell: UInt64) -> (west: Double, south: Double) {
    let row = Int(cell) / columns
    let column = Int(cell) - row * columns
    return (Double(column) * cellDegrees - 180, Double(row) * cellDegrees - 90)
  }

  /// How many bits a cell's number needs.
  var cellBits: Int { Int.bitWidth - (rows * columns - 1).leadingZeroBitCount }

  /// Column ranges (one, or two across the antimeridian) from `first` to
  /// `last` going east, or every column; in ascending order.
  func columnRanges(first: Int, last: Int, all: Bool) -> [ClosedRange<Int>] {
    if all { return [0...(columns - 1)] }
    if first <= last { return [first...last] }
    return [0...last, first...(columns - 1)]
  }

  /// The resolution that puts about `target` points in a cell where a typical
  /// point lies: the density is weighted by points (Σ n² / n over the cells
  /// of a coarse grid), so a dense city among sparse countryside gets the
  /// city's resolution.
  static func fitting(_ coarseCounts: [UInt64: Int], coarse: PlaceGrid, target: Double) -> PlaceGrid
  {
    var points = 0.0
    var weighted = 0.0
    for count in coarseCounts.values {
      points += Double(count)
      weighted += Double(count) * Double(count)
    }
    guard points > 0 else { return PlaceGrid(cellsPerDegree: coarse.cellsPerDegree) }
    // Points per square degree around a typical point.
    let density = weighted / points * Double(coarse.cellsPerDegree * coarse.cellsPerDegree)
    return PlaceGrid(cellsPerDegree: Int((density / target).squareRoot().rounded(.up)))
  }
}
