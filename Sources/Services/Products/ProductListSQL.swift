import FoundationEssentials
import Protocol

/// The statements of one `products/list` page and its count. Only fixed SQL
/// fragments are assembled here; every value is a bound parameter.
struct ProductListSQL {
  /// How a text search finds its page.
  enum TextPlan {
    /// The trigram index gives every match; they are sorted. Cheap when few match.
    case trigramIndex
    /// The sort's index is walked, each row tested with LIKE, until the page
    /// is full. Cheap when many match; the only way for 1–2 characters.
    case scan
  }

  let query: ProductListQuery
  let supplier: Int64?
  /// The query text, or `nil` for none.
  let text: String?

  init(query: ProductListQuery, filter: ProductListFilter) {
    self.query = query
    supplier = filter.supplier
    text = filter.text
  }

  /// True when the search text is long enough for the trigram index.
  var canUseTrigrams: Bool { (text?.count ?? 0) >= 3 }

  /// How many products match: a kept counter without text, else a count.
  var count: (sql: String, parameters: [SQLiteValue]) {
    guard let text else {
      return ("SELECT n FROM product_counts WHERE supplier_id = ?", [.integer(supplier ?? -1)])
    }
    if canUseTrigrams && supplier == nil {
      return (
        "SELECT count(*) FROM products_fts WHERE products_fts MATCH ?", [.text(Self.phrase(text))]
      )
    }
    let (conditions, parameters) = filters(plan: canUseTrigrams ? .trigramIndex : .scan)
    return (
      "SELECT count(*) FROM products p WHERE " + conditions.joined(separator: " AND "), parameters
    )
  }

  /// The sum of the search's rows in `search_changes` after `seq`: how many
  /// more products match than did at `seq`.
  func loggedChanges(after seq: Int64) -> (sql: String, parameters: [SQLiteValue]) {
    var conditions = ["seq > ?", "search_text LIKE ? ESCAPE '\\'"]
    var parameters: [SQLiteValue] = [.integer(seq), .text(ProductSearch.likePattern(text ?? ""))]
    if let supplier {
      conditions.append("supplier_id = ?")
      parameters.append(.integer(supplier))
    }
    return (
      "SELECT coalesce(sum(delta), 0) FROM search_changes WHERE "
        + conditions.joined(separator: " AND "), parameters
    )
  }

  /// The page after `cursor`, one row more than the limit (to know whether another page follows).
  func page(after cursor: ProductCursor?, plan: TextPlan) -> (
    sql: String, parameters: [SQLiteValue]
  ) {
    var (conditions, parameters) = filters(plan: plan)
    if let cursor {
      switch cursor.key {
      case .integer(let value): parameters.append(.integer(value))
      case .text(let value): parameters.append(.text(value))
      }
      parameters.append(.integer(cursor.id))
    }
    parameters.append(.integer(Int64(query.limit + 1)))
    // Without search text the SQL is one of a few, made once: the same
    // storage each time, which the statement cache matches without hashing.
    let made =
      text == nil
      ? Self.unsearchedPageSQL[
        UnsearchedPage(sort: query.sort, supplier: supplier != nil, cursor: cursor != nil)] : nil
    let sql =
      made
      ?? Self.pageSQL(
        sort: query.sort, conditions: conditions, cursor: cursor != nil,
        sortsMatches: text != nil && plan == .trigramIndex)
    return (sql, parameters)
  }

  /// The text of a page's statement: `conditions`, then the cursor's, sorted.
  /// With `sortsMatches`, `+column` keeps SQLite from walking the sort's index
  /// when the trigram index has already given the (few) matches: sorting them
  /// is cheaper.
  private static func pageSQL(
    sort: ProductSort, conditions: [String], cursor: Bool, sortsMatches: Bool
  ) -> String {
    var conditions = conditions
    let (column, ascending): (String, Bool) =
      switch sort {
      case .newest: ("p.created_at", false)
      case .priceAsc: ("p.price", true)
      case .priceDesc: ("p.price", false)
      case .name: ("p.name_ko", true)
      }
    if cursor {
      conditions.append("(\(column), p.id) \(ascending ? ">" : "<") (?, ?)")
    }
    let direction = ascending ? "ASC" : "DESC"
    let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    let orderColumn = sortsMatches ? "+" + column : column
    return SQLiteProductBackend.selectProduct + whereClause
      + " ORDER BY \(orderColumn) \(direction), p.id \(direction) LIMIT ?"
  }

  /// What tells the page statements without search text apart.
  private struct UnsearchedPage: Hashable {
    let sort: ProductSort
    let supplier: Bool
    let cursor: Bool
  }

  /// Every page statement without search text.
  private static let unsearchedPageSQL: [UnsearchedPage: String] = Dictionary(
    uniqueKeysWithValues: ProductSort.allCases.flatMap { sort in
      [false, true].flatMap { supplier in
        [false, true].map { cursor in
          let sql = pageSQL(
            sort: sort, conditions: supplier ? ["p.supplier_id = ?"] : [], cursor: cursor,
            sortsMatches: false)
          return (UnsearchedPage(sort: sort, supplier: supplier, cursor: cursor), sql)
        }
      }
    })

  private func filters(plan: TextPlan) -> (conditions: [String], parameters: [SQLiteValue]) {
    var conditions: [String] = []
    var parameters: [SQLiteValue] = []
    if let supplier {
      conditions.append("p.supplier_id = ?")
      parameters.append(.integer(supplier))
    }
    if let text {
      if plan == .trigramIndex && canUseTrigrams {
        conditions.append("p.id IN (SELECT rowid FROM products_fts WHERE products_fts MATCH ?)")
        parameters.append(.text(Self.phrase(text)))
      } else {
        conditions.append("p.search_text LIKE ? ESCAPE '\\'")
        parameters.append(.text(ProductSearch.likePattern(text)))
      }
    }
    return (conditions, parameters)
  }

  /// A quoted FTS5 string, which the trigram tokenizer matches as a substring.
  /// Quotes are doubled by scalar: one followed by a combining mark is one
  /// Character, which `replacing` would pass over.
  private static func phrase(_ text: String) -> String {
    var quoted = "\""
    for scalar in text.unicodeScalars {
      if scalar == "\"" { quoted.unicodeScalars.append("\"") }
      quoted.unicodeScalars.append(scalar)
    }
    return quoted + "\""
  }

  /// The cheaper plan for a page of a search with `matches` of `total`
  /// products: a scan reads about (limit + 1) × total / matches rows, the
  /// trigram index costs per match; the weights are measured (Benchmarks/README.md,
  /// "Figures behind the code's constants").
  func textPlan(matches: Int, total: Int) -> TextPlan {
    guard canUseTrigrams else { return .scan }
    guard matches > 0 else { return .trigramIndex }
    let scanCost = 5 * Double(query.limit + 1) * Double(max(total, 1)) / Double(matches)
    let indexCost = 3 * Double(matches)
    return indexCost <= scanCost ? .trigramIndex : .scan
  }
}
