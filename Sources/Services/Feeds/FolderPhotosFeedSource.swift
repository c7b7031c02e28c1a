import Protocol

/// Pages of a photos folder, by relative path (a keyset: the next page
/// starts after the last path shown, so a file added or removed above it
/// does not shift it). Live: the folder's changes (`FolderPhotoBackend.events()`)
/// are placed in a feed's loaded items by path, as the folder's order puts them.
public final class FolderPhotosFeedSource: LiveFeedSource {
  public let backend: FolderPhotoBackend
  public var name: String { "photos" }
  public var topic: String { Self.topic }
  public var appliesChanges: Bool { true }

  /// The changes every folder photos feed follows.
  public static let topic = "photos"

  public init(backend: FolderPhotoBackend) {
    self.backend = backend
  }

  public func fetch(after position: FeedPosition?, pageSize: Int) async throws -> FeedPage {
    let page = try await backend.list(after: position?.cursorValue, limit: pageSize)
    let items = page.items.map { Self.item($0.photo, relativePath: $0.relativePath) }
    let next = page.endReached ? nil : page.items.last.map { FeedPosition.cursor($0.relativePath) }
    return FeedPage(items: items, next: next)
  }

  public func reloadPageSize(pageSize: Int, target: Int) -> Int {
    min(PhotosService.maxLimit, max(pageSize, target))
  }

  public func item(for record: FeedRecord) -> FeedItem? {
    guard case .photo(let photo, let relativePath) = record else { return nil }
    return Self.item(photo, relativePath: relativePath)
  }

  /// The photo's item: its key is its relative path's bytes (`PathOrder`).
  static func item(_ photo: Photo, relativePath: String) -> FeedItem {
    FeedItem(id: photo.id, key: FeedSortKey(text: relativePath), json: photo.json)
  }
}

extension FeedSourceEvent {
  /// What a change of the photos folder means to folder photos feeds.
  public init(_ event: PhotoFolderEvent) {
    switch event {
    case .resync:
      self = .resync(topic: FolderPhotosFeedSource.topic)
    case .changed(let changes):
      self = .changed(
        topic: FolderPhotosFeedSource.topic,
        changes.map { change in
          switch change {
          case .upserted(let photo, let relativePath):
            FeedRecordChange(
              id: photo.id, version: nil, record: .photo(photo, relativePath: relativePath))
          case .removed(let id, _):
            FeedRecordChange(id: id, version: nil, record: nil)
          }
        })
    }
  }
}
