import Glibc

/// Seoul's 467 법정동 as polygons (`DemoSeoulDongs.swift`, derived from NGII's
/// boundaries by scripts/derive-seoul-dongs), and which of them holds a point.
///
/// The stored polygons are simplified, so a point close to an edge may lie on
/// the other side of the real boundary. `dong(x:y:)` therefore answers only for
/// points at least `margin` metres inside a polygon: the derivation script
/// proves those lie inside the original 법정동 too. A grid of cells, each with
/// the 동 whose bounding box meets it, keeps a lookup to a few small polygons,
/// as a million demo places are placed for the benchmarks.
struct DemoSeoulMap: Sendable {
  struct Dong: Sendable {
    /// The 법정동 code, `11140102`.
    let code: String
    /// `중구`.
    let gu: String
    /// `태평로1가`.
    let name: String
    /// The vertices of all rings, in metres from the origin.
    let xs: [Double]
    let ys: [Double]
    /// Where each ring starts in `xs`/`ys`, and its end (one past the last vertex).
    let rings: [Range<Int>]
    let minX: Double
    let minY: Double
    let maxX: Double
    let maxY: Double
  }

  /// How far inside a polygon a point must be, in metres (the script proves it).
  static let margin = 20.0
  /// The corner the stored integers count from, and their unit, as the script writes them.
  static let origin = (x: 126.7, y: 37.4)
  static let unit = 1e-5
  /// The script's metric projection: metres per degree, east-west at its reference latitude.
  static let metresPerDegreeY = 111_195.0
  static let metresPerDegreeX = 111_195.0 * cos(37.55 * Double.pi / 180)

  static let shared = DemoSeoulMap(text: demoSeoulDongsText)

  let dongs: [Dong]
  private static let cellSize = 250.0
  private let columns: Int
  private let rows: Int
  /// The 동 of cell `c` are `cellDongs[cellStarts[c]..<cellStarts[c + 1]]`.
  private let cellStarts: [Int32]
  private let cellDongs: [Int16]

  init(text: String) {
    var dongs: [Dong] = []
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
      guard fields.count == 4 else { continue }
      dongs.append(Self.dong(code: fields[0], gu: fields[1], name: fields[2], parts: fields[3]))
    }
    self.dongs = dongs
    let columns = Int((dongs.map(\.maxX).max() ?? 0) / Self.cellSize) + 1
    let rows = Int((dongs.map(\.maxY).max() ?? 0) / Self.cellSize) + 1
    var lists = [[Int16]](repeating: [], count: columns * rows)
    for (index, dong) in dongs.enumerated() {
      for row in Int(dong.minY / Self.cellSize)...Int(dong.maxY / Self.cellSize) {
        for column in Int(dong.minX / Self.cellSize)...Int(dong.maxX / Self.cellSize) {
          lists[row * columns + column].append(Int16(index))
        }
      }
    }
    var starts: [Int32] = [0]
    starts.reserveCapacity(lists.count + 1)
    for list in lists { starts.append(starts[starts.count - 1] + Int32(list.count)) }
    self.columns = columns
    self.rows = rows
    cellStarts = starts
    cellDongs = lists.flatMap { $0 }
  }

  /// The 동 holding the point `x`/`y` (degrees) at least `margin` inside, if any.
  func dong(x: Double, y: Double) -> Int? {
    let (px, py) = Self.metres(x: x, y: y)
    guard px >= 0, py >= 0 else { return nil }
    let column = Int(px / Self.cellSize)
    let row = Int(py / Self.cellSize)
    guard column < columns, row < rows else { return nil }
    let cell = row * columns + column
    for slot in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) {
      let index = Int(cellDongs[slot])
      if holds(dongs[index], px, py, margin: Self.margin) { return index }
    }
    return nil
  }

  /// Whether the point `x`/`y` (degrees) lies in `dong`, `margin` metres or more from its edges.
  func holds(_ index: Int, x: Double, y: Double, margin: Double = margin) -> Bool {
    let (px, py) = Self.metres(x: x, y: y)
    return holds(dongs[index], px, py, margin: margin)
  }

  static func metres(x: Double, y: Double) -> (Double, Double) {
    ((x - origin.x) * metresPerDegreeX, (y - origin.y) * metresPerDegreeY)
  }

  private func holds(_ dong: Dong, _ px: Double, _ py: Double, margin: Double) -> Bool {
    guard px > dong.minX + margin, px < dong.maxX - margin, py > dong.minY + margin,
      py < dong.maxY - margin
    else { return false }
    // Even-odd over every ring: holes and separate parts count alike.
    var inside = false
    let xs = dong.xs
    let ys = dong.ys
    for ring in dong.rings {
      var previous = ring.upperBound - 1
      for current in ring {
        let (ax, ay, bx, by) = (xs[previous], ys[previous], xs[current], ys[current])
        if (ay > py) != (by > py), px < ax + (py - ay) / (by - ay) * (bx - ax) {
          inside.toggle()
        }
        previous = current
      }
    }
    guard inside else { return false }
    let limit = margin * margin
    for ring in dong.rings {
      var previous = ring.upperBound - 1
      for current in ring {
        if Self.squaredDistance(
          px, py, xs[previous], ys[previous], xs[current], ys[current]) < limit
        {
          return false
        }
        previous = current
      }
    }
    return true
  }

  /// The squared distance from a point to the segment a–b.
  private static func squaredDistance(
    _ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double
  ) -> Double {
    let (dx, dy) = (bx - ax, by - ay)
    let length = dx * dx + dy * dy
    var t = length > 0 ? ((px - ax) * dx + (py - ay) * dy) / length : 0
    t = min(max(t, 0), 1)
    let (ex, ey) = (ax + t * dx - px, ay + t * dy - py)
    return ex * ex + ey * ey
  }

  /// One line of the derived file: parts by `/`, rings by `;`, delta-coded `x,y` pairs.
  private static func dong(
    code: Substring, gu: Substring, name: Substring, parts: Substring
  ) -> Dong {
    var xs: [Double] = []
    var ys: [Double] = []
    var rings: [Range<Int>] = []
    for part in parts.split(separator: "/") {
      for ring in part.split(separator: ";") {
        let start = xs.count
        var (ix, iy) = (0, 0)
        for pair in ring.split(separator: " ") {
          let numbers = pair.split(separator: ",")
          guard numbers.count == 2, let dx = Int(numbers[0]), let dy = Int(numbers[1]) else {
            continue
          }
          ix += dx
          iy += dy
          let (x, y) = metres(
            x: origin.x + Double(ix) * unit, y: origin.y + Double(iy) * unit)
          xs.append(x)
          ys.append(y)
        }
        if xs.count - start >= 3 { rings.append(start..<xs.count) }
      }
    }
    return Dong(
      code: String(code), gu: String(gu), name: String(name), xs: xs, ys: ys, rings: rings,
      minX: xs.min() ?? 0, minY: ys.min() ?? 0, maxX: xs.max() ?? 0, maxY: ys.max() ?? 0)
  }
}
