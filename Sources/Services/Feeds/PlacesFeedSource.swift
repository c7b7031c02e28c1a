import Protocol

/// Pages of `places/search` for one search (category, area, order): Kakao
/// Local's paging, so a feed holds at most the first 45 places.
public struct PlacesFeedSource: FeedSource {
  public let service: PlacesService
  /// The search; the feed sets its `page` and `size`.
  public let search: PlaceSearch
  public var name: String { "places" }

  public init(service: PlacesService, search: PlaceSearch) {
    self.service = service
    self.search = search
  }

  public func fetch(after position: FeedPosition?, pageSize: Int) async throws -> FeedPage {
    let page = position?.pageNumber ?? 1
    let result = try await service.search(try search.page(page, size: pageSize))
    let isEnd = result.meta.isEnd || page >= PlaceSearch.maxPage || result.items.isEmpty
    return FeedPage(
      items: result.items.map { FeedItem(json: $0.json) }, next: isEnd ? nil : .page(page + 1))
  }
}

extension PlaceSearch {
  /// The same search for page `page` of `size` places.
  /// - Throws: `InvalidArgument` when `page` or `size` is out of range.
  func page(_ page: Int, size: Int) throws(InvalidArgument) -> PlaceSearch {
    switch area {
    case .circle(let center, let radius):
      try PlaceSearch(
        category: category, x: center.x, y: center.y, radius: radius, page: page, size: size,
        sort: sort)
    case .rect(let rect):
      try PlaceSearch(
        category: category, x: origin?.x, y: origin?.y, rect: rect, page: page, size: size,
        sort: sort)
    }
  }
}
