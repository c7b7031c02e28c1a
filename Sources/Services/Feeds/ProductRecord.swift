import Protocol
import Synchronization

/// A product as products feeds place it, worked out once for all of them:
/// its wire value, its row id, the bytes its sorts compare and the text
/// searches look in.
public final class ProductRecord: Sendable {
  public let product: Product
  let json: JSON
  let rowID: Int64
  /// `createdAt` as microseconds (as its text, should it be of another shape:
  /// fixed-width RFC 3339 UTC times sort as their instants do).
  let created: FeedSortKey.Primary
  /// `nameKo`, as the `name` sort compares it.
  let name: [UInt8]
  /// `search_text` as the catalogs hold it (both names lowercased); empty
  /// for products of a page, which no filter asks about.
  let searchText: [UInt8]
  /// Its item for each sort asked for: one object for all the feeds a change reaches.
  private let items = Mutex<[ProductSort: FeedItem]>([:])

  public convenience init(_ product: Product) {
    self.init(product, searchable: true)
  }

  init(_ product: Product, searchable: Bool) {
    self.product = product
    json = product.json
    rowID = Int64(product.id) ?? 0
    let createdAt = product.createdAt ?? ""
    created =
      RFC3339.microseconds(createdAt).map(FeedSortKey.Primary.integer)
      ?? .bytes(Array(createdAt.utf8))
    name = Array(product.nameKo.utf8)
    searchText =
      searchable
      ? Array(ProductSearch.text(nameKo: product.nameKo, nameEn: product.nameEn).utf8) : []
  }

  /// Where it sorts in lists sorted by `sort`: the list's `ORDER BY` (the
  /// sort's column, then the id).
  func key(sortedBy sort: ProductSort) -> FeedSortKey {
    switch sort {
    case .newest: FeedSortKey(created, tiebreak: rowID, descending: true)
    case .priceAsc: FeedSortKey(.integer(Int64(product.price)), tiebreak: rowID)
    case .priceDesc: FeedSortKey(.integer(Int64(product.price)), tiebreak: rowID, descending: true)
    case .name: FeedSortKey(.bytes(name), tiebreak: rowID)
    }
  }

  /// Its item in lists sorted by `sort`, made once for all the feeds of that sort.
  func item(sortedBy sort: ProductSort) -> FeedItem {
    items.withLock { items in
      if let item = items[sort] { return item }
      let item = FeedItem(id: product.id, key: key(sortedBy: sort), json: json)
      items[sort] = item
      return item
    }
  }
}
