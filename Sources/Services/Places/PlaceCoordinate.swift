/// A position on the Earth: `x` is the longitude and `y` the latitude, in
/// degrees, as Kakao Local names them.
public struct PlaceCoordinate: Sendable, Hashable {
  /// Longitude, -180…180.
  public var x: Double
  /// Latitude, -90…90.
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// Whether both numbers are finite and in range.
  public var isValid: Bool {
    x.isFinite && y.isFinite && (-180...180).contains(x) && (-90...90).contains(y)
  }
}
