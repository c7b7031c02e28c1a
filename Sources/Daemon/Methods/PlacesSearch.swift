import Protocol
import Services

/// `places/search {category, x?, y?, radius?, rect?, page?, size?, sort?}` →
/// `{items, meta: {totalCount, pageableCount, isEnd}}`.
enum PlacesSearch {
  static let category: Param<String> = .requiredString(
    "category", PlaceSchemas.categoryCode, "category group code")
  static let x: Param<Double?> = .number(
    "x", -180...180, "longitude of the centre; required without a rect and for sort distance")
  static let y: Param<Double?> = .number("y", -90...90, "latitude of the centre")
  static let radius: Param<Int> = .integer(
    "radius", 0...PlaceSearch.maxRadius, default: PlaceSearch.maxRadius, "metres")
  static let rect: Param<JSON?> = .value(
    "rect", .oneOf([.array(of: .number, minItems: 4, maxItems: 4), .string]),
    "[minX, minY, maxX, maxY] (or Kakao's \"minX,minY,maxX,maxY\"); minX > maxX crosses the "
      + "antimeridian")
  static let page: Param<Int> = .integer("page", 1...PlaceSearch.maxPage, default: 1, "1-based")
  static let size: Param<Int> = .integer(
    "size", 1...PlaceSearch.maxSize, default: PlaceSearch.maxSize, "places per page")
  static let sort: Param<PlaceSort> = .choice(
    "sort", default: .accuracy, "distance: nearest first, ties by id; accuracy: by id")

  /// The search's filters, which a places feed takes as its query.
  static let filters: [any DeclaredParam] = [category, x, y, radius, rect, sort]

  static let contract = MethodContract(
    "places/search",
    "Places of a category in the circle around x/y, or in a rect (then x/y, if given, only "
      + "measure distance). At most 45 results are pageable; meta.isEnd marks the last page.",
    params: [category, x, y, radius, rect, page, size, sort],
    result: .component(PlaceSchemas.placeSearchResult))

  /// Written straight from the rows: the map's hot path. Once the index is
  /// built, a search is short CPU work (Benchmarks/README.md): the reader thread answers it.
  static let method = Method.read(contract, now: now) { params, context in
    let search = try query(params, page: params[page], size: params[size])
    return EncodedJSON(writtenBy: try await context.daemon.services.places.searchJSON(search))
  }

  /// The page from the index in memory, when it is ready (see `Method.read`).
  private static func now(_ params: Params, _ context: RequestContext) throws -> EncodedJSON? {
    let search = try query(params, page: params[page], size: params[size])
    return try context.daemon.services.places.searchJSONNow(search).map {
      EncodedJSON(writtenBy: $0)
    }
  }

  /// The search of `filters`, shared with the places feed source. The
  /// declarations check each value; `PlaceSearch` checks the rules between
  /// them (x/y without rect, `sort: "distance"` without x/y, minY above
  /// maxY), its errors here naming the member's full path.
  static func query(_ params: Params, page: Int = 1, size: Int = PlaceSearch.maxSize) throws
    -> PlaceSearch
  {
    guard let category = PlaceCategory(code: params[category]) else {
      throw RPCError.invalidParams(field: params.field("category"), reason: "is not a category")
    }
    do {
      return try PlaceSearch(
        category: category, x: params[x], y: params[y], radius: params[radius],
        rect: try rectangle(params), page: page, size: size, sort: params[sort])
    } catch {
      throw InvalidArgument(field: params.field(error.field), reason: error.reason)
    }
  }

  /// `[minX, minY, maxX, maxY]` numbers, or Kakao's `"minX,minY,maxX,maxY"` text.
  private static func rectangle(_ params: Params) throws(InvalidArgument) -> PlaceRect? {
    var numbers: [Double]
    switch params[rect] {
    case .array(let items)?:
      numbers = items.compactMap(\.doubleValue)
    case .string(let text)?:
      numbers = text.split(separator: ",", omittingEmptySubsequences: false).compactMap {
        Double(String($0.filter { $0 != " " }))
      }
      guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else {
        throw InvalidArgument(
          field: "rect", reason: "expected [minX, minY, maxX, maxY], got \"\(text.prefix(80))\"")
      }
    default:
      return nil
    }
    return PlaceRect(minX: numbers[0], minY: numbers[1], maxX: numbers[2], maxY: numbers[3])
  }
}
