/// The statements of one `products/list` page on PostgreSQL. A page and its
/// count are one statement: one round trip, and one snapshot, so they agree.
/// Only fixed SQL fragments are assembled here; every value is a bound parameter.
struct PostgresProductListSQL {
  /// How a search finds its page: the trigram index's matches sorted, or a
  /// walk of the sort's index (as on SQLite). PostgreSQL's planner picks from
  /// its own estimate of the matches, which for `LIKE '%…%'` is far off (for
  /// '%mackerel%' on a million products it expects 102 where 21,122 match),
  /// so the backend picks from the match count instead.
  typealias TextPlan = ProductListSQL.TextPlan

  let query: ProductListQuery
  let filter: ProductListFilter

  var supplier: Int64? { filter.supplier }
  /// The query text, or `nil` for none.
  var text: String? { filter.text }

  /// The cheaper plan for a search with `matches` of `products` (as last
  /// counted). The walk reads about (limit + 1) × products / matches rows;
  /// the trigram index costs per match, after a fixed cost for the posting
  /// lists of common trigrams (" 1l" is in every litre). The weights are
  /// measured (Benchmarks/README.md, "Figures behind the code's constants").
  func plan(matches: Int, products: Int) -> TextPlan {
    guard (text?.count ?? 0) >= 3 else { return .scan }
    guard matches > 0 else { return .trigramIndex }
    let walk = Double(query.limit + 1) * Double(max(products, 1)) / Double(matches)
    let index = 5_000 + 2 * Double(matches)
    return index < walk ? .trigramIndex : .scan
  }

  /// The columns of a search's kept count, in this order, after the count:
  /// the catalog's version (the sum of `catalog_changes`), its unlogged
  /// changes and the statement's snapshot.
  static let keptColumns = """
    v.version, v.unlogged, pg_current_snapshot()::text AS snapshot
    FROM (SELECT (SELECT coalesce(sum(n), 0) FROM catalog_changes) AS version,
      (SELECT n FROM catalog_unlogged_changes) AS unlogged) v
    """

  /// For a search: the products searched (all, or the supplier's), the
  /// match count and `keptColumns`, in one snapshot.
  var searchCount: (sql: String, parameters: [String?]) {
    var (conditions, parameters) = filters(plan: nil)
    parameters.append(String(supplier ?? -1))
    return (
      """
      SELECT (SELECT coalesce(sum(n), 0) FROM product_counts WHERE supplier_id = $\(parameters.count)::bigint),
        (SELECT count(*) FROM products p WHERE \(conditions.joined(separator: " AND "))),
        \(Self.keptColumns)
      """,
      parameters
    )
  }

  /// The page after `cursor`: `limit + 1` rows (the extra one tells that
  /// another page follows) of `PostgresProductBackend.selectColumns`, each
  /// followed by the total count and, for a search, `keptColumns`; one row of
  /// NULLs but those when the page is empty.
  ///
  /// Without text the total is the kept count of `product_counts`. With text
  /// it is, from the cheapest that holds:
  /// - NULL when the catalog's version is the one `kept` was counted at: that
  ///   count holds;
  /// - `kept`'s count plus the change log's matching rows that its snapshot
  ///   did not see, when its snapshot is recent and no unlogged change came
  ///   between (see `PostgresCatalogSchema.version5`);
  /// - counted.
  func page(
    after cursor: ProductCursor?, plan: TextPlan?, kept: PostgresKeptCount?,
    now: UInt64
  ) -> (sql: String, parameters: [String?]) {
    var (conditions, parameters) = filters(plan: plan)
    let (column, cast, ascending): (String, String, Bool) =
      switch query.sort {
      case .newest: ("created_at", "::bigint", false)
      case .priceAsc: ("price", "::bigint", true)
      case .priceDesc: ("price", "::bigint", false)
      case .name: ("name_ko", " COLLATE \"C\"", true)
      }
    // An expression in place of a column keeps the planner off the sort's
    // index: with the trigram plan the few matches are sorted instead.
    let hidden = plan == .trigramIndex && text != nil
    let (key, id) =
      hidden
      ? (cast == "::bigint" ? "p.\(column) + 0" : "(p.\(column) || '') COLLATE \"C\"", "p.id + 0")
      : ("p.\(column)", "p.id")
    if let cursor {
      switch cursor.key {
      case .integer(let value): parameters.append(String(value))
      case .text(let value): parameters.append(value)
      }
      parameters.append(String(cursor.id))
      let first = parameters.count - 1
      conditions.append(
        "(\(key), \(id)) \(ascending ? ">" : "<") ($\(first)\(cast), $\(first + 1)::bigint)")
    }
    let direction = ascending ? "ASC" : "DESC"
    let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    parameters.append(String(query.limit + 1))
    let page =
      PostgresProductBackend.selectProduct + whereClause
      + " ORDER BY \(key) \(direction), \(id) \(direction) LIMIT $\(parameters.count)::bigint"
    let head: String
    let keptColumns: String
    if text == nil {
      parameters.append(String(supplier ?? -1))
      head = """
        SELECT (SELECT coalesce(sum(n), 0) FROM product_counts WHERE supplier_id = $\(parameters.count)::bigint) AS total
        """
      keptColumns = ""
    } else {
      // The count and the log's rows reuse the filters' parameters, which
      // come first. A scalar subquery in a CASE runs only when its branch is
      // taken; a NULL parameter takes no branch.
      let (countConditions, _) = filters(plan: nil)
      let (logConditions, _) = filters(plan: nil, table: "l")
      let recent = kept?.isRecent(now: now) == true ? kept : nil
      parameters += [
        kept.map { String($0.version) }, recent.map { String($0.unlogged) },
        recent.map { String($0.count) }, recent?.snapshot,
      ]
      let (version, unlogged, count, snapshot) =
        (parameters.count - 3, parameters.count - 2, parameters.count - 1, parameters.count)
      head = """
        SELECT CASE
          WHEN v.version = $\(version)::numeric THEN NULL
          WHEN v.unlogged = $\(unlogged)::bigint THEN $\(count)::bigint + (
            SELECT coalesce(sum(l.delta), 0) FROM catalog_change_log l
            WHERE l.xid >= pg_snapshot_xmin($\(snapshot)::pg_snapshot)
              AND NOT pg_visible_in_snapshot(l.xid, $\(snapshot)::pg_snapshot)
              AND \(logConditions.joined(separator: " AND ")))
          ELSE (SELECT count(*) FROM products p WHERE \(countConditions.joined(separator: " AND "))) END AS total,
          \(Self.keptColumns)
        """
      keptColumns = ", head.version, head.unlogged, head.snapshot"
    }
    // The outer ORDER BY keeps the page's order through the join (a few rows to sort).
    return (
      """
      SELECT page.*, head.total\(keptColumns) FROM (\(head)) head
      LEFT JOIN (\(page)) page ON true
      ORDER BY page.\(column) \(direction), page.id \(direction)
      """,
      parameters
    )
  }

  /// The conditions of the supplier and the text; `$1`, `$2` in that order.
  /// A `scan` tests an expression of `search_text`, which keeps the planner
  /// off the trigram index.
  private func filters(plan: TextPlan?, table: String = "p") -> (
    conditions: [String], parameters: [String?]
  ) {
    var conditions: [String] = []
    var parameters: [String?] = []
    if let supplier {
      parameters.append(String(supplier))
      conditions.append("\(table).supplier_id = $\(parameters.count)::bigint")
    }
    if let text {
      parameters.append(ProductSearch.likePattern(text))
      let searched = plan == .scan ? "(\(table).search_text || '')" : "\(table).search_text"
      conditions.append("\(searched) LIKE $\(parameters.count) ESCAPE '\\'")
    }
    return (conditions, parameters)
  }
}
