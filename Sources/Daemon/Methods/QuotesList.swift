import Protocol
import Services

/// `quotes/list {page?, limit?, author?, tags?}` → `{items, page, nextPage}`.
enum QuotesList {
  static let page: Param<Int> = .integer("page", 1...100_000, default: 1, "1-based")
  static let limit: Param<Int> = .integer("limit", 1...100, default: 20, "quotes per page")
  static let author: Param<String?> = .string("author", maxLength: 200, "author name or slug")
  static let tags: Param<[String]> = .strings("tags", maxLength: 100, "a quote has all of them")

  /// The list's filters, which a quotes feed takes as its query.
  static let filters: [any DeclaredParam] = [author, tags]

  static let contract = MethodContract(
    "quotes/list", "Quotes page by page, optionally of one author or with all of some tags.",
    params: [page, limit] + filters, result: .component(QuoteSchemas.quotePage))

  static let method = Method.task(contract) { params, context in
    let quotes = try await context.daemon.services.quotes.list(
      page: params[page], limit: params[limit], author: params[author], tags: params[tags])
    return quotes.json
  }
}
