import Protocol

/// Pages of `photos/list`.
public struct PhotosFeedSource: FeedSource {
  public let service: PhotosService
  public var name: String { "photos" }

  public init(service: PhotosService) {
    self.service = service
  }

  public func fetch(after position: FeedPosition?, pageSize: Int) async throws -> FeedPage {
    let page = try await service.list(page: position?.pageNumber ?? 1, limit: pageSize)
    return FeedPage(
      items: page.items.map { FeedItem(json: $0.json) }, next: page.nextPage.map(FeedPosition.page))
  }
}

/// Pages of `quotes/list`, optionally of one author or tag.
public struct QuotesFeedSource: FeedSource {
  public let service: QuotesService
  public let author: String?
  public let tag: String?
  /// Receives `quotes/loading` transitions, like `quotes/list` does.
  public let loading: @Sendable (Bool) -> Void
  public var name: String { "quotes" }

  public init(
    service: QuotesService, author: String? = nil, tag: String? = nil,
    loading: @escaping @Sendable (Bool) -> Void = { _ in }
  ) {
    self.service = service
    self.author = author
    self.tag = tag
    self.loading = loading
  }

  public func fetch(after position: FeedPosition?, pageSize: Int) async throws -> FeedPage {
    let page = try await service.list(
      page: position?.pageNumber ?? 1, limit: pageSize, author: author, tag: tag,
      loading: loading)
    return FeedPage(
      items: page.items.map { FeedItem(json: $0.json) }, next: page.nextPage.map(FeedPosition.page))
  }
}

extension FeedPosition {
  /// The page number, for page-numbered sources (1 when the position is a cursor).
  var pageNumber: Int {
    if case .page(let number) = self { number } else { 1 }
  }

  /// The cursor, for cursor-paged sources (nil when the position is a page number).
  var cursorValue: String? {
    if case .cursor(let cursor) = self { cursor } else { nil }
  }
}
