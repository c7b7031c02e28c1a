import Protocol
import Services

/// `places/search {category, x?, y?, radius?, rect?, page?, size?, sort?}` →
/// `{items, meta: {totalCount, pageableCount, isEnd}}`.
enum PlacesSearch {
  /// Written straight from the rows: the map's hot path. Once the index is
  /// built, a search is short CPU work (Benchmarks/README.md), so it starts on the reader.
  static let method = Method.encodingTask("places/search", startsOnReader: true) {
    params, context in
    let search = try query(try Params(params))
    return EncodedJSON(writtenBy: try await context.daemon.services.places.searchJSON(search))
  }

  /// The search params, shared with the places feed source. Ranges and types
  /// are checked here; `PlaceSearch` checks the rules between fields (x/y
  /// without rect, `sort: "distance"` without x/y, minY above maxY).
  static func query(_ params: Params) throws -> PlaceSearch {
    guard let code = try params.oneOf("category", PlaceCategory.codes),
      let category = PlaceCategory(code: code)
    else { throw params.missing("category") }
    return try PlaceSearch(
      category: category, x: try params.double("x", in: -180...180),
      y: try params.double("y", in: -90...90),
      radius: try params.int("radius", in: 0...PlaceSearch.maxRadius), rect: try rect(params),
      page: try params.int("page", in: 1...PlaceSearch.maxPage) ?? 1,
      size: try params.int("size", in: 1...PlaceSearch.maxSize) ?? PlaceSearch.maxSize,
      sort: try params.oneOf("sort", PlaceSort.allCases.map(\.rawValue))
        .flatMap(PlaceSort.init(rawValue:)) ?? .accuracy)
  }

  /// `[minX, minY, maxX, maxY]` numbers, or Kakao's `"minX,minY,maxX,maxY"` text.
  private static func rect(_ params: Params) throws -> PlaceRect? {
    guard let value = params.value("rect") else { return nil }
    let expected = "expected [minX, minY, maxX, maxY]"
    var numbers: [Double] = []
    switch value {
    case .array(let items):
      guard items.count == 4 else {
        throw RPCError.invalidParams(
          field: params.field("rect"), reason: "\(expected), got \(items.count) values")
      }
      for (offset, item) in items.enumerated() {
        guard let number = item.doubleValue, number.isFinite else {
          throw RPCError.invalidParams(
            field: params.field("rect[\(offset)]"),
            reason: "expected a number, got \(item.typeName)")
        }
        numbers.append(number)
      }
    case .string(let text):
      numbers = text.split(separator: ",", omittingEmptySubsequences: false).compactMap {
        Double(String($0.filter { $0 != " " }))
      }
      guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else {
        throw RPCError.invalidParams(
          field: params.field("rect"), reason: "\(expected), got \"\(text.prefix(80))\"")
      }
    default:
      throw RPCError.invalidParams(
        field: params.field("rect"), reason: "\(expected), got \(value.typeName)")
    }
    return PlaceRect(minX: numbers[0], minY: numbers[1], maxX: numbers[2], maxY: numbers[3])
  }
}
