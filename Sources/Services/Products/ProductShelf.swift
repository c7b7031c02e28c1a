/// The silhouette of a kind of good on its picture (256 pixels square).
enum ProductShelf: Sendable {
  case carton, round, jar, fish, loaf, bottle, box, can

  /// Whether the point (x, y) lies in the shape.
  func contains(_ x: Int, _ y: Int) -> Bool {
    switch self {
    case .carton:
      // A gable-top carton: a box with a roof.
      return (80...176).contains(x)
        && ((80...212).contains(y) || (y >= 40 && y < 80 && abs(x - 128) <= (y - 40) * 48 / 40))
    case .round:
      return Self.ellipse(x, y, 128, 136, 84, 80)
    case .jar:
      return ((74...182).contains(x) && (92...212).contains(y))
        || ((84...172).contains(x) && (66...88).contains(y))
    case .fish:
      return Self.ellipse(x, y, 112, 136, 84, 42)
        || ((184...232).contains(x) && abs(y - 136) <= (x - 184) * 40 / 48)
    case .loaf:
      return Self.ellipse(x, y, 128, 120, 96, 56)
        || ((32...224).contains(x) && (120...196).contains(y))
    case .bottle:
      return ((112...144).contains(x) && (30...92).contains(y))
        || Self.ellipse(x, y, 128, 104, 40, 20)
        || ((88...168).contains(x) && (104...220).contains(y))
    case .box:
      return (56...200).contains(x) && (72...204).contains(y)
    case .can:
      return ((80...176).contains(x) && (84...196).contains(y))
        || Self.ellipse(x, y, 128, 84, 48, 14)
        || Self.ellipse(x, y, 128, 196, 48, 14)
    }
  }

  /// Whether (x, y) is in the shadow the shape casts on the shelf.
  func shadow(_ x: Int, _ y: Int) -> Bool {
    Self.ellipse(x, y, 136, 226, 92, 12)
  }

  private static func ellipse(_ x: Int, _ y: Int, _ cx: Int, _ cy: Int, _ rx: Int, _ ry: Int)
    -> Bool
  {
    let dx = x - cx
    let dy = y - cy
    return dx * dx * ry * ry + dy * dy * rx * rx <= rx * rx * ry * ry
  }
}
