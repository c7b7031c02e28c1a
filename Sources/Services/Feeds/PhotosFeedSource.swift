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
