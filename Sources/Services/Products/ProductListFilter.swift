/// A `products/list` query as both catalog databases need it before any SQL:
/// the digest its cursors carry, its cursor, its supplier's row id and its text.
struct ProductListFilter {
  let digest: UInt64
  let cursor: ProductCursor?
  /// The supplier's row id, or `nil` for every supplier.
  let supplier: Int64?
  /// The search text, or `nil` for none (an empty query is none).
  let text: String?

  /// `nil` when nothing can match (a supplier id that names no row).
  /// - Throws: `InvalidArgument` for a cursor of another list.
  init?(_ query: ProductListQuery) throws(InvalidArgument) {
    digest = ProductCursor.filterDigest(query: query.query, supplierId: query.supplierId)
    text = query.query.flatMap { $0.isEmpty ? nil : $0 }
    let digest = digest
    cursor = try query.cursor.map { text throws(InvalidArgument) in
      try ProductCursor(decoding: text, sort: query.sort, filter: digest)
    }
    if let supplierId = query.supplierId {
      guard let id = ProductRow.rowID(supplierId) else { return nil }
      supplier = id
    } else {
      supplier = nil
    }
  }
}
