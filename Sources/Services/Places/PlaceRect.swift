/// A longitude/latitude rectangle: `[minX, minY, maxX, maxY]` on the wire.
///
/// `minX > maxX` means the rectangle crosses the antimeridian: `[170, -10,
/// -170, 10]` holds longitudes 170…180 and -180…-170. Edges are inclusive.
public struct PlaceRect: Sendable, Hashable {
  public var minX: Double
  public var minY: Double
  public var maxX: Double
  public var maxY: Double

  public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
    self.minX = minX
    self.minY = minY
    self.maxX = maxX
    self.maxY = maxY
  }

  /// Whether the rectangle crosses the antimeridian.
  public var wrapsAround: Bool { minX > maxX }

  /// Whether `x`/`y` lies inside or on an edge.
  @inline(__always)
  public func contains(x: Double, y: Double) -> Bool {
    guard y >= minY, y <= maxY else { return false }
    return minX <= maxX ? (x >= minX && x <= maxX) : (x >= minX || x <= maxX)
  }
}
