/// Pages of `quotes/list`, optionally of one author or with all of some tags.
public struct QuotesFeedSource: FeedSource {
  public let service: QuotesService
  public let author: String?
  public let tags: [String]
  public var name: String { "quotes" }

  public init(service: QuotesService, author: String? = nil, tags: [String] = []) {
    self.service = service
    self.author = author
    self.tags = tags
  }

  public func fetch(after position: FeedPosition?, pageSize: Int) async throws -> FeedPage {
    let page = try await service.list(
      page: position?.pageNumber ?? 1, limit: pageSize, author: author, tags: tags)
    return FeedPage(
      items: page.items.map { FeedItem(json: $0.json) }, next: page.nextPage.map(FeedPosition.page))
  }
}
