/// Where to look.
public enum PlaceArea: Sendable, Hashable {
  /// Within `radius` metres (great-circle, inclusive) of `center`.
  case circle(center: PlaceCoordinate, radius: Int)
  /// Inside the rectangle, edges included.
  case rect(PlaceRect)
}
