import CPlaceCount
import Glibc

/// The in-memory spatial index of the embedded places backend: the places of
/// each category in a uniform grid of longitude/latitude cells, as fine as
/// the category is dense (about 48 points in a typical point's cell, as
/// estimated on a 14 km grid, from 1 to 4096 cells per degree: restaurants
/// in a dense city get cells of about 320 × 260 m, sparse categories coarse
/// ones).
///
/// **Layout.** Struct of arrays, sorted by (category, cell, point): per point
/// its longitude, latitude and the cosine of its latitude (`Float64`, so a
/// distance is computed exactly as a brute-force scan computes it), its
/// offset from its cell's corner in 32 bits (what the count of an edge cell
/// reads, see `PlaceCellCount`) and its point number (`Int32`); per occupied
/// cell its number (`UInt64`: up to 2⁴⁰ cells at 4096 per degree) and where
/// its points start. About 32 bytes a point and 12 an occupied cell: 33 MB
/// for a million places. Empty cells cost nothing, so a fine grid over the
/// whole globe is fine.
///
/// **Queries.** A circle becomes a band of cell rows and, per row, one or two
/// column ranges (two across the antimeridian; every column in rows near a
/// pole when the circle holds the pole). Each occupied cell there is found
/// by a search from where the last one ended (rows come in ascending cell
/// numbers) and classified with a bound on the distance to any of its points
/// (the distance to its centre, plus or minus its radius): cells beyond the
/// radius are skipped, cells well inside are counted without looking at their
/// points, and only cells on the edge are filtered point by point (see
/// `Matcher`). A distance sort takes cells from a heap, nearest first, and
/// once no point of the nearest remaining cell can enter the page, only
/// counts the rest; an accuracy sort takes each cell's points in point order
/// (lower numbers first) and stops at the first that cannot enter.
/// Rectangles work the same way with exact comparisons.
///
/// A circle sorted by distance, the common search, does less per cell: its
/// count takes each row's run of cells certainly inside at once (two
/// searches in the cell numbers and a difference of starts, see
/// `insideColumns`), so only the cells near the edge are visited one by
/// one, and its page comes from a smaller circle expected to hold a few
/// pages (see `search`). So a finer grid costs a large circle little, and
/// a small one is mostly the points of its edge cells.
///
/// The answers are those of `scan`, the brute-force scan, to the last bit:
/// both use `PlaceGeometry.distance` on the same numbers, and every shortcut
/// keeps a wide margin over any rounding (a metre for cells, a relative
/// 1e-10 for points).
///
/// A point's number is its position in the array it was built from; smaller
/// numbers come first in an accuracy sort and among equal distances. An
/// index is immutable and `Sendable`: searches need no lock, and a new one
/// replaces it after an import.
public struct PlaceIndex: Sendable {
  /// A place as the index needs it.
  public struct Point: Sendable, Hashable {
    public var category: PlaceCategory
    public var x: Double
    public var y: Double

    public init(category: PlaceCategory, x: Double, y: Double) {
      self.category = category
      self.x = x
      self.y = y
    }
  }

  /// What to look for: a category in an area, in an order, the first `limit`.
  public struct Query: Sendable, Hashable {
    public var category: PlaceCategory
    public var area: PlaceArea
    /// Distances are measured from here (the circle's centre for a circle);
    /// without one, hits have no distance and `.distance` sorts as `.accuracy`.
    public var origin: PlaceCoordinate?
    public var sort: PlaceSort
    /// How many hits to return, in order; the count covers every match.
    public var limit: Int

    public init(
      category: PlaceCategory, area: PlaceArea, origin: PlaceCoordinate? = nil,
      sort: PlaceSort = .distance, limit: Int
    ) {
      self.category = category
      self.area = area
      if case .circle(let center, _) = area {
        self.origin = center
      } else {
        self.origin = origin
      }
      self.sort = sort
      self.limit = limit
    }

    /// The query that answers the first `search.limit` results of a search.
    public init(_ search: PlaceSearch) {
      self.init(
        category: search.category, area: search.area, origin: search.origin, sort: search.sort,
        limit: search.limit)
    }
  }

  /// One result: the point's number and its whole metres from the origin.
  public struct Hit: Sendable, Hashable {
    public let point: Int
    public let distance: Int?

    public init(point: Int, distance: Int?) {
      self.point = point
      self.distance = distance
    }
  }

  /// Every match counted, the first `limit` in order.
  public struct Result: Sendable, Hashable {
    public let totalCount: Int
    public let hits: [Hit]

    public init(totalCount: Int, hits: [Hit]) {
      self.totalCount = totalCount
      self.hits = hits
    }
  }

  /// How many points a category's grid aims to put in a typical point's cell.
  static let targetPointsPerCell = 48.0
  /// The grid the resolutions are estimated on (cells of about 14 km).
  static let coarseGrid = PlaceGrid(cellsPerDegree: 8)
  /// A distance bound must clear the radius by this many metres before the
  /// index trusts it over the exact distance of each point.
  static let marginMetres = 1.0

  /// Each category's grid.
  private let grids: [PlaceGrid]
  /// Longitudes, by position (category, cell, point order).
  private let xs: [Double]
  /// Latitudes, by position.
  private let ys: [Double]
  /// Cosines of the latitudes, by position.
  private let cosYs: [Double]
  /// Each point's offset from its cell's corner, packed (`PlaceCellCount.pack`):
  /// what the count of an edge cell reads.
  private let offsets: [UInt32]
  /// The point number at each position.
  private let numbers: [Int32]
  /// The occupied cells (row × columns + column), ascending within each category.
  private let cellKeys: [UInt64]
  /// Where each cell's positions start; one more entry closes the last cell.
  private let cellStarts: [Int32]
  /// Where each category's cells start in `cellKeys`; one more entry closes the last.
  private let categoryCells: [Int32]

  /// How many points the index holds (those with finite coordinates).
  public var count: Int { numbers.count }

  /// Indexes `points`; point `i` is number `i`. Coordinates are clamped to
  /// -180…180 and -90…90; points with a non-finite coordinate are left out.
  ///
  /// - Parameter cellsPerDegree: one resolution for every category (1…4096);
  ///   nil fits each category's grid to its density.
  public init(_ points: [Point], cellsPerDegree: Int? = nil) {
    let categories = PlaceCategory.allCases.count
    var grids: [PlaceGrid]
    if let cellsPerDegree {
      grids = Array(repeating: PlaceGrid(cellsPerDegree: cellsPerDegree), count: categories)
    } else {
      var coarseCounts = Array(repeating: [UInt64: Int](), count: categories)
      for point in points where point.x.isFinite && point.y.isFinite {
        coarseCounts[Int(point.category.rawValue)][
          Self.coarseGrid.cell(x: point.x, y: point.y), default: 0] += 1
      }
      grids = coarseCounts.map {
        PlaceGrid.fitting($0, coarse: Self.coarseGrid, target: Self.targetPointsPerCell)
      }
    }
    self.grids = grids

    // The points of each category, in number order.
    var categoryStarts = [Int](repeating: 0, count: categories + 1)
    for point in points where point.x.isFinite && point.y.isFinite {
      categoryStarts[Int(point.category.rawValue) + 1] += 1
    }
    for category in 0..<categories {
      categoryStarts[category + 1] += categoryStarts[category]
    }
    var byCategory = [Int32](repeating: 0, count: categoryStarts[categories])
    var next = categoryStarts
    for (number, point) in points.enumerated() where point.x.isFinite && point.y.isFinite {
      let category = Int(point.category.rawValue)
      byCategory[next[category]] = Int32(number)
      next[category] += 1
    }

    var xs: [Double] = []
    var ys: [Double] = []
    var cosYs: [Double] = []
    var offsets: [UInt32] = []
    var numbers: [Int32] = []
    xs.reserveCapacity(byCategory.count)
    ys.reserveCapacity(byCategory.count)
    cosYs.reserveCapacity(byCategory.count)
    offsets.reserveCapacity(byCategory.count)
    numbers.reserveCapacity(byCategory.count)
    var cellKeys: [UInt64] = []
    var cellStarts: [Int32] = []
    var categoryCells = [Int32](repeating: 0, count: categories + 1)
    for category in 0..<categories {
      categoryCells[category] = Int32(cellKeys.count)
      let grid = grids[category]
      let members = byCategory[categoryStarts[category]..<categoryStarts[category + 1]]
      // Each category sorted by (cell, point number): a point's rank in
      // `members` follows its number, so packing the cell above the rank
      // orders everything with one integer sort where both fit in 64 bits.
      let rankBits = Int.bitWidth - members.count.leadingZeroBitCount
      var sorted: [(cell: UInt64, number: Int32)]
      if grid.cellBits + rankBits <= 64 {
        var packed = members.enumerated().map { rank, number in
          let point = points[Int(number)]
          return grid.cell(x: point.x, y: point.y) << rankBits | UInt64(rank)
        }
        packed.sort()
        let rankMask = UInt64(1) << rankBits &- 1
        sorted = packed.map {
          (cell: $0 >> rankBits, number: members[members.startIndex + Int($0 & rankMask)])
        }
      } else {
        sorted = members.map { number in
          let point = points[Int(number)]
          return (cell: grid.cell(x: point.x, y: point.y), number: number)
        }
        sorted.sort { ($0.cell, $0.number) < ($1.cell, $1.number) }
      }
      for (cell, number) in sorted {
        if cellKeys.count == Int(categoryCells[category]) || cellKeys.last != cell {
          cellKeys.append(cell)
          cellStarts.append(Int32(numbers.count))
        }
        let point = points[Int(number)]
        let x = min(max(point.x, -180), 180)
        let y = min(max(point.y, -90), 90)
        xs.append(x)
        ys.append(y)
        cosYs.append(PlaceGeometry.cosLatitude(y))
        let corner = grid.corner(cell)
        offsets.append(
          PlaceCellCount.pack(
            x: x, y: y, west: corner.west, south: corner.south, cellDegrees: grid.cellDegrees))
        numbers.append(number)
      }
    }
    cellStarts.append(Int32(numbers.count))
    categoryCells[categories] = Int32(cellKeys.count)
    self.xs = xs
    self.ys = ys
    self.cosYs = cosYs
    self.offsets = offsets
    self.numbers = numbers
    self.cellKeys = cellKeys
    self.cellStarts = cellStarts
    self.categoryCells = categoryCells
  }

  /// Bytes held by the index's arrays.
  public var memoryBytes: Int {
    (xs.capacity + ys.capacity + cosYs.capacity) * 8 + (offsets.capacity + numbers.capacity) * 4
      + cellKeys.capacity * 8 + cellStarts.capacity * 4 + categoryCells.capacity * 4
  }

  /// How many points of each category the index holds.
  public func count(of category: PlaceCategory) -> Int {
    let cells = cellRange(category)
    return Int(cellStarts[cells.upperBound] - cellStarts[cells.lowerBound])
  }

  // MARK: - Cells

  /// The resolution of a category's grid, in cells per degree.
  public func cellsPerDegree(of category: PlaceCategory) -> Int {
    grids[Int(category.rawValue)].cellsPerDegree
  }

  private func cellRange(_ category: PlaceCategory) -> Range<Int> {
    let index = Int(category.rawValue)
    return Int(categoryCells[index])..<Int(categoryCells[index + 1])
  }

  /// A candidate cell: where its points are, a lower bound on their distance
  /// from the origin (metres; 0 without origin), and whether every one of
  /// them is certainly in the area.
  private struct Candidate {
    var cell: Int
    var lowerBound: Double
    var isInside: Bool
  }

  /// The occupied cells of `category` that may hold points of the area.
  ///
  /// A cell's points are within `cellRadius` of its centre: half its height
  /// along the meridian, then half its width along the parallel, longest
  /// where the band is nearest the equator. So the distance from the origin
  /// to its centre, plus or minus that radius, bounds theirs. The centre's
  /// distance is itself bounded without trigonometry, as `Matcher.bounds`
  /// does for points, and computed exactly only when that does not decide.
  ///
  /// With `countsRuns` (for a circle), the runs of a row's cells that are
  /// certainly inside (`insideColumns`) are not listed: their points are
  /// only counted, in `counted`, from where the runs start and end.
  private func candidates(_ query: Query, countsRuns: Bool = false) -> (
    cells: [Candidate], counted: Int
  ) {
    let cells = cellRange(query.category)
    guard !cells.isEmpty else { return ([], 0) }
    let grid = grids[Int(query.category.rawValue)]
    let cellDegrees = grid.cellDegrees
    let margin = Self.marginMetres
    let origin = query.origin
    let originCos = origin.map { PlaceGeometry.cosLatitude($0.y) } ?? 1

    // The rows and column ranges to visit.
    let rowRange: ClosedRange<Int>
    let ranges: [ClosedRange<Int>]
    var radius = 0.0
    var isCircle = false
    switch query.area {
    case .circle(let center, let metres):
      isCircle = true
      radius = Double(metres)
      // The angle of the radius, a hair wider than any rounding.
      let angle = radius / PlaceGeometry.earthRadius + 1e-9
      let degrees = angle / PlaceGeometry.radiansPerDegree + 1e-7
      let south = center.y - degrees
      let north = center.y + degrees
      rowRange = grid.row(max(south, -90))...grid.row(min(north, 90))
      // A circle holding a pole spans every longitude; else its widest
      // longitude offset is asin(sin(angle) / cos(latitude)).
      let ratio = sin(angle) / PlaceGeometry.cosLatitude(center.y)
      if north >= 90 || south <= -90 || !(ratio < 1) {
        ranges = grid.columnRanges(first: 0, last: 0, all: true)
      } else {
        let halfWidth = asin(ratio) / PlaceGeometry.radiansPerDegree + 1e-7
        ranges = grid.columnRanges(
          first: grid.column(center.x - halfWidth), last: grid.column(center.x + halfWidth),
          all: 2 * halfWidth + 2 * cellDegrees >= 360)
      }
    case .rect(let rect):
      rowRange = grid.row(rect.minY)...grid.row(rect.maxY)
      let span = rect.wrapsAround ? rect.maxX - rect.minX + 360 : rect.maxX - rect.minX
      ranges = grid.columnRanges(
        first: grid.column(rect.minX), last: grid.column(rect.maxX),
        all: span + 2 * cellDegrees >= 360)
    }

    var found: [Candidate] = []
    // Room for every cell visited that the category has, the most it can
    // hold: grown from empty, it was made again six or seven times a search.
    found.reserveCapacity(min(rowRange.count * ranges.reduce(0) { $0 + $1.count }, cells.count))
    var counted = 0
    // Rows and their ranges come in ascending keys, so each search starts
    // where the last one ended.
    var cursor = cells.lowerBound
    let epsilon = 1e-9
    let halfCell = cellDegrees / 2
    for row in rowRange {
      let south = Double(row) * cellDegrees - 90
      let north = south + cellDegrees
      let centerY = south + halfCell
      let cosCenterY = PlaceGeometry.cosLatitude(centerY)
      let widestCos =
        south <= 0 && north >= 0
        ? 1 : PlaceGeometry.cosLatitude(min(abs(south), abs(north)))
      let cellRadius =
        halfCell * PlaceGeometry.radiansPerDegree * (1 + widestCos) * PlaceGeometry.earthRadius
      // Haversine terms of the centre's distance: at most `insideTerm`, the
      // whole cell is in the circle; above `outsideTerm`, none of it.
      let insideTerm =
        radius - cellRadius - margin > 0
        ? Matcher.term(metres: radius - cellRadius - margin) * (1 - 1e-10) : -1
      let outsideTerm = Matcher.term(metres: radius + cellRadius + margin) * (1 + 1e-10)
      let halfY = origin.map { (centerY - $0.y) * PlaceGeometry.radiansPerDegree * 0.5 } ?? 0
      let rowBase = row * grid.columns
      var runs: (ClosedRange<Int>?, ClosedRange<Int>?) = (nil, nil)
      if countsRuns, isCircle, let origin {
        runs = insideColumns(
          grid, origin: origin, originCos: originCos, radius: radius, centerY: centerY,
          cosCenterY: cosCenterY, cellRadius: cellRadius)
      }
      for range in ranges {
        let low = UInt64(rowBase + range.lowerBound)
        let high = UInt64(rowBase + range.upperBound)
        var index = lowerBound(low, in: cursor..<cells.upperBound)
        defer { cursor = index }
        while index < cells.upperBound, cellKeys[index] <= high {
          let column = Int(cellKeys[index]) - rowBase
          if let run = runs.0?.contains(column) == true ? runs.0 : runs.1,
            run.contains(column)
          {
            let last = UInt64(rowBase + min(run.upperBound, range.upperBound))
            let next = lowerBound(last + 1, in: index..<cells.upperBound)
            counted += Int(cellStarts[next] - cellStarts[index])
            index = next
            continue
          }
          defer { index += 1 }
          let west = Double(column) * cellDegrees - 180
          var lowerBound = 0.0
          var isInside = false
          if let origin {
            let offsetX = PlaceGeometry.wrappedLongitude(west + halfCell - origin.x)
            let halfX = offsetX * PlaceGeometry.radiansPerDegree * 0.5
            let largest = max(halfY * halfY, halfX * halfX)
            if largest <= 0.0025 {
              let high = halfY * halfY + originCos * cosCenterY * (halfX * halfX)
              let low = high * (1 - largest / 3)
              if isCircle {
                if low > outsideTerm { continue }
                isInside = high <= insideTerm
              }
              // asin(t) ≥ t: the centre is at least 2R·√low away.
              lowerBound = max(2 * PlaceGeometry.earthRadius * low.squareRoot() - cellRadius, 0)
            } else {
              let toCenter = PlaceGeometry.distance(
                x1: origin.x, y1: origin.y, cosY1: originCos, x2: west + halfCell, y2: centerY,
                cosY2: cosCenterY)
              lowerBound = max(toCenter - cellRadius, 0)
              if isCircle {
                if lowerBound > radius + margin { continue }
                isInside = toCenter + cellRadius <= radius - margin
              }
            }
          }
          if case .rect(let rect) = query.area {
            let east = west + cellDegrees
            let rowInside = south >= rect.minY + epsilon && north <= rect.maxY - epsilon
            let columnInside =
              rect.wrapsAround
              ? (west >= rect.minX + epsilon || east <= rect.maxX - epsilon)
              : (west >= rect.minX + epsilon && east <= rect.maxX - epsilon)
            isInside = rowInside && columnInside
          }
          found.append(Candidate(cell: index, lowerBound: lowerBound, isInside: isInside))
        }
      }
    }
    return (found, counted)
  }

  /// The columns of a row (up to two runs, split at the antimeridian) whose
  /// cells are certainly inside a circle: the haversine solved for the
  /// longitude offset at which a cell's centre is `radius - cellRadius` away
  /// (two margins nearer), then both ends checked with the exact distance and
  /// a margin, stepping inward while they fail. Along a row the distance to
  /// a centre grows with the longitude offset (up to 180°), so every column
  /// between two checked ends is inside too. None where the run would reach
  /// 90° of longitude (near a pole, or a circle that wide).
  private func insideColumns(
    _ grid: PlaceGrid, origin: PlaceCoordinate, originCos: Double, radius: Double,
    centerY: Double, cosCenterY: Double, cellRadius: Double
  ) -> (ClosedRange<Int>?, ClosedRange<Int>?) {
    let margin = Self.marginMetres
    let reach = radius - cellRadius - 2 * margin
    guard reach > 0 else { return (nil, nil) }
    let halfY = sin((centerY - origin.y) * PlaceGeometry.radiansPerDegree / 2)
    let ratio = (Matcher.term(metres: reach) - halfY * halfY) / (originCos * cosCenterY)
    guard ratio > 0, ratio < 0.5 else { return (nil, nil) }
    let halfWidth = 2 * asin(ratio.squareRoot()) / PlaceGeometry.radiansPerDegree
    // Offsets from the origin's column; `west` is its west edge.
    let home = grid.column(origin.x)
    let offset = PlaceGeometry.wrappedLongitude(origin.x + 180 - Double(home) * grid.cellDegrees)
    let west = origin.x - offset
    func isInside(_ column: Int) -> Bool {
      let x = west + (Double(column) + 0.5) * grid.cellDegrees
      let toCenter = PlaceGeometry.distance(
        x1: origin.x, y1: origin.y, cosY1: originCos, x2: x, y2: centerY, cosY2: cosCenterY)
      return toCenter + cellRadius <= radius - margin
    }
    var last = Int(((offset + halfWidth) / grid.cellDegrees - 0.5).rounded(.down))
    var first = Int(((offset - halfWidth) / grid.cellDegrees - 0.5).rounded(.up))
    while first <= last, !isInside(last) { last -= 1 }
    while first <= last, !isInside(first) { first += 1 }
    guard first <= last, last - first + 1 < grid.columns else { return (nil, nil) }
    first += home
    last += home
    if first < 0 { return ((first + grid.columns)...(grid.columns - 1), 0...last) }
    if last >= grid.columns { return (first...(grid.columns - 1), 0...(last - grid.columns)) }
    return (first...last, nil)
  }

  /// The first index in `range` whose cell key is at least `key`: galloping
  /// from the range's start (the cells a search looks for next are usually
  /// near the last ones, in memory it has just read), then a binary search.
  private func lowerBound(_ key: UInt64, in range: Range<Int>) -> Int {
    var low = range.lowerBound
    var high = range.upperBound
    var step = 1
    while low + step < high, cellKeys[low + step - 1] < key {
      low += step
      step *= 2
    }
    high = min(high, low + step)
    while low < high {
      let middle = (low + high) / 2
      if cellKeys[middle] < key {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }

  // MARK: - Search

  /// The matches of `query`: how many, and the first `query.limit` in order.
  ///
  /// A circle sorted by distance is counted apart (`countCircle`), and its
  /// page taken from a smaller circle around the same centre, expected to
  /// hold a few pages of matches: when that circle's page is full and ends
  /// nearer than its radius by a whole metre, no point outside it could
  /// enter the page (its whole metres are at least that radius). Else the
  /// smaller circle doubles, up to the circle itself.
  public func search(_ query: Query) -> Result {
    guard case .circle(let center, let radius) = query.area, query.sort == .distance,
      query.origin == center, query.limit > 0
    else { return searchCells(query) }
    let total = countCircle(query)
    guard total > query.limit else { return searchCells(query) }
    var inner =
      Double(radius) * (Self.innerPages * Double(query.limit) / Double(total)).squareRoot()
    while inner < Double(radius) {
      let metres = Int(inner.rounded(.up))
      let page = searchCells(
        Query(
          category: query.category, area: .circle(center: center, radius: metres), sort: .distance,
          limit: query.limit), countsAll: false)
      if page.hits.count == query.limit, let last = page.hits.last?.distance, last < metres {
        return Result(totalCount: total, hits: page.hits)
      }
      inner *= 2
    }
    return searchCells(query)
  }

  /// How many pages of matches the smaller circle of a search is expected to hold.
  static let innerPages = 3.0

  /// How many points are in a circle: the runs of cells certainly inside
  /// counted at once, the other cells classified one by one.
  private func countCircle(_ query: Query) -> Int {
    let (found, counted) = candidates(query, countsRuns: true)
    return counted + count(found, Matcher(index: self, query: query))
  }

  /// How many points of `candidates` are in the matcher's area: a cell
  /// certainly inside by its size, the others together (`Matcher.countEdges`).
  private func count(_ candidates: [Candidate], _ matcher: Matcher) -> Int {
    var total = 0
    var edges: [Int] = []
    edges.reserveCapacity(candidates.count)
    for candidate in candidates {
      if candidate.isInside {
        total += Int(cellStarts[candidate.cell + 1] - cellStarts[candidate.cell])
      } else {
        edges.append(candidate.cell)
      }
    }
    return total + matcher.countEdges(edges)
  }

  /// The answer from every candidate cell: nearest cells first for a
  /// distance sort, point-number order otherwise. Without `countsAll`, a
  /// distance sort stops once its page is settled, and its count is only
  /// what it saw by then.
  private func searchCells(_ query: Query, countsAll: Bool = true) -> Result {
    var found = candidates(query).cells
    let sortsByDistance = query.sort == .distance && query.origin != nil
    let matcher = Matcher(index: self, query: query)
    var selection = PlaceSelection(limit: query.limit)
    var total = 0
    guard sortsByDistance else {
      for candidate in found {
        total += takeByNumber(candidate, matcher, &selection)
      }
      return Result(totalCount: total, hits: hits(selection, matcher, sortsByDistance))
    }
    // A page's few cells are asked for at once, before the heap takes them
    // one after the other: other requests pushed them out of the
    // processor's caches since the last search here.
    if !countsAll, found.count <= Self.prefetchedCells {
      for candidate in found { prefetch(candidate.cell) }
    }
    // Nearest cells first, from a heap: once no point of the nearest
    // remaining cell can enter the page, the rest are only counted.
    var heap = CandidateHeap(found)
    found = []
    // Whole metres a point needs to enter a full page, and the least `a`
    // (see `Matcher.bounds`) that certainly misses them.
    var worstMetres = UInt64.max
    var worstTerm = Double.infinity
    while let candidate = heap.popNearest() {
      let start = Int(cellStarts[candidate.cell])
      let end = Int(cellStarts[candidate.cell + 1])
      // No point of the cell is nearer than this many whole metres; equal
      // distances still compete by number, hence the strict comparison.
      let floorMetres = UInt64(max(candidate.lowerBound - Self.marginMetres, 0))
      if selection.isFull, selection.limit == 0 || floorMetres > worstMetres {
        guard countsAll else { break }
        total += count([candidate] + heap.remaining, matcher)
        break
      }
      for position in start..<end {
        let bounds = matcher.bounds(position)
        var metres: Double?
        if !candidate.isInside {
          switch matcher.membership(position, bounds) {
          case .outside: continue
          case .inside: break
          case .exact(let distance): metres = distance
          }
        }
        total += 1
        if selection.isFull, let bounds, bounds.low >= worstTerm { continue }
        // Whole metres from the bounds when they settle them (nearly
        // always), without the exact distance's sines.
        let whole =
          metres.map(PlaceGeometry.wholeMetres)
          ?? bounds.flatMap { PlaceCountBounds.wholeMetres(low: $0.low, high: $0.high) }
          ?? PlaceGeometry.wholeMetres(matcher.distance(position))
        let order = UInt64(whole) << 32 | UInt64(UInt32(numbers[position]))
        guard selection.admits(order) else { continue }
        selection.offer(order, position: Int32(position))
        if selection.isFull, selection.worst >> 32 != worstMetres {
          worstMetres = selection.worst >> 32
          worstTerm = Matcher.term(metres: Double(worstMetres) + 0.5 + 0.01)
        }
      }
    }
    return Result(totalCount: total, hits: hits(selection, matcher, sortsByDistance))
  }

  /// At most this many cells of a page's search are fetched ahead.
  static let prefetchedCells = 8

  /// Asks the processor to bring the coordinates and numbers of a cell's
  /// points into its caches.
  private func prefetch(_ cell: Int) {
    let positions = Int(cellStarts[cell])..<Int(cellStarts[cell + 1])
    func fetch<Element>(_ array: [Element]) {
      array.withUnsafeBufferPointer { array in
        guard let base = array.baseAddress else { return }
        cplacecount_prefetch_bytes(
          base + positions.lowerBound, Int64(positions.count * MemoryLayout<Element>.stride))
      }
    }
    fetch(xs)
    fetch(ys)
    fetch(cosYs)
    fetch(numbers)
  }

  /// Counts a cell's matches and offers them in point-number order; a
  /// cell's points are in that order, so the first refused ends its inside.
  private func takeByNumber(
    _ candidate: Candidate, _ matcher: Matcher, _ selection: inout PlaceSelection
  ) -> Int {
    let start = Int(cellStarts[candidate.cell])
    let end = Int(cellStarts[candidate.cell + 1])
    if candidate.isInside {
      for position in start..<end {
        let order = UInt64(UInt32(numbers[position]))
        guard selection.admits(order) else { break }
        selection.offer(order, position: Int32(position))
      }
      return end - start
    }
    var count = 0
    for position in start..<end where matcher.contains(position) {
      count += 1
      let order = UInt64(UInt32(numbers[position]))
      if selection.admits(order) {
        selection.offer(order, position: Int32(position))
      }
    }
    return count
  }

  /// A binary min-heap of candidates by lower bound: building it is linear,
  /// and a search pops only the few cells it needs in order.
  private struct CandidateHeap {
    private var items: [Candidate]

    init(_ items: [Candidate]) {
      self.items = items
      var index = items.count / 2
      while index > 0 {
        index -= 1
        siftDown(index)
      }
    }

    /// The candidates not popped, in no order.
    var remaining: [Candidate] { items }

    mutating func popNearest() -> Candidate? {
      guard let first = items.first else { return nil }
      let last = items.removeLast()
      if !items.isEmpty {
        items[0] = last
        siftDown(0)
      }
      return first
    }

    private mutating func siftDown(_ start: Int) {
      var parent = start
      while true {
        let left = 2 * parent + 1
        guard left < items.count else { return }
        let right = left + 1
        var child = left
        if right < items.count, items[right].lowerBound < items[left].lowerBound { child = right }
        guard items[child].lowerBound < items[parent].lowerBound else { return }
        items.swapAt(parent, child)
        parent = child
      }
    }
  }

  /// The same answer as `search`, by computing the exact distance of every
  /// point of the category: the reference for tests and benchmarks.
  public func scan(_ query: Query) -> Result {
    let cells = cellRange(query.category)
    let positions = Int(cellStarts[cells.lowerBound])..<Int(cellStarts[cells.upperBound])
    let sortsByDistance = query.sort == .distance && query.origin != nil
    let matcher = Matcher(index: self, query: query)
    var selection = PlaceSelection(limit: query.limit)
    var total = 0
    for position in positions {
      if case .rect(let rect) = query.area, !rect.contains(x: xs[position], y: ys[position]) {
        continue
      }
      let metres = matcher.distance(position)
      if case .circle(_, let radius) = query.area, !(metres <= Double(radius)) { continue }
      total += 1
      let number = UInt64(UInt32(numbers[position]))
      selection.offer(
        sortsByDistance ? UInt64(PlaceGeometry.wholeMetres(metres)) << 32 | number : number,
        position: Int32(position))
    }
    return Result(totalCount: total, hits: hits(selection, matcher, sortsByDistance))
  }

  private func hits(_ selection: PlaceSelection, _ matcher: Matcher, _ sortsByDistance: Bool)
    -> [Hit]
  {
    selection.sorted().map { order, position in
      let position = Int(position)
      let distance: Int?
      if sortsByDistance {
        distance = Int(order >> 32)
      } else if matcher.origin != nil {
        distance = PlaceGeometry.wholeMetres(matcher.distance(position))
      } else {
        distance = nil
      }
      return Hit(point: Int(numbers[position]), distance: distance)
    }
  }

  /// Tests positions against a query's area.
  ///
  /// The exact test of a circle is `PlaceGeometry.distance(…) <= radius`,
  /// which costs two sines, a square root and an arc sine. Most points are
  /// decided without them: `a`, the haversine term the distance is
  /// `2R·asin(√a)` of, lies between bounds made of the half angles alone
  /// (sin²t ≤ t² and sin²t ≥ t²(1 − t²/3)), and a point whose bounds are
  /// both on one side of the radius's term, with a relative margin of 1e-10
  /// (a million times the rounding), is decided. Points near the edge, or
  /// farther than a few degrees, or across the antimeridian from the origin,
  /// get the exact test.
  private struct Matcher {
    /// Bounds on the haversine term `a` of one point.
    struct Bounds {
      var low: Double
      var high: Double
    }

    enum Membership {
      case inside
      case outside
      /// Decided by the exact distance, which is given.
      case exact(Double)
    }

    let index: PlaceIndex
    let grid: PlaceGrid
    let area: PlaceArea
    let radius: Double
    let origin: PlaceCoordinate?
    /// The count of edge cells' points, which holds the origin and the
    /// terms `a` is compared with for the radius (`terms`).
    let cellCount: PlaceCellCount

    var terms: PlaceCountBounds { cellCount.bounds }

    init(index: PlaceIndex, query: Query) {
      self.index = index
      grid = index.grids[Int(query.category.rawValue)]
      area = query.area
      if case .circle(_, let metres) = query.area {
        radius = Double(metres)
      } else {
        radius = 0
      }
      origin = query.origin
      let term = Self.term(metres: radius)
      let terms = PlaceCountBounds(
        originX: query.origin?.x ?? 0, originY: query.origin?.y ?? 0,
        originCos: query.origin.map { PlaceGeometry.cosLatitude($0.y) } ?? 1,
        insideTerm: term * (1 - 1e-10), outsideTerm: term * (1 + 1e-10))
      cellCount = PlaceCellCount(terms, cellDegrees: grid.cellDegrees)
    }

    /// The haversine term of a distance: sin²(d / 2R).
    static func term(metres: Double) -> Double {
      let half = sin(min(metres / (2 * PlaceGeometry.earthRadius), .pi / 2))
      return half * half
    }

    /// The exact distance from the origin, as `PlaceGeometry.distance` gives it.
    @inline(__always)
    func distance(_ position: Int) -> Double {
      PlaceGeometry.distance(
        x1: terms.originX, y1: terms.originY, cosY1: terms.originCos, x2: index.xs[position],
        y2: index.ys[position], cosY2: index.cosYs[position])
    }

    /// Bounds on the point's haversine term, when the half angles are small
    /// (under 0.05 rad: about 5.7° apart) and no wrap is involved.
    @inline(__always)
    func bounds(_ position: Int) -> Bounds? {
      guard origin != nil else { return nil }
      let terms = terms.terms(
        x: index.xs[position], y: index.ys[position], cosY: index.cosYs[position])
      return terms.isNear ? Bounds(low: terms.low, high: terms.high) : nil
    }

    /// Whether the point is in the area, with its exact distance when that
    /// was needed to decide.
    @inline(__always)
    func membership(_ position: Int, _ bounds: Bounds?) -> Membership {
      if case .rect(let rect) = area {
        return rect.contains(x: index.xs[position], y: index.ys[position]) ? .inside : .outside
      }
      if let bounds {
        if bounds.high <= terms.insideTerm { return .inside }
        if bounds.low > terms.outsideTerm { return .outside }
      }
      let metres = distance(position)
      return metres <= radius ? .exact(metres) : .outside
    }

    @inline(__always)
    func contains(_ position: Int) -> Bool {
      if case .rect(let rect) = area {
        return rect.contains(x: index.xs[position], y: index.ys[position])
      }
      if case .outside = membership(position, bounds(position)) { return false }
      return true
    }

    /// How many of the points of `cells` are in the area: for a circle, the
    /// points the bounds decide in one pass over all of them
    /// (`PlaceCellCount`, the hottest loop of a search: the cells on a
    /// circle's edge), and the few they leave undecided (near the radius,
    /// or too far for the bounds) by their exact distance.
    func countEdges(_ cells: [Int]) -> Int {
      guard case .circle = area, origin != nil else {
        var count = 0
        for cell in cells {
          for position in Int(index.cellStarts[cell])..<Int(index.cellStarts[cell + 1])
          where contains(position) {
            count += 1
          }
        }
        return count
      }
      var spans: [cplacecount_span] = []
      spans.reserveCapacity(cells.count)
      var points = 0
      var row: PlaceCellCount.Row?
      for cell in cells {
        let positions = Int(index.cellStarts[cell])..<Int(index.cellStarts[cell + 1])
        let corner = grid.corner(index.cellKeys[cell])
        if row?.south != corner.south { row = cellCount.row(south: corner.south) }
        guard let row else { continue }
        spans.append(cellCount.span(row, west: corner.west, positions: positions))
        points += positions.count
      }
      return index.offsets.withUnsafeBufferPointer { offsets in
        spans.withUnsafeBufferPointer { spans in
          withUnsafeTemporaryAllocation(of: Int32.self, capacity: points) { undecided in
            let decided = cellCount.count(offsets, spans, undecided: undecided)
            var count = decided.inside
            for position in undecided[..<decided.undecided]
            where distance(Int(position)) <= radius {
              count += 1
            }
            return count
          }
        }
      }
    }
  }
}
