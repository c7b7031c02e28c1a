/// Pages of `products/list` for one query (search text, supplier, sort), by
/// keyset cursor. Live: a product created, updated or deleted is placed in a
/// feed's loaded items by its sort key, as the catalog's own order puts it.
public final class ProductsFeedSource: LiveFeedSource {
  public let service: ProductsService
  /// The list params; the feed sets `cursor` and `limit`.
  public let query: ProductListQuery
  public var name: String { "products" }
  public var topic: String { "products" }
  /// The GraphQL upstream sorts by times it may not report: its feeds reload to see a change.
  public var appliesChanges: Bool { service.backend.kind != "remote" }
  /// The search text as `search_text` holds it (lowercased UTF-8); nil for none.
  private let searchBytes: [UInt8]?

  /// The largest page `products/list` returns.
  static let maxPageSize = 100

  public init(service: ProductsService, query: ProductListQuery) {
    self.service = service
    self.query = query
    searchBytes = query.query.flatMap { $0.isEmpty ? nil : Array($0.lowercased().utf8) }
  }

  public func fetch(after position: FeedPosition?, pageSize: Int) async throws -> FeedPage {
    var query = query
    query.limit = pageSize
    query.cursor = position?.cursorValue
    let page = try await service.list(query)
    return FeedPage(
      items: page.items.map { product in
        // A page's item is this feed's alone: made directly, not kept in the record.
        let record = ProductRecord(product, searchable: false)
        return FeedItem(id: product.id, key: record.key(sortedBy: query.sort), json: record.json)
      },
      next: page.nextCursor.map(FeedPosition.cursor))
  }

  public func reloadPageSize(pageSize: Int, target: Int) -> Int {
    min(Self.maxPageSize, max(pageSize, target))
  }

  public func item(for record: FeedRecord) -> FeedItem? {
    guard case .product(let record) = record, matches(record) else { return nil }
    return item(of: record)
  }

  /// Whether the list's filters let the product in: its supplier, and the
  /// search text as a substring of either name, as the catalogs' `LIKE` finds it.
  func matches(_ record: ProductRecord) -> Bool {
    if let supplierId = query.supplierId, record.product.supplier?.id != supplierId {
      return false
    }
    guard let searchBytes else { return true }
    let text = record.searchText
    guard searchBytes.count <= text.count else { return false }
    return (0...(text.count - searchBytes.count)).contains { start in
      text[start..<start + searchBytes.count].elementsEqual(searchBytes)
    }
  }

  /// The product's item, its key the list's `ORDER BY` (the sort's column, then the id).
  func item(of record: ProductRecord) -> FeedItem {
    record.item(sortedBy: query.sort)
  }
}

extension FeedSourceEvent {
  /// What a change of the catalog means to products feeds: the product as
  /// it is now, its removal, or a resync when the change does not say.
  public init(_ change: ProductChange) {
    switch (change.reason, change.id, change.product) {
    case (.created, _, let product?), (.updated, _, let product?):
      self = .changed(
        topic: "products",
        [
          FeedRecordChange(
            id: product.id, version: product.version, record: .product(ProductRecord(product)))
        ])
    case (.deleted, let id?, _):
      // Ids are never reused: nothing comes after a delete.
      self = .changed(
        topic: "products", [FeedRecordChange(id: id, version: Int.max, record: nil)])
    default:
      self = .resync(topic: "products")
    }
  }

  /// Changes of the catalog noticed together, as few events as say them: the
  /// products' changes as one event (each feed sends one `itemsChanged` for
  /// all of them), then a resync if any change does not say what happened.
  public static func events(_ changes: [ProductChange]) -> [FeedSourceEvent] {
    var records: [FeedRecordChange] = []
    var resync = false
    for change in changes {
      switch FeedSourceEvent(change) {
      case .changed(_, let more): records += more
      case .resync: resync = true
      }
    }
    var events: [FeedSourceEvent] = []
    if !records.isEmpty { events.append(.changed(topic: "products", records)) }
    if resync { events.append(.resync(topic: "products")) }
    return events
  }
}
