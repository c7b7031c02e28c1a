import Protocol
import Services

/// `feeds/open {source, query?, pageSize?, changes?}` → `{feedId, state}`: an idle,
/// empty feed over a source's list; `query` holds that list's filters
/// (products: `query`, `supplierId`, `sort`; quotes: `author`, `tag`; places:
/// `category`, `x`, `y`, `radius`, `rect`, `sort`; photos: none). The feed
/// sets the paging params itself. `changes` (`diff`, the default, or
/// `reset`) says how the feed follows changes of its source.
enum FeedsOpen {
  static let sources = ["photos", "products", "places", "quotes"]

  static let method = Method.task("feeds/open") { params, context in
    let params = try Params(params)
    guard let name = try params.oneOf("source", sources) else { throw params.missing("source") }
    let query = try params.nested("query") ?? Params(nil, path: "query.")
    let pageSize = try params.int("pageSize", in: 1...100)
    let changes =
      try params.oneOf("changes", FeedChangeMode.allCases.map(\.rawValue))
      .flatMap(FeedChangeMode.init(rawValue:)) ?? .diff
    for field in ["page", "limit", "size", "cursor"] where query.value(field) != nil {
      throw RPCError.invalidParams(
        field: "query." + field, reason: "is set by the feed (use pageSize)")
    }
    let services = context.daemon.services
    let source: any FeedSource
    let defaultPageSize: Int
    switch name {
    case "photos":
      if let folder = services.photos.backend as? FolderPhotoBackend {
        // Following the folder starts before the first page is read, so no change falls between.
        services.followPhotosFolder(folder)
        source = FolderPhotosFeedSource(backend: folder)
      } else {
        source = PhotosFeedSource(service: services.photos)
      }
      defaultPageSize = PhotosService.defaultLimit
    case "products":
      source = ProductsFeedSource(
        service: services.products, query: try ProductsList.listQuery(query))
      defaultPageSize = 20
    case "quotes":
      source = QuotesFeedSource(
        service: services.quotes, author: try query.string("author", maxLength: 200),
        tag: try query.string("tag", maxLength: 100))
      defaultPageSize = 20
    default:  // places
      if let pageSize, pageSize > PlaceSearch.maxSize {
        throw RPCError.invalidParams(
          field: "pageSize", reason: "must be between 1 and \(PlaceSearch.maxSize) for places")
      }
      source = PlacesFeedSource(service: services.places, search: try placeSearch(query))
      defaultPageSize = PlaceSearch.maxSize
    }
    let feedId = try await services.feeds.open(
      source: source, pageSize: pageSize ?? defaultPageSize, changes: changes)
    return ["feedId": JSON(feedId), "state": JSON(FeedState.idle.rawValue)]
  }

  /// The places search of `query`, its errors naming `query.<field>`.
  private static func placeSearch(_ query: Params) throws -> PlaceSearch {
    do {
      return try PlacesSearch.query(query)
    } catch let error as InvalidArgument {
      throw InvalidArgument(field: "query." + error.field, reason: error.reason)
    }
  }
}
