import Protocol
import Services

/// `feeds/open {source, query?, pageSize?, changes?}` → `{feedId, state}`: an idle,
/// empty feed over a source's list; `query` holds that list's filters, as
/// the source's method declares them. The feed sets the paging params
/// itself. `changes` (`diff`, the default, or `reset`) says how the feed
/// follows changes of its source.
enum FeedsOpen {
  /// Each source's filters: the list method's params without its paging.
  static let filters: [(source: String, title: String, params: [any DeclaredParam])] = [
    ("photos", "PhotosFeedQuery", []),
    ("products", "ProductsFeedQuery", ProductsList.filters),
    ("places", "PlacesFeedQuery", PlacesSearch.filters),
    ("quotes", "QuotesFeedQuery", QuotesList.filters),
  ]

  /// The paging params of the sources' lists, which the feed sets itself.
  static let pagingParams = ["page", "limit", "size", "cursor"]

  static let source: Param<String> = .requiredString(
    "source", .choice(filters.map(\.source)), "the list to page through")
  static let query: Param<JSON?> = .value(
    "query",
    .dependent(
      .oneOf(filters.map { .titled($0.title, .object(ObjectShape($0.params))) })),
    "the source's list filters, as its list method takes them, without paging params: products "
      + "query, supplierId, sort; quotes author, tags; places category, x, y, radius, rect, "
      + "sort; photos none")
  static let pageSize: Param<Int?> = .integer(
    "pageSize", minimum: 1, maximum: 100,
    "items per fetch (places: at most 15); default the source's list default (photos 30, "
      + "products 20, quotes 20, places 15)")
  static let changes: Param<FeedChangeMode> = .choice(
    "changes", default: .diff,
    "how the feed follows changes of its source (products; a photos folder): diff sends "
      + "feeds/itemsChanged; reset refreshes (feeds/pageLoaded with reset), keeping the loaded "
      + "count, for clients that only handle pages")

  static let contract = MethodContract(
    "feeds/open",
    "Opens an idle, empty feed over a source's list; query holds that list's filters (products: "
      + "query, supplierId, sort; quotes: author, tags; places: category, x, y, radius, rect, "
      + "sort; photos: none): the feed sets page, limit, size and cursor itself. A places feed "
      + "holds at most the first 45 places. At most 64 open feeds (the --max-open-feeds "
      + "setting): -32602 on source beyond.",
    params: [source, query, pageSize, changes],
    result: MethodResult(
      "FeedOpened",
      .object([
        Member("feedId", .string, required: true),
        Member("state", .reference(FeedSchemas.feedState), required: true),
      ])))

  static let method = Method.task(contract) { params, context in
    let name = params[source]
    let query = try sourceQuery(params[query], of: name)
    let pageSize = params[pageSize]
    let services = context.daemon.services
    let feedSource: any FeedSource
    let defaultPageSize: Int
    switch name {
    case "photos":
      if let folder = services.photos.backend as? FolderPhotoBackend {
        // Following the folder starts before the first page is read, so no change falls between.
        services.followPhotosFolder(folder)
        feedSource = FolderPhotosFeedSource(backend: folder)
      } else {
        feedSource = PhotosFeedSource(service: services.photos)
      }
      defaultPageSize = PhotosList.limit.defaultValue
    case "products":
      feedSource = ProductsFeedSource(
        service: services.products, query: ProductsList.listQuery(query))
      defaultPageSize = ProductsList.limit.defaultValue
    case "quotes":
      feedSource = QuotesFeedSource(
        service: services.quotes, author: query[QuotesList.author], tags: query[QuotesList.tags])
      defaultPageSize = QuotesList.limit.defaultValue
    default:  // places
      if let pageSize, pageSize > PlaceSearch.maxSize {
        throw RPCError.invalidParams(
          field: "pageSize", reason: "must be between 1 and \(PlaceSearch.maxSize) for places")
      }
      feedSource = PlacesFeedSource(
        service: services.places, search: try PlacesSearch.query(query))
      defaultPageSize = PlacesSearch.size.defaultValue
    }
    let feedId = try await context.session.feeds.open(
      source: feedSource, pageSize: pageSize ?? defaultPageSize, changes: params[changes])
    return ["feedId": JSON(feedId), "state": JSON(FeedState.idle.rawValue)]
  }

  /// `query` checked against the source's filters, its errors naming `query.<member>`.
  private static func sourceQuery(_ query: JSON?, of source: String) throws(RPCError) -> Params {
    if case .object(let object)? = query {
      for name in pagingParams where object[name] != nil {
        throw .invalidParams(field: "query." + name, reason: "is set by the feed (use pageSize)")
      }
    }
    let params = filters.first { $0.source == source }?.params ?? []
    return try Params(query, checkedAgainst: ObjectShape(params), path: "query")
  }
}
