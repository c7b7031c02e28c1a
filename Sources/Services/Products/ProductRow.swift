/// A product as a catalog database returns it, with the raw creation time a
/// `newest` cursor needs. Shared by the SQLite and PostgreSQL backends, which
/// store the same columns and page the same way.
struct ProductRow {
  let product: Product
  /// Microseconds since the epoch.
  let createdMicroseconds: Int64

  /// The row id an id names: only its canonical decimal text ("5", never
  /// "05" or "+5"), so one product has exactly one id.
  static func rowID(_ id: String) -> Int64? {
    guard let value = Int64(id), String(value) == id else { return nil }
    return value
  }

  /// The supplier row a draft's or patch's `supplierId` names; a malformed
  /// id names no supplier (both catalogs answer the same).
  static func supplierRowID(_ id: String?) throws(InvalidArgument) -> Int64? {
    guard let id else { return nil }
    guard let rowID = rowID(id) else {
      throw InvalidArgument(field: "supplierId", reason: "no supplier with id \(id)")
    }
    return rowID
  }

  /// The page of `rows` fetched with `limit + 1` (the extra row tells that
  /// another page follows), and the cursor of the next page.
  static func page(
    _ rows: [ProductRow], limit: Int, sort: ProductSort, filter: UInt64, totalCount: Int
  ) -> ProductPage {
    let page = rows.prefix(limit)
    var next: String?
    if rows.count > limit, let last = page.last, let id = Int64(last.product.id) {
      let key: ProductCursor.Key =
        switch sort {
        case .newest: .integer(last.createdMicroseconds)
        case .priceAsc, .priceDesc: .integer(Int64(last.product.price))
        case .name: .text(last.product.nameKo)
        }
      next = ProductCursor(sort: sort, filter: filter, key: key, id: id).encoded
    }
    return ProductPage(items: page.map(\.product), nextCursor: next, totalCount: totalCount)
  }
}
