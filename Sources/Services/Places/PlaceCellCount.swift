import CPlaceCount

/// The first pass of the index's count of the cells on a circle's edge
/// (`PlaceIndex.Matcher.countEdges`): for each point, bounds on the haversine
/// term `a` of its distance from the centre decide whether it is certainly
/// inside the circle, certainly outside, or neither (then its exact
/// distance decides, in a second pass over those alone).
///
/// The bounds are made from a point's offset from its cell's south-west
/// corner, packed in 32 bits (`pack`: 16 bits east, 16 north), not from its
/// coordinates: 4 bytes a point to read instead of 24. A 1 km search reads
/// about 2,000 points of its edge cells, most of them from memory the other
/// requests took over since, and reading them was most of what the pass
/// cost. In `Float`, every edge cell of a search in one call: eight points
/// at a time in C with AVX2 where the processor has it (`cplacecount_cells`),
/// the same operations in the same order in Swift elsewhere (arm64 Macs
/// among them).
///
/// Each bound is widened by what it leaves out, so that it holds for the
/// point's exact coordinates: the offset's rounding (`errorSteps`), the
/// cosine of the point's latitude (between those of its row's south and
/// north edges), and `Float`'s rounding (a relative `termMargin` on the
/// terms, far above it). Half angles above 0.05 rad (about 5.7°, as in
/// `PlaceCountBounds`) are left undecided.
struct PlaceCellCount {
  /// Steps of an offset across a cell's side.
  static let steps = 65_536.0
  /// How far an offset may be from the point, in steps: half a step of
  /// rounding, a whole one for a point on the cell's north or east edge
  /// (which belongs to the next cell's range of offsets), and room to spare.
  static let errorSteps = 2.0
  /// How much narrower than the radius's terms the bounds must be.
  static let termMargin = 1e-5
  /// Whether `cplacecount_cells` runs on this processor.
  static let isWide = cplacecount_is_wide() != 0

  /// The offset of (`x`, `y`) from the corner (`west`, `south`) of a cell
  /// `cellDegrees` wide, in steps: low 16 bits east, high 16 bits north.
  static func pack(x: Double, y: Double, west: Double, south: Double, cellDegrees: Double)
    -> UInt32
  {
    // A point on the antimeridian is in column 0, 360° east of it.
    let east = PlaceGeometry.wrappedLongitude(x - west)
    func steps(_ offset: Double) -> UInt32 {
      UInt32(min(max((offset / cellDegrees * Self.steps).rounded(), 0), Self.steps - 1))
    }
    return steps(y - south) << 16 | steps(east)
  }

  /// The circle's centre and terms, as `PlaceCountBounds` has them.
  let bounds: PlaceCountBounds
  let cellDegrees: Double
  let insideTerm: Float
  let outsideTerm: Float
  /// One step of an offset, and its error, as half angles.
  let step: Float
  let error: Float

  init(_ bounds: PlaceCountBounds, cellDegrees: Double) {
    self.bounds = bounds
    self.cellDegrees = cellDegrees
    insideTerm = Float(bounds.insideTerm * (1 - Self.termMargin))
    outsideTerm = Float(bounds.outsideTerm * (1 + Self.termMargin))
    let step = cellDegrees / Self.steps * PlaceCountBounds.scale
    self.step = Float(step)
    error = Float(step * Self.errorSteps)
  }

  /// What the cells of one row share: their south edge, as a half angle from
  /// the centre, and the centre's cosine times the least and the greatest
  /// cosine of a latitude in the row (two cosines a row, not a cell).
  struct Row {
    let south: Double
    let baseY: Float
    let cosLow: Float
    let cosHigh: Float
  }

  /// The row whose south edge is at `south`.
  func row(south: Double) -> Row {
    let north = min(south + cellDegrees, 90)
    let edges = (PlaceGeometry.cosLatitude(south), PlaceGeometry.cosLatitude(north))
    return Row(
      south: south, baseY: Float((south - bounds.originY) * PlaceCountBounds.scale),
      cosLow: Float(bounds.originCos * min(edges.0, edges.1)),
      cosHigh: Float(bounds.originCos * (south < 0 && north > 0 ? 1 : max(edges.0, edges.1))))
  }

  /// The cell of `row` whose west edge is at `west`, its points at `positions`.
  func span(_ row: Row, west: Double, positions: Range<Int>) -> cplacecount_span {
    let east = PlaceGeometry.wrappedLongitude(west - bounds.originX)
    return cplacecount_span(
      start: Int64(positions.lowerBound), end: Int64(positions.upperBound),
      base_x: Float(east * PlaceCountBounds.scale), base_y: row.baseY, cos_low: row.cosLow,
      cos_high: row.cosHigh)
  }

  /// One point's verdict: true inside, false outside, nil undecided.
  @inline(__always)
  func verdict(_ offset: UInt32, _ span: cplacecount_span) -> Bool? {
    let halfX = span.base_x + Float(offset & 0xFFFF) * step
    let halfY = span.base_y + Float(offset >> 16) * step
    let farX = halfX.magnitude + error
    let farY = halfY.magnitude + error
    let nearX = max(halfX.magnitude - error, 0)
    let nearY = max(halfY.magnitude - error, 0)
    let highX = farX * farX
    let highY = farY * farY
    let largest = max(highY, highX)
    let high = highY + span.cos_high * highX
    let low =
      (nearY * nearY + span.cos_low * (nearX * nearX))
      * (1 - largest * Float(PlaceCountBounds.third))
    guard largest <= 0.0025 else { return nil }
    if high <= insideTerm { return true }
    if low > outsideTerm { return false }
    return nil
  }

  /// How many points of `spans` the bounds put inside; the positions they
  /// leave undecided go to `undecided` (room for all the spans' points),
  /// their number in the result. `wide` is for tests.
  func count(
    _ offsets: UnsafeBufferPointer<UInt32>, _ spans: UnsafeBufferPointer<cplacecount_span>,
    undecided: UnsafeMutableBufferPointer<Int32>, wide: Bool = Self.isWide
  ) -> (inside: Int, undecided: Int) {
    if wide, let base = offsets.baseAddress, let first = spans.baseAddress,
      let out = undecided.baseAddress
    {
      var left: Int64 = 0
      let inside = cplacecount_cells(
        base, first, Int64(spans.count), step, error, Float(PlaceCountBounds.third), insideTerm,
        outsideTerm, out, &left)
      return (Int(inside), Int(left))
    }
    var inside = 0
    var left = 0
    for span in spans {
      for position in Int(span.start)..<Int(span.end) {
        switch verdict(offsets[position], span) {
        case true?: inside += 1
        case false?: break
        case nil:
          undecided[left] = Int32(position)
          left += 1
        }
      }
    }
    return (inside, left)
  }
}
