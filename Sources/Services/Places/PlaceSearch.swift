/// One `places/search`: the places of a category in a circle or a rectangle,
/// one page of the first 45 in the chosen order (Kakao Local's paging).
public struct PlaceSearch: Sendable, Hashable {
  public static let maxRadius = 20_000
  public static let maxPage = 45
  public static let maxSize = 15
  /// How many of the matches can be paged through, whatever `totalCount` is.
  public static let maxPageable = 45

  public let category: PlaceCategory
  public let area: PlaceArea
  /// Where distances are measured from: the circle's centre, or x/y given with a rect.
  public let origin: PlaceCoordinate?
  /// 1…45.
  public let page: Int
  /// 1…15.
  public let size: Int
  public let sort: PlaceSort

  /// A search with the wire's params; the area is the rect when there is one,
  /// else the circle of `radius` metres (default 20,000) around x/y.
  ///
  /// - Throws: `InvalidArgument` naming the wire field: x/y missing without a
  ///   rect (or with `sort: distance`), a value out of range, a rect whose
  ///   minY is above its maxY.
  public init(
    category: PlaceCategory, x: Double? = nil, y: Double? = nil, radius: Int? = nil,
    rect: PlaceRect? = nil, page: Int = 1, size: Int = maxSize, sort: PlaceSort = .accuracy
  ) throws(InvalidArgument) {
    guard (1...Self.maxPage).contains(page) else {
      throw InvalidArgument(field: "page", reason: "must be between 1 and \(Self.maxPage)")
    }
    guard (1...Self.maxSize).contains(size) else {
      throw InvalidArgument(field: "size", reason: "must be between 1 and \(Self.maxSize)")
    }
    if let radius, !(0...Self.maxRadius).contains(radius) {
      throw InvalidArgument(field: "radius", reason: "must be between 0 and \(Self.maxRadius)")
    }
    if let x, !(x.isFinite && (-180...180).contains(x)) {
      throw InvalidArgument(field: "x", reason: "must be a longitude between -180 and 180")
    }
    if let y, !(y.isFinite && (-90...90).contains(y)) {
      throw InvalidArgument(field: "y", reason: "must be a latitude between -90 and 90")
    }
    var origin: PlaceCoordinate?
    switch (x, y) {
    case (let x?, let y?): origin = PlaceCoordinate(x: x, y: y)
    case (nil, nil): origin = nil
    case (nil, _?): throw InvalidArgument(field: "x", reason: "is required with y")
    case (_?, nil): throw InvalidArgument(field: "y", reason: "is required with x")
    }
    if let rect {
      try Self.validate(rect)
      area = .rect(rect)
    } else {
      guard let origin else {
        throw InvalidArgument(field: "x", reason: "is required without rect")
      }
      area = .circle(center: origin, radius: radius ?? Self.maxRadius)
    }
    if sort == .distance, origin == nil {
      throw InvalidArgument(field: "x", reason: "is required when sort is \"distance\"")
    }
    self.category = category
    self.origin = origin
    self.page = page
    self.size = size
    self.sort = sort
  }

  private static func validate(_ rect: PlaceRect) throws(InvalidArgument) {
    for (value, isLongitude) in [
      (rect.minX, true), (rect.minY, false), (rect.maxX, true), (rect.maxY, false),
    ] {
      let limit = isLongitude ? 180.0 : 90.0
      guard value.isFinite, (-limit...limit).contains(value) else {
        throw InvalidArgument(
          field: "rect",
          reason:
            "must be [minX, minY, maxX, maxY] with longitudes in -180…180 and latitudes in -90…90"
        )
      }
    }
    guard rect.minY <= rect.maxY else {
      throw InvalidArgument(field: "rect", reason: "has minY above maxY")
    }
  }

  /// How many results of the order the page needs (the page's end, at most 45).
  public var limit: Int { min(page * size, Self.maxPageable) }

  /// The range of the ordered results this page shows (empty past the 45th).
  public var window: Range<Int> {
    let start = min((page - 1) * size, Self.maxPageable)
    return start..<max(start, limit)
  }

  /// The page's meta for `totalCount` matches: Kakao's `pageable_count` and `is_end`.
  public func meta(totalCount: Int) -> PlaceSearchMeta {
    let pageable = min(totalCount, Self.maxPageable)
    return PlaceSearchMeta(
      totalCount: totalCount, pageableCount: pageable, isEnd: page * size >= pageable)
  }
}
