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

/// How both catalog databases search names: a substring of `search_text`,
/// which holds both names lowercased by Swift (every script, not just ASCII).
enum ProductSearch {
  /// The `search_text` of a product with these names.
  static func text(nameKo: String, nameEn: String?) -> String {
    (nameKo + "\n" + (nameEn ?? "")).lowercased()
  }

  /// The LIKE pattern (escape character `\`) that finds `query` anywhere in `search_text`.
  static func likePattern(_ query: String) -> String {
    var escaped = "%"
    // By scalar: "%" followed by a combining mark is one Character, unequal
    // to "%", but the database still reads a "%".
    for scalar in query.lowercased().unicodeScalars {
      if scalar == "%" || scalar == "_" || scalar == "\\" { escaped.unicodeScalars.append("\\") }
      escaped.unicodeScalars.append(scalar)
    }
    return escaped + "%"
  }
}
